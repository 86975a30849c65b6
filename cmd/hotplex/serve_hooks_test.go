package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/hotplex/hotplex/webhook"
)

// A key's webhooks come from the configuration file to the daemon; the
// printed configuration shows neither their secrets nor their URLs; a hook
// without a usable secret, or with a URL hooks may not use, is refused.
func TestServeConfigWebhooks(t *testing.T) {
	dir := t.TempDir()
	load := func(yaml string) (serveConfig, error) {
		t.Helper()
		file := filepath.Join(dir, "hotplex.yaml")
		if err := os.WriteFile(file, []byte("data_dir: "+dir+"\n"+yaml), 0o600); err != nil {
			t.Fatal(err)
		}
		fl := defaultServeConfig()
		c := &cobra.Command{Use: "serve"}
		fl.register(c)
		return loadServeConfig(c, &fl, file, func(string) string { return "" })
	}
	secret := webhook.NewSecret()
	key := func(hook string) string {
		return "keys:\n  - name: ci\n    secret: 0123456789abcdef0123\n    hooks:\n" + hook
	}
	cfg, err := load(key("      - url: https://hooks.example.com/token-in-path\n        secret: " + secret + "\n        events: [turn.failed, permission.requested]\n"))
	if err != nil {
		t.Fatal(err)
	}
	dc, err := cfg.daemonConfig()
	if err != nil {
		t.Fatal(err)
	}
	if len(dc.Keys) != 1 || len(dc.Keys[0].Hooks) != 1 {
		t.Fatalf("keys %+v", dc.Keys)
	}
	h := dc.Keys[0].Hooks[0]
	if h.URL != "https://hooks.example.com/token-in-path" || h.Secret != secret || !slices.Equal(h.Events, []string{"turn.failed", "permission.requested"}) {
		t.Fatalf("hook %+v", h)
	}
	printed := cfg.String()
	if strings.Contains(printed, secret) || strings.Contains(printed, "token-in-path") || !strings.Contains(printed, "1 webhooks") {
		t.Fatalf("printed configuration:\n%s", printed)
	}
	for _, bad := range []string{
		"      - url: https://hooks.example.com/\n",
		"      - url: https://hooks.example.com/\n        secret: whsec_dG9vIHNob3J0\n",
		"      - url: ftp://hooks.example.com/\n        secret: " + secret + "\n",
		"      - url: http://169.254.169.254/\n        secret: " + secret + "\n",
		"      - url: https://hooks.example.com/\n        secret: " + secret + "\n        events: [turn.done]\n",
	} {
		if _, err := load(key(bad)); err == nil {
			t.Errorf("accepted:\n%s", bad)
		}
	}
}
