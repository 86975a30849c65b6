package engine

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// realTempDir is t.TempDir with symbolic links resolved, so results can be
// compared with what resolveWorkDir returns.
func realTempDir(t *testing.T) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func mkdir(t *testing.T, p string) string {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func symlink(t *testing.T, target, link string) string {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	return link
}

func writeFile(t *testing.T, p string) string {
	t.Helper()
	if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

func wantInvalid(t *testing.T, got string, err error, mention string) {
	t.Helper()
	if !errors.Is(err, ErrInvalidWorkDir) {
		t.Fatalf("got (%q, %v), want ErrInvalidWorkDir", got, err)
	}
	if got != "" {
		t.Errorf("returned %q alongside the error", got)
	}
	if mention != "" && !strings.Contains(err.Error(), mention) {
		t.Errorf("error %q does not name %q", err, mention)
	}
}

func TestResolveWorkDirWithoutRoot(t *testing.T) {
	base := realTempDir(t)
	dir := mkdir(t, filepath.Join(base, "project"))
	link := symlink(t, dir, filepath.Join(base, "project-link"))
	file := writeFile(t, filepath.Join(base, "file.txt"))
	linkToFile := symlink(t, file, filepath.Join(base, "file-link"))
	dangling := symlink(t, filepath.Join(base, "gone"), filepath.Join(base, "dangling"))
	missing := filepath.Join(base, "missing")

	ok := []struct {
		name, dir, want string
	}{
		{"existing dir", dir, dir},
		{"unclean path", base + "/./project/../project/", dir},
		{"symlink resolved", link, dir},
		{"path through symlink", link + "/.", dir},
	}
	for _, tc := range ok {
		t.Run(tc.name, func(t *testing.T) {
			got, err := resolveWorkDir("", tc.dir)
			if err != nil || got != tc.want {
				t.Fatalf("resolveWorkDir(%q) = %q, %v; want %q", tc.dir, got, err, tc.want)
			}
		})
	}

	bad := []struct {
		name, dir, mention string
	}{
		{"empty", "", ""},
		{"missing", missing, missing},
		{"file", file, file},
		{"symlink to file", linkToFile, file},
		// EvalSymlinks names the missing target rather than the link.
		{"dangling symlink", dangling, filepath.Join(base, "gone")},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			got, err := resolveWorkDir("", tc.dir)
			wantInvalid(t, got, err, tc.mention)
		})
	}
	if exists(missing) {
		t.Error("resolveWorkDir without a root created a missing directory")
	}
}

func TestResolveWorkDirRelativeWithoutRoot(t *testing.T) {
	base := realTempDir(t)
	mkdir(t, filepath.Join(base, "rel", "sub"))
	t.Chdir(base)

	for _, tc := range []struct{ dir, want string }{
		{"rel", filepath.Join(base, "rel")},
		{"rel/sub", filepath.Join(base, "rel", "sub")},
		{"./rel/sub/..", filepath.Join(base, "rel")},
		{".", base},
	} {
		got, err := resolveWorkDir("", tc.dir)
		if err != nil || got != tc.want {
			t.Errorf("resolveWorkDir(%q) = %q, %v; want %q", tc.dir, got, err, tc.want)
		}
		if !filepath.IsAbs(got) {
			t.Errorf("resolveWorkDir(%q) = %q is not absolute", tc.dir, got)
		}
	}
	got, err := resolveWorkDir("", "nope")
	wantInvalid(t, got, err, "nope")
}

