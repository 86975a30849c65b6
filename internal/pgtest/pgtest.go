// Package pgtest runs a throwaway PostgreSQL server for tests: initdb in a
// temporary directory, the postmaster as a child of the test process,
// listening only on a Unix socket in that directory, and each test gets a
// database of its own. It uses the server binaries of Debian's postgresql
// package (make tools installs it).
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// BinDirEnv names a directory holding initdb and postgres, overriding the
// search in PATH and /usr/lib/postgresql.
const BinDirEnv = "HOTPLEX_PG_BINDIR"

// superuser is the role initdb creates; local connections trust it.
const superuser = "postgres"

// serverMarker is in the postmaster's environment, so that Owns knows it.
const serverMarker = "HOTPLEX_PGTEST_SERVER=1"

// startTimeout bounds how long Start waits for the server to accept
// connections.
const startTimeout = 60 * time.Second

// Server is a running PostgreSQL server owned by the test process.
type Server struct {
	dir     string // temporary directory: data/, the socket, the log
	bin     string
	cred    *syscall.Credential
	dbs     atomic.Int64 // names databases
	stopped atomic.Bool

	mu sync.Mutex
	pm *postmaster // nil while halted
}

// postmaster is one run of the server process.
type postmaster struct {
	cmd     *exec.Cmd
	exited  chan struct{} // closed when the postmaster has been waited for
	waitErr error         // the postmaster's exit, set before exited closes
}

// Start initialises a cluster in a new temporary directory and starts its
// postmaster. Run as root, both run as the postgres system user (or
// nobody), since PostgreSQL refuses to run as root. Call Stop to end it.
func Start(ctx context.Context) (*Server, error) {
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	cred, err := credential()
	if err != nil {
		return nil, err
	}
	dir, err := tempDir()
	if err != nil {
		return nil, fmt.Errorf("pgtest: %w", err)
	}
	s := &Server{dir: dir, bin: bin, cred: cred}
	if err := s.start(ctx); err != nil {
		_ = s.Stop()
		return nil, err
	}
	return s, nil
}

func (s *Server) start(ctx context.Context) error {
	if s.cred != nil {
		if err := os.Chown(s.dir, int(s.cred.Uid), int(s.cred.Gid)); err != nil {
			return fmt.Errorf("pgtest: give %s to the server's user: %w", s.dir, err)
		}
	}
	// --no-sync and fsync=off: the cluster lives as long as the tests.
	initdb := exec.CommandContext(ctx, filepath.Join(s.bin, "initdb"), "--pgdata", filepath.Join(s.dir, "data"), "--username", superuser,
		"--auth", "trust", "--encoding", "UTF8", "--locale", "C", "--no-sync", "--no-instructions")
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred}
	initdb.Dir = s.dir // the server's user may not reach ours
	initdb.Env = append(os.Environ(), "LC_ALL=C")
	if out, err := initdb.CombinedOutput(); err != nil {
		return fmt.Errorf("pgtest: initdb: %w\n%s", err, out)
	}
	return s.launch(ctx)
}

// launch starts the postmaster on the cluster and waits until it accepts
// connections.
func (s *Server) launch(ctx context.Context) error {
	logPath := filepath.Join(s.dir, "postgres.log")
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("pgtest: %w", err)
	}
	defer logFile.Close()
	if s.cred != nil {
		if err := logFile.Chown(int(s.cred.Uid), int(s.cred.Gid)); err != nil {
			return fmt.Errorf("pgtest: %w", err)
		}
	}
	// The postmaster is started directly, not through pg_ctl, so that it
	// is our child: its PID is the one we stop and wait for.
	cmd := exec.Command(filepath.Join(s.bin, "postgres"), "-D", filepath.Join(s.dir, "data"),
		"-c", "listen_addresses=", // the Unix socket only
		"-c", "unix_socket_directories="+s.dir,
		"-c", "fsync=off", "-c", "full_page_writes=off",
		"-c", "max_connections=200",
		"-c", "shared_buffers=64MB",
		"-c", "log_min_messages=warning")
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.Env = append(os.Environ(), serverMarker)
	cmd.SysProcAttr = sysProcAttr(s.cred)
	cmd.Dir = s.dir
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("pgtest: start postgres: %w", err)
	}
	pm := &postmaster{cmd: cmd, exited: make(chan struct{})}
	go func() {
		pm.waitErr = cmd.Wait()
		close(pm.exited)
	}()
	s.mu.Lock()
	s.pm = pm
	s.mu.Unlock()
	if err := s.waitReady(ctx, pm); err != nil {
		log, _ := os.ReadFile(logPath)
		return fmt.Errorf("pgtest: %w\npostgres log:\n%s", err, log)
	}
	return nil
}

