package main

import (
	"os"
	"path/filepath"
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