func TestResolveWorkDirWithRoot(t *testing.T) {
	base := realTempDir(t)
	root := mkdir(t, filepath.Join(base, "root"))
	mkdir(t, filepath.Join(root, "existing", "deep"))
	writeFile(t, filepath.Join(root, "afile"))
	outside := mkdir(t, filepath.Join(base, "outside"))
	mkdir(t, filepath.Join(root, "real-inside"))
	symlink(t, filepath.Join(root, "real-inside"), filepath.Join(root, "alias-abs"))
	symlink(t, "real-inside", filepath.Join(root, "alias-rel"))
	symlink(t, outside, filepath.Join(root, "escape"))
	symlink(t, "../outside", filepath.Join(root, "escape-rel"))
	symlink(t, filepath.Join(base, "nowhere"), filepath.Join(root, "dangling"))

	ok := []struct {
		name, dir, want string
		created         bool
	}{
		{"empty is root", "", root, false},
		{"dot is root", ".", root, false},
		{"relative created", "a/b", filepath.Join(root, "a", "b"), true},
		{"relative existing", "existing/deep", filepath.Join(root, "existing", "deep"), false},
		{"relative unclean", "x/./y/../z", filepath.Join(root, "x", "z"), true},
		{"relative dotdot staying inside", "existing/../inside2", filepath.Join(root, "inside2"), true},
		{"absolute inside existing", filepath.Join(root, "existing"), filepath.Join(root, "existing"), false},
		{"absolute inside created", filepath.Join(root, "new", "dir"), filepath.Join(root, "new", "dir"), true},
		{"absolute root itself", root, root, false},
		{"symlink inside to inside", "alias-abs", filepath.Join(root, "real-inside"), false},
		{"relative symlink inside to inside", "alias-rel", filepath.Join(root, "real-inside"), false},
		{"created below inside symlink", "alias-rel/sub", filepath.Join(root, "real-inside", "sub"), true},
	}
	for _, tc := range ok {
		t.Run(tc.name, func(t *testing.T) {
			got, err := resolveWorkDir(root, tc.dir)
			if err != nil || got != tc.want {
				t.Fatalf("resolveWorkDir(root, %q) = %q, %v; want %q", tc.dir, got, err, tc.want)
			}
			if !isDir(got) {
				t.Errorf("%q is not a directory", got)
			}
		})
	}

	bad := []struct {
		name, dir string
		// mustNotExist lists paths outside the root that must not be created.
		mustNotExist []string
	}{
		{"dotdot", "../x", []string{filepath.Join(base, "x")}},
		{"hidden dotdot", "a/../../x2", []string{filepath.Join(base, "x2")}},
		{"deep dotdot", "a/b/../../../../x3", []string{filepath.Join(base, "x3"), filepath.Join(filepath.Dir(base), "x3")}},
		{"absolute outside", filepath.Join(outside, "new"), []string{filepath.Join(outside, "new")}},
		{"absolute sibling with root prefix", root + "-evil", []string{root + "-evil"}},
		{"absolute parent", base, nil},
		{"absolute filesystem root", "/", nil},
		{"symlink to outside", "escape", nil},
		{"relative symlink to outside", "escape-rel", nil},
		{"absolute symlink to outside", filepath.Join(root, "escape"), nil},
		{"new dir below symlink to outside", "escape/new", []string{filepath.Join(outside, "new")}},
		{"new tree below symlink to outside", "escape-rel/n1/n2", []string{filepath.Join(outside, "n1")}},
		{"dangling symlink", "dangling", []string{filepath.Join(base, "nowhere")}},
		{"below dangling symlink", "dangling/sub", []string{filepath.Join(base, "nowhere")}},
		{"file inside root", "afile", nil},
		{"below a file", "afile/sub", nil},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			got, err := resolveWorkDir(root, tc.dir)
			wantInvalid(t, got, err, tc.dir)
			for _, p := range tc.mustNotExist {
				if exists(p) {
					t.Errorf("%s was created outside the root", p)
				}
			}
		})
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("the outside directory gained entries: %v", entries)
	}
}

func TestResolveWorkDirRootThroughSymlink(t *testing.T) {
	base := realTempDir(t)
	realRoot := mkdir(t, filepath.Join(base, "real-root"))
	mkdir(t, filepath.Join(realRoot, "existing"))
	rootLink := symlink(t, realRoot, filepath.Join(base, "root-link"))
	chain := symlink(t, "root-link", filepath.Join(base, "root-chain"))

	for _, root := range []string{rootLink, chain, rootLink + "/"} {
		for _, tc := range []struct{ dir, want string }{
			{"", realRoot},
			{"a", filepath.Join(realRoot, "a")},
			{filepath.Join(root, "b"), filepath.Join(realRoot, "b")},
			{filepath.Join(realRoot, "c"), filepath.Join(realRoot, "c")},
			{filepath.Join(root, "existing"), filepath.Join(realRoot, "existing")},
			{root, realRoot},
		} {
			got, err := resolveWorkDir(root, tc.dir)
			if err != nil || got != tc.want {
				t.Errorf("resolveWorkDir(%q, %q) = %q, %v; want %q", root, tc.dir, got, err, tc.want)
			}
		}
		got, err := resolveWorkDir(root, "../escape")
		wantInvalid(t, got, err, "../escape")
		// Through the link, the parent of the link is outside the root.
		got, err = resolveWorkDir(root, filepath.Join(base, "elsewhere"))
		wantInvalid(t, got, err, "elsewhere")
	}
	if exists(filepath.Join(base, "escape")) || exists(filepath.Join(base, "elsewhere")) {
		t.Error("a directory was created outside the root")
	}
}