// waitReady connects until the server answers or exits.
func (s *Server) waitReady(ctx context.Context, pm *postmaster) error {
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	for {
		conn, err := pgx.Connect(ctx, s.DSN("postgres"))
		if err == nil {
			return conn.Close(ctx)
		}
		select {
		case <-pm.exited:
			return fmt.Errorf("postgres exited: %v", pm.waitErr)
		case <-ctx.Done():
			return fmt.Errorf("postgres did not accept connections: %w", err)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// Dir returns the directory that holds the cluster and its socket.
func (s *Server) Dir() string { return s.dir }

// PID returns the postmaster's process ID (0 while halted).
func (s *Server) PID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pm == nil {
		return 0
	}
	return s.pm.cmd.Process.Pid
}

// DSN returns the connection string of database db on this server.
func (s *Server) DSN(db string) string {
	q := url.Values{"host": {s.dir}, "sslmode": {"disable"}}
	return (&url.URL{Scheme: "postgres", User: url.User(superuser), Path: "/" + db, RawQuery: q.Encode()}).String()
}

// NewDatabase creates an empty database for tb and returns its connection
// string. The database is dropped when the test ends.
func (s *Server) NewDatabase(tb testing.TB) string {
	tb.Helper()
	ctx := context.Background()
	name := fmt.Sprintf("test_%d", s.dbs.Add(1))
	if err := s.admin(ctx, "CREATE DATABASE "+name); err != nil {
		tb.Fatalf("pgtest: create database: %v", err)
	}
	tb.Cleanup(func() {
		if s.stopped.Load() || s.PID() == 0 {
			return // the database went with the server, or goes when it stops
		}
		// WITH (FORCE) ends sessions a failed test left open.
		if err := s.admin(ctx, "DROP DATABASE "+name+" WITH (FORCE)"); err != nil {
			tb.Errorf("pgtest: drop database: %v", err)
		}
	})
	return s.DSN(name)
}

// admin runs one statement on the maintenance database.
func (s *Server) admin(ctx context.Context, sql string) error {
	conn, err := pgx.Connect(ctx, s.DSN("postgres"))
	if err != nil {
		return err
	}
	_, err = conn.Exec(ctx, sql)
	return errors.Join(err, conn.Close(ctx))
}

// Halt shuts the server down as an outage would (a fast shutdown: open
// sessions are ended, clients' connections drop) and keeps its cluster,
// so that Restart brings it back with its databases. Halting a halted
// server does nothing.
func (s *Server) Halt() error {
	s.mu.Lock()
	pm := s.pm
	s.pm = nil
	s.mu.Unlock()
	if pm == nil {
		return nil
	}
	return pm.stop()
}

// Restart starts a halted server again on the same cluster and socket: a
// DSN it gave before connects again.
func (s *Server) Restart(ctx context.Context) error {
	if s.stopped.Load() {
		return errors.New("pgtest: restart of a stopped server")
	}
	if s.PID() != 0 {
		return errors.New("pgtest: restart of a running server; halt it first")
	}
	return s.launch(ctx)
}

// Stop shuts the server down (a fast shutdown: sessions are ended), waits
// for the postmaster to exit and removes its directory. The postmaster
// waits for its own children, so none outlives it.
func (s *Server) Stop() error {
	if !s.stopped.CompareAndSwap(false, true) {
		return nil
	}
	return errors.Join(s.Halt(), os.RemoveAll(s.dir))
}

// stop ends the postmaster: SIGINT, then SIGQUIT if it takes too long.
func (pm *postmaster) stop() error {
	// By its PID, which is ours to signal: the process has not been
	// reaped until exited is closed.
	select {
	case <-pm.exited:
	default:
		_ = pm.cmd.Process.Signal(syscall.SIGINT)
	}
	var err error
	select {
	case <-pm.exited:
	case <-time.After(30 * time.Second):
		// Immediate shutdown: the postmaster still ends its children.
		_ = pm.cmd.Process.Signal(syscall.SIGQUIT)
		<-pm.exited
		err = errors.New("pgtest: postgres did not stop within 30s of SIGINT")
	}
	var exit *exec.ExitError
	if pm.waitErr != nil && !errors.As(pm.waitErr, &exit) {
		err = errors.Join(err, pm.waitErr)
	}
	return err
}

// Lazy is a server started by the first test that asks it for a database,
// for a test package of which only some tests need PostgreSQL: a run of
// the others starts none. TestMain stops it after the tests. The zero
// value is ready to use.
type Lazy struct {
	once sync.Once
	srv  *Server
	err  error
}

// NewDatabase starts the server if no test did yet, then creates an empty
// database for tb (see Server.NewDatabase). A server that cannot start
// fails tb: the test needs it, and make tools installs it.
func (l *Lazy) NewDatabase(tb testing.TB) string {
	tb.Helper()
	l.once.Do(func() { l.srv, l.err = Start(context.Background()) })
	if l.err != nil {
		tb.Fatal(l.err)
	}
	return l.srv.NewDatabase(tb)
}

// Stop stops the server if it was started.
func (l *Lazy) Stop() error {
	l.once.Do(func() {}) // no start after this
	if l.srv == nil {
		return nil
	}
	return l.srv.Stop()
}

// Owns reports whether pid is a process of a server pgtest started: its
// postmaster or one of the postmaster's children (which it forks itself,
// each in a session of its own). A check for processes a test left behind
// skips them: the server belongs to the test package, not to one test.
func Owns(pid int) bool {
	if marked(strconv.Itoa(pid)) {
		return true
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// The fields after the command name: state, ppid, ...
	i := strings.LastIndexByte(string(stat), ')')
	if i < 0 {
		return false
	}
	f := strings.Fields(string(stat[i+1:]))
	return len(f) >= 2 && marked(f[1])
}

// marked reports whether process pid has serverMarker in its environment
// (the postmaster does; its children overwrite theirs with their titles).
func marked(pid string) bool {
	env, err := os.ReadFile("/proc/" + pid + "/environ")
	return err == nil && slices.Contains(strings.Split(string(env), "\x00"), serverMarker)
}

// Main runs a test package against one server (call it from TestMain
// with the package's server variable): it starts the server, runs the
// tests, stops the server and then, if the tests passed, runs check (a
// goroutine leak check, say).
// It returns the exit code for os.Exit. A server that cannot start fails
// the run: the tests need it, and make tools installs it.
func Main(m *testing.M, srv **Server, check ...func() error) int {
	s, err := Start(context.Background())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	*srv = s
	code := m.Run()
	if err := s.Stop(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		code = 1
	}
	if code == 0 {
		for _, c := range check {
			if err := c(); err != nil {
				fmt.Fprintln(os.Stderr, err)
				code = 1
			}
		}
	}
	return code
}

// binDir finds the directory of initdb and postgres: $HOTPLEX_PG_BINDIR,
// then PATH, then Debian's /usr/lib/postgresql/VERSION/bin (the newest),
// which Debian does not put in PATH.
func binDir() (string, error) {
	if d := os.Getenv(BinDirEnv); d != "" {
		return d, nil
	}
	if p, err := exec.LookPath("postgres"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(p), "initdb")); err == nil {
			return filepath.Dir(p), nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	dirs = slices.DeleteFunc(dirs, func(d string) bool {
		_, err := os.Stat(filepath.Join(d, "initdb"))
		return err != nil
	})
	if len(dirs) == 0 {
		return "", errors.New("pgtest: no PostgreSQL server binaries (initdb, postgres) in PATH or /usr/lib/postgresql/*/bin: " +
			"install Debian's postgresql package (make tools does), or set " + BinDirEnv)
	}
	version := func(d string) int {
		v, _ := strconv.Atoi(filepath.Base(filepath.Dir(d)))
		return v
	}
	slices.SortFunc(dirs, func(a, b string) int { return version(a) - version(b) })
	return dirs[len(dirs)-1], nil
}

// credential returns whom to run the server as: nil (ourselves) unless we
// are root, whom PostgreSQL refuses; then the postgres system user the
// Debian package creates, or nobody.
func credential() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	var errs []error
	for _, name := range []string{"postgres", "nobody"} {
		u, err := user.Lookup(name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
		gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
		if err1 != nil || err2 != nil {
			errs = append(errs, fmt.Errorf("user %s: uid %q gid %q", name, u.Uid, u.Gid))
			continue
		}
		return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), NoSetGroups: true}, nil
	}
	return nil, fmt.Errorf("pgtest: running as root, and no user to run postgres as: %w", errors.Join(errs...))
}

// maxSocketDir keeps "DIR/.s.PGSQL.5432" within the 107 bytes a Unix
// socket path may have.
const maxSocketDir = 80

// tempDir makes the cluster's directory. The server's user must reach it,
// so when the temporary directory is long or closed to others, /tmp is
// used instead.
func tempDir() (string, error) {
	base := os.TempDir()
	if fi, err := os.Stat(base); err != nil || fi.Mode().Perm()&0o001 == 0 || len(base) > maxSocketDir-20 {
		base = "/tmp"
	}
	dir, err := os.MkdirTemp(base, "pgtest")
	if err != nil {
		return "", err
	}
	if len(dir) > maxSocketDir || strings.ContainsAny(dir, " \t'\\") {
		_ = os.RemoveAll(dir)
		return "", fmt.Errorf("temporary directory %q is unfit for a socket", dir)
	}
	return dir, nil
}
