package proc

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// isCgroup2 reports whether dir lies on a cgroup v2 file system. It keeps
// the cgroup helpers from creating, writing or removing anything elsewhere.
func isCgroup2(dir string) bool {
	var st unix.Statfs_t
	return unix.Statfs(dir, &st) == nil && st.Type == unix.CGROUP2_SUPER_MAGIC
}

// newCgroup creates a fresh child cgroup of root for one process and opens it
// for clone3(CLONE_INTO_CGROUP). The caller closes fd after starting the child.
func newCgroup(root string) (dir string, fd int, err error) {
	if !isCgroup2(root) {
		return "", -1, fmt.Errorf("proc: %s is not a cgroup v2 directory", root)
	}
	var b [8]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand panics instead)
	dir = filepath.Join(root, "proc-"+hex.EncodeToString(b[:]))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return "", -1, fmt.Errorf("proc: create cgroup: %w", err)
	}
	// Without cgroup.kill (Linux 5.14) the cgroup could still enumerate the
	// tree but not kill it atomically; the sweep is as good then.
	if _, err := os.Stat(filepath.Join(dir, "cgroup.kill")); err != nil {
		_ = removeCgroup(dir)
		return "", -1, fmt.Errorf("proc: cgroup.kill unsupported: %w", err)
	}
	fd, err = unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		_ = removeCgroup(dir)
		return "", -1, fmt.Errorf("proc: open cgroup: %w", err)
	}
	return dir, fd, nil
}

// setCgroupFD makes the child start inside the cgroup open as fd. Placement
// at clone time leaves no window in which the child could fork outside it.
func setCgroupFD(attr *syscall.SysProcAttr, fd int) {
	attr.UseCgroupFD = true
	attr.CgroupFD = fd
}

func closeFD(fd int) { _ = unix.Close(fd) }

// cgroupPIDs returns the pids in dir and its sub-cgroups (the tree may have
// created some if it runs as root).
func cgroupPIDs(dir string) []int {
	pids, _ := cgroupProcs(dir)
	return pids
}

// cgroupProcs is cgroupPIDs that also reports whether dir's own
// cgroup.procs could be read, that is whether the list is complete.
func cgroupProcs(dir string) (pids []int, ok bool) {
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		b, err := os.ReadFile(filepath.Join(path, "cgroup.procs"))
		if err != nil {
			return nil
		}
		if path == dir {
			ok = true
		}
		for _, f := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(f); err == nil {
				pids = append(pids, pid)
			}
		}
		return nil
	})
	return pids, ok
}

// cgroupKill SIGKILLs every process in dir and its sub-cgroups.
func cgroupKill(dir string) error {
	// O_WRONLY without O_CREATE: never create a file where the cgroup is gone.
	f, err := os.OpenFile(filepath.Join(dir, "cgroup.kill"), os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("proc: cgroup kill: %w", err)
	}
	_, err = f.WriteString("1")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("proc: cgroup kill: %w", err)
	}
	return nil
}