func TestResolveWorkDirRelativeRoot(t *testing.T) {
	base := realTempDir(t)
	mkdir(t, filepath.Join(base, "r"))
	t.Chdir(base)
	got, err := resolveWorkDir("r", "sub")
	if want := filepath.Join(base, "r", "sub"); err != nil || got != want {
		t.Errorf("resolveWorkDir(\"r\", \"sub\") = %q, %v; want %q", got, err, want)
	}
	got, err = resolveWorkDir("r", "../x")
	wantInvalid(t, got, err, "../x")
}

func TestResolveWorkDirBadRoot(t *testing.T) {
	base := realTempDir(t)
	missing := filepath.Join(base, "no-root")
	got, err := resolveWorkDir(missing, "a")
	wantInvalid(t, got, err, missing)
	if exists(missing) {
		t.Error("a missing root was created")
	}
	file := writeFile(t, filepath.Join(base, "root-file"))
	got, err = resolveWorkDir(file, "")
	wantInvalid(t, got, err, file)
}

// Each owner's work directories lie in its own tree under the root; the
// root and other owners' trees are out of reach, through links too.
func TestResolveOwnedWorkDir(t *testing.T) {
	root := mkdir(t, filepath.Join(realTempDir(t), "root"))
	alice, err := resolveOwnedWorkDir(root, "alice", "a1")
	if want := filepath.Join(root, OwnerDir("alice"), "a1"); err != nil || alice != want {
		t.Fatalf("alice's a1 = %q, %v; want %q", alice, err, want)
	}
	bobTree, err := resolveOwnedWorkDir(root, "bob", ".")
	if want := filepath.Join(root, OwnerDir("bob")); err != nil || bobTree != want || OwnerDir("bob") == OwnerDir("alice") {
		t.Fatalf("bob's tree = %q, %v; want %q", bobTree, err, want)
	}
	symlink(t, filepath.Dir(alice), filepath.Join(bobTree, "to-alice"))
	symlink(t, root, filepath.Join(bobTree, "to-root"))
	for _, dir := range []string{alice, filepath.Dir(alice), root, "..", "../" + OwnerDir("alice") + "/a1",
		"to-alice", "to-alice/a1", "to-alice/new", "to-root", "to-root/" + OwnerDir("alice")} {
		if got, err := resolveOwnedWorkDir(root, "bob", dir); !errors.Is(err, ErrInvalidWorkDir) {
			t.Errorf("bob's %q = %q, %v; want ErrInvalidWorkDir", dir, got, err)
		}
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(alice), "new")); !os.IsNotExist(err) {
		t.Errorf("a directory was created in alice's tree through bob's link: %v", err)
	}
	// An owner's tree that is a link leads nowhere.
	symlink(t, filepath.Dir(alice), filepath.Join(root, OwnerDir("mallory")))
	if got, err := resolveOwnedWorkDir(root, "mallory", "x"); !errors.Is(err, ErrInvalidWorkDir) {
		t.Errorf("mallory's tree through a link = %q, %v", got, err)
	}
	// No owner: the whole root, as before.
	if got, err := resolveOwnedWorkDir(root, "", "."); err != nil || got != root {
		t.Errorf("no owner's \".\" = %q, %v", got, err)
	}
}

// A missing work directory is named as such.
func TestMissingWorkDirIsNamed(t *testing.T) {
	missing := filepath.Join(realTempDir(t), "gone")
	if _, err := existingDir(missing); !errors.Is(err, ErrInvalidWorkDir) || !strings.Contains(err.Error(), missing+" does not exist") {
		t.Fatalf("existingDir(missing) = %v", err)
	}
}
