package hotplex_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestProductionCodeDoesNotImportTestkit: testkit and the internal fakes
// hold test helpers; what the binary and the SDK run (the built-in
// offline model included) lives elsewhere. The engine knows agents only
// through the provider interfaces.
func TestProductionCodeDoesNotImportTestkit(t *testing.T) {
	const mod = "github.com/hotplex/hotplex/"
	testOnly := []string{mod + "testkit", mod + "internal/fakeprovider", mod + "internal/clocktest", mod + "internal/pgtest"}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "testkit", "e2e", "bench", "testdata", "node_modules", ".tools", ".git":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			for _, bad := range testOnly {
				if p == bad || strings.HasPrefix(p, bad+"/") {
					t.Errorf("%s imports %s", path, p)
				}
			}
			if filepath.Dir(path) == "engine" && strings.HasPrefix(p, mod+"provider/") {
				t.Errorf("%s imports the agent implementation %s", path, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