// removeCgroup removes the cgroup dir and its sub-cgroups. Right after a
// kill the kernel may still count exiting tasks as members, so EBUSY is
// retried briefly. A missing dir is not an error.
func removeCgroup(dir string) error {
	for i := 0; ; i++ {
		err := rmdirCgroup(dir)
		if err == nil || !errors.Is(err, unix.EBUSY) || i == 20 {
			return err
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// rmdirCgroup removes the cgroup dir and its sub-cgroups, deepest first, in
// one attempt. A cgroup directory is removed with rmdir although it lists
// files: they are the kernel's interface, not contents. A populated cgroup
// fails with EBUSY; a missing one is not an error.
func rmdirCgroup(dir string) error {
	if dir == "" {
		return nil
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	for _, e := range entries {
		if e.IsDir() {
			if err := rmdirCgroup(filepath.Join(dir, e.Name())); err != nil {
				return err
			}
		}
	}
	if err := unix.Rmdir(dir); err != nil && !errors.Is(err, unix.ENOENT) {
		return fmt.Errorf("proc: remove cgroup %s: %w", dir, err)
	}
	return nil
}

// DefaultCgroupRoot returns a new cgroup v2 directory usable as
// Spec.CgroupRoot, or "" when there is none. It creates hotplex-<pid>-<random>
// inside the calling process's own cgroup, so that it works under delegation
// too, and removes the empty roots that exited processes left there. Each
// call gets its own directory: RemoveCgroupRoot kills what is inside, so two
// owners (two engines in one program) must never share one.
//
// With CgroupsEnv set to "off" it returns "": for machines where cgroups
// misbehave, and to test what holds without them.
func DefaultCgroupRoot() string {
	if os.Getenv(CgroupsEnv) == "off" {
		return ""
	}
	base, err := ownCgroupDir()
	if err != nil {
		return ""
	}
	removeStaleRoots(base)
	dir, err := os.MkdirTemp(base, rootPrefix+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return ""
	}
	if !isCgroup2(dir) {
		return ""
	}
	if _, err := os.Stat(filepath.Join(dir, "cgroup.kill")); err != nil {
		_ = removeCgroup(dir)
		return ""
	}
	if unix.Access(filepath.Join(dir, "cgroup.procs"), unix.W_OK) != nil {
		_ = removeCgroup(dir)
		return ""
	}
	return dir
}

// rootPrefix starts the name of the cgroup DefaultCgroupRoot creates.
const rootPrefix = "hotplex-"

// removeStaleRoots removes the roots under base whose creating process no
// longer exists, as left behind by a crash. Only empty cgroups can be
// removed (rmdir fails on populated ones), so processes are never disturbed.
func removeStaleRoots(base string) {
	entries, err := os.ReadDir(base)
	if err != nil {
		return
	}
	for _, e := range entries {
		n, ok := strings.CutPrefix(e.Name(), rootPrefix)
		if !ok || !e.IsDir() {
			continue
		}
		n, _, _ = strings.Cut(n, "-")
		pid, err := strconv.Atoi(n)
		if err != nil || pid == os.Getpid() {
			continue
		}
		if _, err := os.Stat("/proc/" + n); errors.Is(err, fs.ErrNotExist) {
			_ = rmdirCgroup(filepath.Join(base, e.Name()))
		}
	}
}

// RemoveCgroupRoot kills whatever is still running in the cgroup dir (e.g. a
// root from DefaultCgroupRoot) and removes it with its sub-cgroups. Call it
// after terminating every Process started under it. A missing dir is not an
// error; a dir that is not a cgroup v2 directory is refused.
func RemoveCgroupRoot(dir string) error {
	if dir == "" {
		return nil
	}
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if !isCgroup2(dir) {
		return fmt.Errorf("proc: %s is not a cgroup v2 directory", dir)
	}
	if len(cgroupPIDs(dir)) > 0 {
		if err := cgroupKill(dir); err != nil {
			return err
		}
		deadline := time.Now().Add(killTimeout)
		for len(cgroupPIDs(dir)) > 0 && time.Now().Before(deadline) {
			time.Sleep(pollInterval)
		}
	}
	return removeCgroup(dir)
}

// ownCgroupDir returns the directory of the calling process's cgroup in the
// cgroup v2 hierarchy, falling back to the hierarchy's mount point when the
// cgroup path is not visible from it (e.g. in a container without a cgroup
// namespace).
func ownCgroupDir() (string, error) {
	mnt, mntRoot, err := cgroup2Mount()
	if err != nil {
		return "", err
	}
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", fmt.Errorf("proc: read own cgroup: %w", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		rel, ok := strings.CutPrefix(line, "0::")
		if !ok {
			continue
		}
		if root := strings.TrimSuffix(mntRoot, "/"); root != "" {
			if rel != root && !strings.HasPrefix(rel, root+"/") {
				break
			}
			rel = strings.TrimPrefix(rel, root)
		}
		if dir := filepath.Join(mnt, rel); isCgroup2(dir) {
			return dir, nil
		}
		break
	}
	return mnt, nil
}

// cgroup2Mount finds the cgroup v2 mount point and the path of the
// hierarchy it exposes, from /proc/self/mountinfo.
func cgroup2Mount() (mnt, root string, err error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return "", "", fmt.Errorf("proc: read mountinfo: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// id parent major:minor root mountpoint options [optional...] - fstype source superoptions
		fields := strings.Fields(sc.Text())
		sep := slices.Index(fields, "-")
		if sep < 5 || sep+1 >= len(fields) || fields[sep+1] != "cgroup2" {
			continue
		}
		return unescapeMount(fields[4]), unescapeMount(fields[3]), nil
	}
	if err := sc.Err(); err != nil {
		return "", "", fmt.Errorf("proc: read mountinfo: %w", err)
	}
	return "", "", errors.New("proc: no cgroup v2 mount")
}

// unescapeMount undoes the octal escapes (\040 for space etc.) of mountinfo.
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
