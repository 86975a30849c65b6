package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hotplex/hotplex/guard"
)

// permissionRules are allow, ask and deny lists of permission rules in
// Claude Code's syntax, as the configuration writes them.
type permissionRules struct {
	Allow []string `yaml:"allow"`
	Ask   []string `yaml:"ask"`
	Deny  []string `yaml:"deny"`
}

func (r permissionRules) empty() bool { return len(r.Allow)+len(r.Ask)+len(r.Deny) == 0 }

func (r permissionRules) String() string {
	if r.empty() {
		return "none"
	}
	var parts []string
	for _, l := range []struct {
		name  string
		rules []string
	}{{"allow", r.Allow}, {"ask", r.Ask}, {"deny", r.Deny}} {
		if len(l.rules) > 0 {
			parts = append(parts, l.name+" "+strings.Join(l.rules, " "))
		}
	}
	return "[" + strings.Join(parts, "; ") + "]"
}

// policy compiles the rules; nil when there are none.
func (r permissionRules) policy() (*guard.Policy, error) {
	if r.empty() {
		return nil, nil
	}
	return guard.NewPolicy(r.Allow, r.Ask, r.Deny)
}

// daemonPolicies are the configured levels of permission rules: the
// server's and each configured key's, by the key's ID.
type daemonPolicies struct {
	server *guard.Policy
	keys   map[string]*guard.Policy
}

// policies compiles the configured rules: the server's from permissions
// and permissions_file together, and those of every configured key.
func (c serveConfig) policies() (daemonPolicies, error) {
	server := c.Permissions
	if c.PermissionsFile != "" {
		p, err := guard.LoadPolicy(c.PermissionsFile)
		if err != nil {
			return daemonPolicies{}, fmt.Errorf("config: permissions_file: %w", err)
		}
		server = permissionRules{
			Allow: slices.Concat(server.Allow, p.Allow), Ask: slices.Concat(server.Ask, p.Ask), Deny: slices.Concat(server.Deny, p.Deny),
		}
	}
	var d daemonPolicies
	var err error
	if d.server, err = server.policy(); err != nil {
		return daemonPolicies{}, fmt.Errorf("config: permissions: %w", err)
	}
	for _, k := range c.Keys {
		p, err := k.Permissions.policy()
		if err != nil {
			return daemonPolicies{}, fmt.Errorf("config: key %s: permissions: %w", k.Name, err)
		}
		if p != nil {
			if d.keys == nil {
				d.keys = map[string]*guard.Policy{}
			}
			d.keys[configKeyID(k.Name)] = p
		}
	}
	return d, nil
}

// configKeyID is the store ID of a key configured by name.
func configKeyID(name string) string { return "cfg-" + name }

// protectedPaths are what the daemon owns, which no session may delete,
// move, truncate, write into or re-own: the data directory, the database
// and its journal files, the admin key file, the permission rules file
// and the work-directory root, under which every other session's work
// directory lies (the firewall leaves a session its own). Each is listed
// as configured and, when a symbolic link leads there, where it leads.
func protectedPaths(c serveConfig) []string {
	db := filepath.Join(c.DataDir, "hotplex.db")
	paths := []string{c.DataDir, db, db + "-wal", db + "-shm", db + "-journal", c.WorkDirRoot}
	for _, f := range []string{c.AdminKeyFile, c.PermissionsFile} {
		if f == "" {
			continue
		}
		if abs, err := filepath.Abs(f); err == nil {
			paths = append(paths, abs)
		}
	}
	var out []string
	for _, p := range paths {
		out = append(out, p)
		// A file not yet created resolves through its directory.
		dir, name := filepath.Split(p)
		if real, err := filepath.EvalSymlinks(p); err == nil && real != p {
			out = append(out, real)
		} else if real, err := filepath.EvalSymlinks(dir); err == nil && filepath.Join(real, name) != p {
			out = append(out, filepath.Join(real, name))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
