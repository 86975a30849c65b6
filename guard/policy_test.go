package guard

import (
	"errors"
	"testing"
)

var policyCtx = Context{WorkDir: "/work/project", Home: "/home/dev"}

func mustPolicy(t *testing.T, allow, ask, deny []string) *Policy {
	t.Helper()
	p, err := NewPolicy(allow, ask, deny)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// A Claude Code settings file loads unchanged, other settings ignored.
func TestParsePolicyClaudeSettings(t *testing.T) {
	data := []byte(`{
  "$schema": "https://json.schemastore.org/claude-code-settings.json",
  "model": "sonnet",
  "env": {"FOO": "1"},
  "permissions": {
    "allow": ["Bash(npm run test:*)", "Bash(rm -rf node_modules)", "Read(~/.zshrc)", "WebFetch(domain:example.com)", "mcp__github"],
    "ask": ["Bash(git push:*)"],
    "deny": ["Read(./secrets/**)", "Edit(./.env)", "WebFetch", "Bash(curl:*)"],
    "additionalDirectories": ["../docs/"],
    "defaultMode": "acceptEdits"
  },
  "hooks": {}
}`)
	p, err := ParsePolicy(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Allow) != 5 || len(p.Ask) != 1 || len(p.Deny) != 4 {
		t.Fatalf("lists: %+v", p)
	}
	bare, err := ParsePolicy([]byte(`{"deny":["Bash(git push:*)"]}`))
	if err != nil || len(bare.Deny) != 1 {
		t.Fatalf("bare: %v %+v", err, bare)
	}
	for _, bad := range []string{`[]`, `{"permissions":{"allow":"Bash"}}`, `{"deny":["Bash(git push"]}`, `{"deny":["WebFetch(example.com)"]}`, `{"allow":[""]}`} {
		if _, err := ParsePolicy([]byte(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
	if _, err := ParsePolicy([]byte(`{"deny":["Bash(git push"]}`)); !errors.Is(err, ErrBadRule) {
		t.Errorf("bad rule error %v does not wrap ErrBadRule", err)
	}
}

func TestPolicyDenyEachSimpleCommand(t *testing.T) {
	d := NewDetector(Options{})
	ps := Policies{Server: mustPolicy(t, nil, nil, []string{"Bash(git push:*)"})}
	for _, cmd := range []string{
		"git push",
		"git push origin main",
		"sudo git push --force",
		"make && git push",
		"timeout 30 env GIT_TRACE=1 git push",
		`bash -c "git push"`,
		"cd src; git   push",
	} {
		v := ps.CheckCommand(d, cmd, policyCtx)
		if !v.Blocked || v.Decision != "deny" || v.Rule != "Bash(git push:*)" || v.RuleLevel != "server" || v.Category != CategoryPolicy {
			t.Errorf("%q: %+v", cmd, v)
		}
	}
	for _, cmd := range []string{"git status", "git pushx", "echo git push", "git log --grep 'git push'"} {
		if v := ps.CheckCommand(d, cmd, policyCtx); v.Blocked || v.Decision != "" {
			t.Errorf("%q: %+v", cmd, v)
		}
	}
	// PowerShell wrappers are analysed too
	v := ps.CheckCommand(d, `powershell -NoProfile -Command "git push origin main"`, policyCtx)
	if !v.Blocked || v.Matched != "git push origin main" {
		t.Errorf("powershell wrapper: %+v", v)
	}
}

func TestPolicyPrecedence(t *testing.T) {
	d := NewDetector(Options{})
	// deny at the server beats allow at the session
	ps := Policies{
		Server:  mustPolicy(t, nil, nil, []string{"Bash(git push:*)"}),
		Session: mustPolicy(t, []string{"Bash(git push:*)"}, nil, nil),
	}
	if v := ps.CheckCommand(d, "git push", policyCtx); !v.Blocked || v.RuleLevel != "server" {
		t.Errorf("session allow lifted a server deny: %+v", v)
	}
	// a session deny tightens a server allow
	ps = Policies{Server: mustPolicy(t, []string{"Bash"}, nil, nil), Session: mustPolicy(t, nil, nil, []string{"Bash(npm publish:*)"})}
	if v := ps.CheckCommand(d, "npm publish", policyCtx); !v.Blocked || v.RuleLevel != "session" {
		t.Errorf("session deny: %+v", v)
	}
	// ask
	ps = Policies{Key: mustPolicy(t, nil, []string{"Bash(git push:*)"}, nil)}
	if v := ps.CheckCommand(d, "git push", policyCtx); v.Blocked || !v.Ask || v.Decision != "ask" || v.RuleLevel != "key" {
		t.Errorf("ask: %+v", v)
	}
	// ask does not soften a built-in block
	ps = Policies{Session: mustPolicy(t, nil, []string{"Bash(rm:*)"}, nil)}
	if v := ps.CheckCommand(d, "rm -rf /", policyCtx); !v.Blocked {
		t.Errorf("ask softened a block: %+v", v)
	}
}

func TestPolicyAllowRelaxesBuiltin(t *testing.T) {
	d := NewDetector(Options{})
	const vol = "docker volume rm pgdata"
	if v := d.CheckCommand(vol, policyCtx); !v.Blocked || v.Level != LevelModerate {
		t.Fatalf("built-in verdict changed: %+v", v)
	}
	// a project (session) may allow a moderate finding
	ps := Policies{Session: mustPolicy(t, []string{"Bash(docker volume rm:*)"}, nil, nil)}
	if v := ps.CheckCommand(d, vol, policyCtx); v.Blocked || v.Decision != "allow" || v.Builtin.Blocked != true {
		t.Errorf("session allow: %+v", v)
	}
	// ... but not a high one: that takes the server level
	const prune = "docker system prune -af --volumes"
	if v := d.CheckCommand(prune, policyCtx); !v.Blocked || v.Level != LevelHigh {
		t.Fatalf("built-in verdict changed: %+v", v)
	}
	ps = Policies{Session: mustPolicy(t, []string{"Bash(docker system prune:*)"}, nil, nil)}
	if v := ps.CheckCommand(d, prune, policyCtx); !v.Blocked {
		t.Errorf("session allow lifted a high finding: %+v", v)
	}
	ps = Policies{Server: mustPolicy(t, []string{"Bash(docker system prune:*)"}, nil, nil)}
	if v := ps.CheckCommand(d, prune, policyCtx); v.Blocked || v.RuleLevel != "server" {
		t.Errorf("server allow: %+v", v)
	}
	// nothing lifts a critical finding
	ps = Policies{Server: mustPolicy(t, []string{"Bash"}, nil, nil)}
	if v := ps.CheckCommand(d, "rm -rf /", policyCtx); !v.Blocked {
		t.Errorf("allow lifted a critical finding: %+v", v)
	}
	// every objectionable part must be allowed
	ps = Policies{Session: mustPolicy(t, []string{"Bash(docker volume rm:*)"}, nil, nil)}
	if v := ps.CheckCommand(d, vol+" && git push --force", policyCtx); !v.Blocked {
		t.Errorf("allow of one part lifted another: %+v", v)
	}
}

func TestPolicyToolRules(t *testing.T) {
	d := NewDetector(Options{})
	ps := Policies{Server: mustPolicy(t, []string{"WebFetch(domain:example.com)"}, nil,
		[]string{"Read(./secrets/**)", "Edit(//etc/**)", "WebFetch(domain:evil.test)", "mcp__prod"})}
	cases := []struct {
		tool  string
		input map[string]any
		deny  bool
	}{
		{"Read", map[string]any{"file_path": "/work/project/secrets/api.key"}, true},
		{"Read", map[string]any{"file_path": "secrets/deep/x.pem"}, true},
		{"Read", map[string]any{"file_path": "/work/project/src/main.go"}, false},
		{"Edit", map[string]any{"file_path": "/etc/hosts"}, true},
		{"Write", map[string]any{"file_path": "/etc/nginx/nginx.conf"}, true},
		{"WebFetch", map[string]any{"url": "https://api.evil.test/x"}, true},
		{"WebFetch", map[string]any{"url": "https://example.com/docs"}, false},
		{"mcp__prod__drop_table", map[string]any{}, true},
		{"mcp__dev__query", map[string]any{}, false},
	}
	for _, tc := range cases {
		v := ps.CheckToolUse(d, tc.tool, tc.input, policyCtx)
		if (v.Decision == "deny") != tc.deny || tc.deny && !v.Blocked {
			t.Errorf("%s %v: %+v", tc.tool, tc.input, v)
		}
	}
	// shell tools go through the command rules, the PowerShell tool too
	ps = Policies{Key: mustPolicy(t, nil, nil, []string{"PowerShell(Remove-Item:*)", "Bash(git push:*)"})}
	if v := ps.CheckToolUse(d, "PowerShell", map[string]any{"command": "Remove-Item .\\build -Recurse"}, policyCtx); !v.Blocked || v.Rule != "PowerShell(Remove-Item:*)" {
		t.Errorf("PowerShell rule: %+v", v)
	}
	if v := ps.CheckToolUse(d, "Bash", map[string]any{"command": "Remove-Item x"}, policyCtx); v.Decision == "deny" {
		t.Errorf("PowerShell rule matched a Bash call: %+v", v)
	}
	if v := ps.CheckToolUse(d, "PowerShell", map[string]any{"command": "git push"}, policyCtx); !v.Blocked {
		t.Errorf("Bash rule on the PowerShell tool: %+v", v)
	}
}

func TestPolicyFirewall(t *testing.T) {
	f := PolicyFirewall{Detector: NewDetector(Options{}), Policies: Policies{Session: mustPolicy(t, nil, []string{"Bash(npm publish:*)"}, []string{"Bash(git push:*)"})}}
	if v := f.CheckToolUse("Bash", map[string]any{"command": "git push"}, policyCtx); !v.Blocked || v.Category != CategoryPolicy {
		t.Errorf("deny: %+v", v)
	}
	if v := f.CheckToolUse("Bash", map[string]any{"command": "npm publish --registry http://localhost:4873"}, policyCtx); v.Blocked || !v.Ask {
		t.Errorf("ask: %+v", v)
	}
	if v := f.CheckToolUse("Bash", map[string]any{"command": "rm -rf ~"}, policyCtx); !v.Blocked || v.Level != LevelCritical {
		t.Errorf("built-in: %+v", v)
	}
}
