package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/pgtest"
	"github.com/hotplex/hotplex/testkit"
)

// The store setting comes from YAML, HOTPLEX_POSTGRES or --postgres like
// every other, and the printed settings name the store without its
// password.
func TestServeConfigPostgres(t *testing.T) {
	dir := t.TempDir()
	file := dir + "/hotplex.yaml"
	if err := os.WriteFile(file, []byte("data_dir: "+dir+"\npostgres: postgres://hotplex:file-secret@db.example/hotplex\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	load := func(env map[string]string, args ...string) serveConfig {
		t.Helper()
		fl := defaultServeConfig()
		c := &cobra.Command{Use: "serve"}
		fl.register(c)
		if err := c.ParseFlags(args); err != nil {
			t.Fatal(err)
		}
		cfg, err := loadServeConfig(c, &fl, file, func(k string) string { return env[k] })
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	env := map[string]string{"HOTPLEX_POSTGRES": "host=db.example user=hotplex password='env secret' dbname=hotplex"}
	for _, c := range []struct {
		cfg          serveConfig
		want, secret string
	}{
		{load(nil), "postgres://hotplex:file-secret@db.example/hotplex", "file-secret"},
		{load(env), env["HOTPLEX_POSTGRES"], "env secret"},
		{load(env, "--postgres", "postgres://db.example/hotplex?user=hotplex&password=flag-secret"), "postgres://db.example/hotplex?user=hotplex&password=flag-secret", "flag-secret"},
	} {
		if c.cfg.Postgres != c.want {
			t.Fatalf("postgres = %q, want %q", c.cfg.Postgres, c.want)
		}
		printed := c.cfg.String()
		if strings.Contains(printed, c.secret) || !strings.Contains(printed, "PostgreSQL ") || !strings.Contains(printed, "db.example") {
			t.Fatalf("settings of %q:\n%s", c.want, printed)
		}
	}
	noFile := defaultServeConfig()
	noFile.DataDir = dir
	if got := noFile.storeName(); got != "SQLite "+dir+"/hotplex.db" {
		t.Fatalf("default store: %s", got)
	}
	if got := redactDSN("postgres://u:p@h:5432/d%zz"); strings.Contains(got, "p@") {
		t.Fatalf("a URL that does not parse printed as %q", got)
	}
}

// `hotplex serve --postgres` keeps everything in PostgreSQL: a turn is
// served, and a daemon restarted with an empty data directory still has
// the admin key, lists the session, replays its events and resumes its
// conversation; `hotplex keys` reaches the same keys. The password of the
// connection URL is never printed.
func TestServeOnPostgres(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	ctx := context.Background()
	srv, err := pgtest.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Stop() })
	u, err := url.Parse(srv.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	// The test server trusts local connections, so any password does.
	const password = "pg-password-never-printed"
	u.User = url.UserPassword(u.User.Username(), password)
	dsn := u.String()

	agent := testkit.BuildFakeAgent(t, t.TempDir())
	home, work := t.TempDir(), t.TempDir()
	d := startServe(t, t.TempDir(), agent, home, "", "--postgres", dsn, "--work-dir-root", work)
	banner := strings.Join(d.banner, "\n")
	if d.key == "" || strings.Contains(banner, password) || !strings.Contains(banner, "PostgreSQL postgres://postgres:****@") {
		t.Fatalf("first start (key %q):\n%s", d.key, banner)
	}
	if r := d.request(t, "POST", "/v1/sessions", map[string]string{"id": "pg"}); r.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d", r.StatusCode)
	}
	first := readEvents(d.request(t, "POST", "/v1/sessions/pg/messages", map[string]string{"prompt": "remember the tulips"}).Body, nil)
	if len(first) == 0 || first[len(first)-1].Type != event.TypeResult {
		t.Fatalf("turn: %v", first)
	}
	stop := func(d *daemonProc) {
		t.Helper()
		if err := d.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		select {
		case <-d.exited:
			if d.exitErr != nil {
				t.Fatalf("exit after SIGTERM: %v", d.exitErr)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("the daemon did not stop on SIGTERM")
		}
	}
	stop(d)

	// A new data directory: whatever the daemon finds comes from
	// PostgreSQL (the agent's own transcript lives under HOME, and the
	// work directories on a volume every daemon mounts).
	d2 := startServeWith(t, t.TempDir(), agent, home, d.key, []string{"HOTPLEX_POSTGRES=" + dsn}, "--work-dir-root", work)
	if banner := strings.Join(d2.banner, "\n"); !strings.Contains(banner, "(1 sessions restored)") || strings.Contains(banner, password) {
		t.Fatalf("restart:\n%s", banner)
	}
	var list struct {
		Sessions []struct {
			ID string `json:"id"`
		} `json:"sessions"`
	}
	if err := json.NewDecoder(d2.request(t, "GET", "/v1/sessions", nil).Body).Decode(&list); err != nil || len(list.Sessions) != 1 || list.Sessions[0].ID != "pg" {
		t.Fatalf("sessions after restart: %+v %v", list, err)
	}
	replayed := readEvents(d2.request(t, "GET", "/v1/sessions/pg/events", nil).Body, func(e sse) bool { return e.ID >= first[len(first)-1].ID })
	if len(replayed) != len(first) {
		t.Fatalf("replayed %d events, the turn had %d", len(replayed), len(first))
	}
	for i, e := range first {
		if replayed[i].ID != e.ID || replayed[i].Type != e.Type {
			t.Fatalf("event %d: replayed %d %s, seen %d %s", i, replayed[i].ID, replayed[i].Type, e.ID, e.Type)
		}
	}
	next := readEvents(d2.request(t, "POST", "/v1/sessions/pg/messages", map[string]string{"prompt": "history"}).Body, nil)
	var start event.EventWithMeta
	_ = json.Unmarshal(next[0].Data, &start)
	if !start.Resumed || next[0].ID != first[len(first)-1].ID+1 {
		t.Fatalf("next turn: resumed %v, id %d after %d", start.Resumed, next[0].ID, first[len(first)-1].ID)
	}
	resumed := false
	for _, e := range next {
		resumed = resumed || e.Type == event.TypeAnswer && strings.Contains(string(e.Data), "remember the tulips")
	}
	if !resumed {
		t.Fatal("the resumed conversation lost its history")
	}
	stop(d2)

	keys := exec.Command(hotplexBin, "keys", "list")
	keys.Env = append(os.Environ(), "HOTPLEX_POSTGRES="+dsn, "HOTPLEX_LOG_LEVEL=warn")
	out, err := keys.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "first admin") || strings.Contains(string(out), password) {
		t.Fatalf("keys list: %v\n%s", err, out)
	}
}

// The model spend the gateway metered is kept in PostgreSQL as in SQLite:
// the real claude CLI spends, and restarted daemons still count it.
func TestServeSpendSurvivesRestartOnPostgres(t *testing.T) {
	srv, err := pgtest.Start(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Stop() })
	testServeSpendSurvivesRestart(t, "--postgres", srv.NewDatabase(t))
}
