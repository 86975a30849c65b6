package main

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
)

func TestServeConfigPrecedence(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "hotplex.yaml")
	yaml := "listen: 127.0.0.1:9000\nnamespace: from-file\nidle_timeout: 5m\nadmin_token: very-secret-token\nrate_limit: 7\nkeys:\n  - name: ci\n    secret: 0123456789abcdef0123\n    admin: true\n"
	if err := os.WriteFile(file, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOTPLEX_NAMESPACE": "from-env", "HOTPLEX_TURN_TIMEOUT": "90s", "HOTPLEX_DATA_DIR": dir}
	fl := defaultServeConfig()
	c := &cobra.Command{Use: "serve"}
	fl.register(c)
	if err := c.ParseFlags([]string{"--listen", "127.0.0.1:9100"}); err != nil {
		t.Fatal(err)
	}
	cfg, err := loadServeConfig(c, &fl, file, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Listen != "127.0.0.1:9100" || cfg.Namespace != "from-env" || cfg.IdleTimeout != 5*time.Minute ||
		cfg.TurnTimeout != 90*time.Second || cfg.RateLimit != 7 || cfg.Offline != "auto" || len(cfg.Keys) != 1 {
		t.Fatalf("precedence wrong: %+v", cfg)
	}
	if cfg.WorkDirRoot != filepath.Join(dir, "work") {
		t.Fatalf("work root %s", cfg.WorkDirRoot)
	}
	printed := cfg.String()
	if strings.Contains(printed, "very-secret-token") || strings.Contains(printed, "0123456789abcdef0123") || !strings.Contains(printed, "****") {
		t.Fatalf("secrets not masked:\n%s", printed)
	}
	if _, err := loadServeConfig(c, &fl, file, func(k string) string {
		if k == "HOTPLEX_IDLE_TIMEOUT" {
			return "soon"
		}
		return ""
	}); err == nil {
		t.Fatal("a bad duration in the environment was accepted")
	}
	bad := filepath.Join(dir, "bad.yaml")
	_ = os.WriteFile(bad, []byte("listen: x\nunknown_setting: 1\n"), 0o600)
	if _, err := loadServeConfig(c, &fl, bad, func(string) string { return "" }); err == nil || !strings.Contains(err.Error(), "unknown_setting") {
		t.Fatalf("an unknown setting was accepted: %v", err)
	}
}

func TestServeConfigPermissions(t *testing.T) {
	dir := t.TempDir()
	settings := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(settings, []byte(`{"permissions": {"allow": ["Bash(npm run test:*)"], "deny": ["Read(./secrets/**)"]}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	load := func(yaml string, env map[string]string) (serveConfig, error) {
		t.Helper()
		file := filepath.Join(dir, "hotplex.yaml")
		if err := os.WriteFile(file, []byte(yaml), 0o600); err != nil {
			t.Fatal(err)
		}
		fl := defaultServeConfig()
		c := &cobra.Command{Use: "serve"}
		fl.register(c)
		return loadServeConfig(c, &fl, file, func(k string) string { return env[k] })
	}
	cfg, err := load("data_dir: "+dir+"\npermissions:\n  deny: [\"Bash(git push:*)\"]\nkeys:\n  - name: ci\n    secret: 0123456789abcdef0123\n    permissions:\n      ask: [\"Bash(docker:*)\"]\n",
		map[string]string{"HOTPLEX_PERMISSIONS_FILE": settings})
	if err != nil {
		t.Fatal(err)
	}
	dc, err := cfg.daemonConfig()
	if err != nil {
		t.Fatal(err)
	}
	if p := dc.Policy; p == nil || !slices.Equal(p.Deny, []string{"Bash(git push:*)", "Read(./secrets/**)"}) || !slices.Equal(p.Allow, []string{"Bash(npm run test:*)"}) {
		t.Fatalf("server rules: %+v", dc.Policy)
	}
	if len(dc.Keys) != 1 || dc.Keys[0].ID != "cfg-ci" {
		t.Fatalf("keys: %+v", dc.Keys)
	}
	if p := dc.Keys[0].Policy; p == nil || !slices.Equal(p.Ask, []string{"Bash(docker:*)"}) {
		t.Fatalf("key rules: %+v", p)
	}
	if printed := cfg.String(); !strings.Contains(printed, "deny Bash(git push:*)") || !strings.Contains(printed, "ask Bash(docker:*)") {
		t.Fatalf("the rules are not printed:\n%s", printed)
	}
	for _, bad := range []struct{ yaml, env string }{
		{"permissions:\n  deny: [\"Bash(git push\"]\n", ""},
		{"keys:\n  - name: ci\n    secret: 0123456789abcdef0123\n    permissions:\n      allow: [\"WebFetch(x.com)\"]\n", ""},
		{"", filepath.Join(dir, "missing.json")},
	} {
		if _, err := load("data_dir: "+dir+"\n"+bad.yaml, map[string]string{"HOTPLEX_PERMISSIONS_FILE": bad.env}); err == nil {
			t.Fatalf("accepted: %q %q", bad.yaml, bad.env)
		}
	}
}

func TestProtectedPathsOfTheDaemon(t *testing.T) {
	dir := t.TempDir()
	cfg := serveConfig{DataDir: dir, WorkDirRoot: filepath.Join(dir, "work"), AdminKeyFile: filepath.Join(dir, "admin.key")}
	got := protectedPaths(cfg)
	for _, want := range []string{dir, filepath.Join(dir, "hotplex.db"), filepath.Join(dir, "hotplex.db-wal"), filepath.Join(dir, "work"), filepath.Join(dir, "admin.key")} {
		if !slices.Contains(got, want) {
			t.Fatalf("%s is not protected: %v", want, got)
		}
	}
	// Reached through a symbolic link, the paths are protected where they lead too.
	link := filepath.Join(t.TempDir(), "data")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	got = protectedPaths(serveConfig{DataDir: link, WorkDirRoot: filepath.Join(link, "work")})
	if !slices.Contains(got, filepath.Join(dir, "hotplex.db")) || !slices.Contains(got, filepath.Join(link, "hotplex.db")) {
		t.Fatalf("symbolic link: %v", got)
	}
}

// The cluster settings come from YAML, HOTPLEX_* or flags like the others;
// a node needs the database the nodes share, and is named after its host
// unless told otherwise.
func TestServeConfigCluster(t *testing.T) {
	dir := t.TempDir()
	file := dir + "/hotplex.yaml"
	if err := os.WriteFile(file, []byte("nats: nats://file.example:4222\nlease_ttl: 4s\n"), 0o600); err != nil {
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
	cfg := load(map[string]string{"HOTPLEX_NODE_ID": "env-node"}, "--advertise-url", "http://n1.example:8080")
	if cfg.NATS != "nats://file.example:4222" || cfg.NodeID != "env-node" || cfg.LeaseTTL != 4*time.Second || cfg.AdvertiseURL != "http://n1.example:8080" {
		t.Fatalf("cluster settings: %+v", cfg)
	}
	if _, err := cfg.daemonConfig(); err == nil || !strings.Contains(err.Error(), "postgres") {
		t.Fatalf("a node without PostgreSQL: %v", err)
	}
	cfg.Postgres = "postgres://db.example/hotplex"
	dc, err := cfg.daemonConfig()
	if err != nil {
		t.Fatal(err)
	}
	if c := dc.Cluster; c == nil || c.NodeID != "env-node" || c.NATS != cfg.NATS || c.LeaseTTL != 4*time.Second || c.URL != "http://n1.example:8080" {
		t.Fatalf("daemon cluster config: %+v", dc.Cluster)
	}
	cfg.NodeID, cfg.AdvertiseURL = "", ""
	dc, err = cfg.daemonConfig()
	host, _ := os.Hostname()
	if err != nil || dc.Cluster.NodeID != host || dc.Cluster.URL != "http://"+cfg.Listen {
		t.Fatalf("defaults: %v %+v", err, dc.Cluster)
	}
	if single, _ := defaultServeConfig().daemonConfig(); single.Cluster != nil {
		t.Fatal("a daemon without nats is a cluster node")
	}
}

// What nobody answers in time is denied unless the operator chooses
// allow; the choice reaches the daemon's configuration, and a value that
// is neither is refused.
func TestServeConfigApprovalTimeout(t *testing.T) {
	dir := t.TempDir()
	load := func(env map[string]string, args ...string) (serveConfig, error) {
		fl := defaultServeConfig()
		c := &cobra.Command{Use: "serve"}
		fl.register(c)
		if err := c.ParseFlags(args); err != nil {
			t.Fatal(err)
		}
		env["HOTPLEX_DATA_DIR"] = dir
		return loadServeConfig(c, &fl, "", func(k string) string { return env[k] })
	}
	cfg, err := load(map[string]string{})
	if err != nil {
		t.Fatal(err)
	}
	dc, err := cfg.daemonConfig()
	if err != nil {
		t.Fatal(err)
	}
	if dc.ApprovalTimeout != 5*time.Minute || dc.AllowOnApprovalTimeout {
		t.Fatalf("defaults: %v, allow %v", dc.ApprovalTimeout, dc.AllowOnApprovalTimeout)
	}
	cfg, err = load(map[string]string{"HOTPLEX_APPROVAL_TIMEOUT_ACTION": "allow"}, "--approval-timeout", "45s")
	if err != nil {
		t.Fatal(err)
	}
	if dc, err = cfg.daemonConfig(); err != nil || dc.ApprovalTimeout != 45*time.Second || !dc.AllowOnApprovalTimeout {
		t.Fatalf("set: %v, allow %v (%v)", dc.ApprovalTimeout, dc.AllowOnApprovalTimeout, err)
	}
	if _, err := load(map[string]string{}, "--approval-timeout-action", "maybe"); err == nil || !strings.Contains(err.Error(), "approval_timeout_action") {
		t.Fatalf("a bad action was accepted: %v", err)
	}
}

// Spare counts per agent come from the YAML map, the environment or the
// repeatable --spare flag, in that rising precedence, and reach the
// daemon beside the plain count every other agent gets.
func TestServeConfigSparesPerProvider(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "hotplex.yaml")
	if err := os.WriteFile(file, []byte("data_dir: "+dir+"\nspares: 1\nspares_per_provider:\n  claude: 2\n  codex: 0\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	load := func(args []string, env map[string]string) (serveConfig, error) {
		fl := defaultServeConfig()
		c := &cobra.Command{Use: "serve"}
		fl.register(c)
		if err := c.ParseFlags(args); err != nil {
			return serveConfig{}, err
		}
		return loadServeConfig(c, &fl, file, func(k string) string { return env[k] })
	}
	cfg, err := load(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	dc, err := cfg.daemonConfig()
	if err != nil {
		t.Fatal(err)
	}
	if dc.Capacity.Spares != 1 || !maps.Equal(dc.Capacity.ProviderSpares, map[string]int{"claude": 2, "codex": 0}) {
		t.Fatalf("from the file: %d %v", dc.Capacity.Spares, dc.Capacity.ProviderSpares)
	}
	cfg, err = load(nil, map[string]string{"HOTPLEX_SPARES_PER_PROVIDER": "opencode-serve=3, claude-acp=1"})
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(cfg.ProviderSpares, spareCounts{"opencode-serve": 3, "claude-acp": 1}) {
		t.Fatalf("from the environment: %v", cfg.ProviderSpares)
	}
	cfg, err = load([]string{"--spare", "codex=4", "--spare", "claude=5", "--spare", "codex=2"}, map[string]string{"HOTPLEX_SPARES_PER_PROVIDER": "claude=9"})
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(cfg.ProviderSpares, spareCounts{"codex": 2, "claude": 5}) {
		t.Fatalf("from the flags: %v", cfg.ProviderSpares)
	}
	if !strings.Contains(cfg.String(), "spares_per_provider") {
		t.Fatalf("the start-up log leaves the counts out:\n%s", cfg)
	}
	for _, bad := range []string{"codex", "=2", "codex=two", "codex=-1"} {
		if _, err := load([]string{"--spare", bad}, nil); err == nil {
			t.Errorf("--spare %s was accepted", bad)
		}
		if _, err := load(nil, map[string]string{"HOTPLEX_SPARES_PER_PROVIDER": bad}); err == nil || !strings.Contains(err.Error(), "HOTPLEX_SPARES_PER_PROVIDER") {
			t.Errorf("HOTPLEX_SPARES_PER_PROVIDER=%s: %v", bad, err)
		}
	}
	if err := os.WriteFile(file, []byte("spares_per_provider:\n  claude: -2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := load(nil, nil); err == nil || !strings.Contains(err.Error(), "claude cannot be negative") {
		t.Fatalf("a negative count in the file: %v", err)
	}
}
