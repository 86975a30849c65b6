//go:build linux

package proc

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// cgroupSubdirs lists the child cgroups of dir.
func cgroupSubdirs(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, e.Name())
		}
	}
	return dirs
}

func TestDefaultCgroupRoot(t *testing.T) {
	root := DefaultCgroupRoot()
	if root == "" {
		t.Skip("no writable cgroup v2 hierarchy")
	}
	t.Cleanup(func() { _ = RemoveCgroupRoot(root) })
	// Two owners in one program get two roots: removing one kills what is
	// in it, which must never reach the other's processes.
	other := DefaultCgroupRoot()
	if other == root || other == "" {
		t.Fatalf("DefaultCgroupRoot returned %q twice", root)
	}
	p := startSh(t, Spec{CgroupRoot: other}, "sleep 1000")
	if err := RemoveCgroupRoot(root); err != nil {
		t.Fatal(err)
	}
	if !Alive(p.PID()) {
		t.Fatal("removing one root killed a process of another")
	}
	if err := p.Kill(); err != nil {
		t.Fatal(err)
	}
	if err := RemoveCgroupRoot(other); err != nil {
		t.Fatal(err)
	}
	root = DefaultCgroupRoot()
	t.Cleanup(func() { _ = RemoveCgroupRoot(root) })
	if !isCgroup2(root) {
		t.Errorf("%s is not on cgroup2", root)
	}
	if err := RemoveCgroupRoot(t.TempDir()); err == nil {
		t.Error("RemoveCgroupRoot accepted a non-cgroup directory")
	}
	if err := RemoveCgroupRoot("/nonexistent/cgroup"); err != nil {
		t.Errorf("RemoveCgroupRoot(missing) = %v", err)
	}
}

func TestRemoveCgroupRootKillsLeftovers(t *testing.T) {
	root := testCgroupRoot(t)
	pidfile := filepath.Join(t.TempDir(), "pids")
	p := startSh(t, Spec{Env: append(os.Environ(), "PIDFILE="+pidfile), CgroupRoot: root},
		`sleep 1000 & echo $! >> "$PIDFILE"; wait`)
	pids := readPIDs(t, p, pidfile, 1)
	if len(cgroupSubdirs(t, root)) != 1 {
		t.Fatalf("want one per-process cgroup under %s", root)
	}
	if err := RemoveCgroupRoot(root); err != nil {
		t.Fatalf("RemoveCgroupRoot: %v", err)
	}
	if _, err := os.Stat(root); !os.IsNotExist(err) {
		t.Errorf("root still exists: %v", err)
	}
	waitDone(t, p, 5*time.Second)
	// Terminate still reaps what the cgroup kill left as zombies.
	if err := p.Kill(); err != nil {
		t.Fatal(err)
	}
	assertGone(t, append(pids, p.PID()))
}

func TestCgroupPlacementFailureFallsBack(t *testing.T) {
	// Children of a threaded cgroup are "domain invalid": creating one works
	// but cloning a process into it fails, so Start must retry without it.
	root := testCgroupRoot(t)
	if err := os.WriteFile(filepath.Join(root, "cgroup.type"), []byte("threaded"), 0); err != nil {
		t.Skipf("cannot make a threaded cgroup: %v", err)
	}
	pidfile := filepath.Join(t.TempDir(), "pids")
	p := startSh(t, Spec{Env: append(os.Environ(), "PIDFILE="+pidfile), Marker: newMarker(t), CgroupRoot: root},
		`setsid sleep 1000 & echo $! >> "$PIDFILE"; wait`)
	if p.cgroup != "" {
		t.Errorf("cgroup %s in use despite failed placement", p.cgroup)
	}
	if dirs := cgroupSubdirs(t, root); len(dirs) != 0 {
		t.Errorf("failed cgroups left behind: %v", dirs)
	}
	pids := readPIDs(t, p, pidfile, 1)
	terminate(t, p, 200*time.Millisecond)
	assertGone(t, append(pids, p.PID()))
}
