package pgtest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"go.uber.org/goleak"
)

// orphanChildEnv makes the test binary, re-run by TestServerDiesWithItsTest,
// start a server, print its PID and directory, and wait to be killed.
const orphanChildEnv = "PGTEST_ORPHAN_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(orphanChildEnv) != "" {
		s, err := Start(context.Background())
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf("%d %s\n", s.PID(), s.Dir())
		select {} // until killed
	}
	goleak.VerifyTestMain(m)
}

// A test process killed outright (SIGKILL, so no Stop) takes its server
// with it: the kernel sends the postmaster its death signal.
func TestServerDiesWithItsTest(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), orphanChildEnv+"=1")
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var (
		pid int
		dir string
	)
	_, scanErr := fmt.Fscan(out, &pid, &dir)
	if dir != "" {
		t.Cleanup(func() { _ = os.RemoveAll(dir) })
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if scanErr != nil {
		t.Fatalf("child did not report its server: %v", scanErr)
	}
	for deadline := time.Now().Add(30 * time.Second); alive(pid); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			_ = syscall.Kill(pid, syscall.SIGQUIT) // ours: the child started it
			t.Fatalf("postmaster %d outlived its test process", pid)
		}
	}
}

// alive reports whether pid is a process that has not exited (a zombie
// waiting for a parent to reap it has).
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// The state follows the command name in parentheses.
	st := string(b)
	if i := strings.LastIndexByte(st, ')'); i >= 0 && i+2 < len(st) {
		return st[i+2] != 'Z' && st[i+2] != 'X'
	}
	return true
}

// A server starts, gives each test a database of its own, and once
// stopped leaves neither a process nor its directory behind.
func TestServerLifecycle(t *testing.T) {
	ctx := context.Background()
	s, err := Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	pid, dir := s.PID(), s.Dir()
	stopped := false
	t.Cleanup(func() {
		if !stopped {
			_ = s.Stop()
		}
	})
	if os.Geteuid() == 0 {
		if uid := processUID(t, pid); uid == 0 {
			t.Fatalf("postgres runs as root")
		}
	}

	if !Owns(pid) || Owns(os.Getpid()) {
		t.Fatalf("Owns: the postmaster %v, the test %v", Owns(pid), Owns(os.Getpid()))
	}

	var dsns []string
	t.Run("databases", func(t *testing.T) {
		for range 2 {
			dsn := s.NewDatabase(t)
			dsns = append(dsns, dsn)
			conn, err := pgx.Connect(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := conn.Exec(ctx, `CREATE TABLE t (x int)`); err != nil {
				t.Fatal(err)
			}
			// Left open on purpose: dropping the database ends it.
			t.Cleanup(func() { _ = conn.Close(ctx) })
		}
		if dsns[0] == dsns[1] {
			t.Fatalf("two tests share database %s", dsns[0])
		}
	})
	// The subtest's cleanup dropped its databases.
	if conn, err := pgx.Connect(ctx, dsns[0]); err == nil {
		_ = conn.Close(ctx)
		t.Fatalf("database of a finished test still there")
	}

	// Halted, the server refuses connections; restarted, it has its
	// databases and their data again.
	dsn := s.NewDatabase(t)
	run := func(sql string) error {
		conn, err := pgx.Connect(ctx, dsn)
		if err != nil {
			return err
		}
		_, err = conn.Exec(ctx, sql)
		return errors.Join(err, conn.Close(ctx))
	}
	if err := run(`CREATE TABLE kept (x int); INSERT INTO kept VALUES (42)`); err != nil {
		t.Fatal(err)
	}
	if err := s.Halt(); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) || s.PID() != 0 {
		t.Fatalf("postmaster %d still there after Halt: %v", pid, err)
	}
	if err := run(`SELECT 1`); err == nil {
		t.Fatal("a halted server took a connection")
	}
	if err := s.Halt(); err != nil {
		t.Fatalf("second Halt: %v", err)
	}
	if err := s.Restart(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.Restart(ctx); err == nil {
		t.Fatal("a running server restarted")
	}
	if err := run(`DO $$ BEGIN IF (SELECT x FROM kept) <> 42 THEN RAISE 'lost'; END IF; END $$`); err != nil {
		t.Fatalf("after restart: %v", err)
	}
	pid = s.PID()

	stopped = true
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("postmaster %d still there after Stop: %v", pid, err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("directory %s left behind: %v", dir, err)
	}
	if err := s.Stop(); err != nil {
		t.Fatalf("second Stop: %v", err)
	}
	if err := s.Restart(ctx); err == nil {
		t.Fatal("a stopped server restarted")
	}
}

// A Lazy server starts only when a test asks it for a database.
func TestLazy(t *testing.T) {
	var idle Lazy
	if err := idle.Stop(); err != nil || idle.srv != nil {
		t.Fatalf("a Lazy nobody used: %v, %v", idle.srv, err)
	}
	var l Lazy
	dsn := l.NewDatabase(t)
	conn, err := pgx.Connect(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	_ = conn.Close(context.Background())
	pid := l.srv.PID()
	if err := l.Stop(); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("postmaster %d still there after Stop: %v", pid, err)
	}
}

func processUID(t *testing.T, pid int) uint32 {
	t.Helper()
	var st syscall.Stat_t
	if err := syscall.Stat("/proc/"+itoa(pid), &st); err != nil {
		t.Fatal(err)
	}
	return st.Uid
}

func itoa(i int) string { return strconv.Itoa(i) }
