package server_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/hotplex/hotplex/server"
	"github.com/hotplex/hotplex/testkit"
)

var updateOpenAPI = flag.Bool("update-openapi", false, "rewrite api/openapi.json")

// The committed OpenAPI document is the one the code generates: the
// router and the document are built from the same table.
func TestOpenAPIFileIsFresh(t *testing.T) {
	doc, err := server.New(server.Options{}).OpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	var parsed struct {
		OpenAPI string                    `json:"openapi"`
		Paths   map[string]map[string]any `json:"paths"`
		Comps   map[string]map[string]any `json:"components"`
	}
	if err := json.Unmarshal(doc, &parsed); err != nil || parsed.OpenAPI != "3.1.0" || len(parsed.Paths) < 9 {
		t.Fatalf("document: %v %+v", err, parsed.OpenAPI)
	}
	if _, ok := parsed.Comps["schemas"]["EventWithMeta"]; !ok {
		t.Fatal("the event schema is missing")
	}
	path := filepath.Join(testkit.ModuleRoot(t), "api", "openapi.json")
	doc = append(doc, '\n')
	if *updateOpenAPI {
		if err := os.WriteFile(path, doc, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	committed, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./server -run OpenAPI -update-openapi writes it)", err)
	}
	if !bytes.Equal(committed, doc) {
		t.Fatal("api/openapi.json is stale: run go test ./server -run OpenAPI -update-openapi")
	}
}
