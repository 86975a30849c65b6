package pgtest

import (
	"context"
	"errors"
	"os"
	"strconv"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

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
