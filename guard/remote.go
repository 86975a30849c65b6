package guard

import (
	"strings"
)

// --- code fetched and run in one go: manifests, charts, modules,
// packages and scripts taken straight from a URL or a fresh clone ---

// trustedCodeHost reports hosts whose URLs are the usual, reviewed
// sources of manifests and charts.
func trustedCodeHost(h string) bool {
	for _, t := range [...]string{"github.com/kubernetes", "k8s.io", "kubernetes.io", "charts.bitnami.com", "helm.sh", "jetstack.io",
		"cert-manager.io", "argoproj.github.io", "istio.io", "cilium.io", "deno.land", "jsr.io", "esm.sh"} {
		if h == t || strings.HasSuffix(h, "."+t) {
			return true
		}
	}
	return false
}

// codeURL reports a URL of code from a host that is not well known.
func codeURL(u string) bool {
	l := strings.ToLower(u)
	if !strings.HasPrefix(l, "http://") && !strings.HasPrefix(l, "https://") && !strings.HasPrefix(l, "oci://") && !strings.HasPrefix(l, "git+") &&
		!strings.HasPrefix(l, "github:") && !strings.HasPrefix(l, "git@") {
		return false
	}
	h := hostOf(strings.TrimPrefix(strings.TrimPrefix(l, "git+"), "github:"))
	if isLocalHost(h) {
		return false
	}
	if h == "github.com" || h == "raw.githubusercontent.com" || h == "objects.githubusercontent.com" {
		// the projects whose published manifests are the usual source
		_, rest, _ := strings.Cut(l, h+"/")
		org, _, _ := strings.Cut(rest, "/")
		switch org {
		case "kubernetes", "kubernetes-sigs", "cert-manager", "jetstack", "argoproj", "istio", "cilium", "helm", "prometheus-operator",
			"prometheus-community", "grafana", "traefik", "fluxcd", "aws", "azure", "googlecloudplatform", "hashicorp", "rancher",
			"longhorn", "metallb", "projectcalico", "tektoncd", "knative", "open-telemetry", "elastic", "bitnami", "kyverno", "open-policy-agent":
			return strings.HasPrefix(l, "http://")
		}
	}
	return !trustedCodeHost(h) || strings.HasPrefix(l, "http://")
}

// recordClone remembers the directory git clone fills.
func (a *analysis) recordClone(c *cmd) {
	sub, args := gitSub(c)
	if sub == "submodule" {
		// git submodule add URL PATH: a clone, kept inside the project
		ops := posArgs(args, optSpec{short: "b", long: []string{"branch", "name", "reference", "depth"}})
		if len(ops) < 2 || ops[0].s != "add" {
			return
		}
		ops = ops[1:]
		if !codeURL(ops[0].s) && !strings.Contains(ops[0].s, "://") {
			return
		}
		dir := strings.TrimSuffix(ops[0].s[strings.LastIndexByte(strings.TrimSuffix(ops[0].s, "/"), '/')+1:], ".git")
		if len(ops) > 1 {
			dir = ops[1].s
		}
		if p := a.absPath(dir, c.cwd); p != "" && p != "/" && !strings.HasSuffix(p, "/") {
			a.clones = append(a.clones, p)
		}
		return
	}
	if sub != "clone" {
		return
	}
	ops := posArgs(args, optSpec{short: "bcjou", long: []string{"branch", "config", "depth", "jobs", "origin", "upload-pack", "template", "reference", "separate-git-dir", "filter"}})
	if len(ops) == 0 || !codeURL(ops[0].s) && !strings.Contains(ops[0].s, "://") || vendorRepo(ops[0].s) || strings.HasPrefix(ops[0].s, "file://") {
		return // (file:// is this machine's own repository, copied)
	}
	dir := ""
	if len(ops) > 1 {
		dir = ops[1].s
	} else {
		dir = strings.TrimSuffix(ops[0].s[strings.LastIndexByte(strings.TrimSuffix(ops[0].s, "/"), '/')+1:], ".git")
	}
	if p := a.absPath(dir, c.cwd); p != "" && p != "/" && !strings.HasSuffix(p, "/") {
		a.clones = append(a.clones, p)
	}
	if len(dir) > 2 && isDriveLetter(dir[0]) && dir[1] == ':' {
		// git clone URL C:\src\tool in cmd or PowerShell
		if p := a.winAbsPath(dir); p != "" {
			a.clones = append(a.clones, p)
		}
	}
}

// vendorOrgs are the organisations on GitHub whose repositories are the
// official source of the tools they make: cloning one and running its
// bootstrap is the tool's documented install (microsoft/vcpkg,
// flutter/flutter, emscripten-core/emsdk, pyenv/pyenv).
var vendorOrgs = map[string]bool{"microsoft": true, "azure": true, "google": true, "googleapis": true, "aws": true, "awslabs": true, "hashicorp": true,
	"flutter": true, "facebook": true, "nodejs": true, "python": true, "golang": true, "rust-lang": true, "kubernetes": true, "kubernetes-sigs": true,
	"docker": true, "moby": true, "apple": true, "mozilla": true, "jetbrains": true, "vercel": true, "nvidia": true, "pytorch": true, "tensorflow": true,
	"huggingface": true, "apache": true, "dotnet": true, "github": true, "emscripten-core": true, "llvm": true, "pyenv": true, "rbenv": true,
	"nvm-sh": true, "asdf-vm": true, "ohmyzsh": true, "junegunn": true, "neovim": true, "git": true}

// vendorRepo reports a clone URL of a vendor organisation's repository on
// GitHub.
func vendorRepo(u string) bool {
	l := strings.ToLower(u)
	for _, pre := range [...]string{"https://github.com/", "git@github.com:"} {
		if rest, ok := strings.CutPrefix(l, pre); ok {
			owner, _, _ := strings.Cut(rest, "/")
			return vendorOrgs[owner]
		}
	}
	return false
}

// inClone reports whether p is in a directory cloned earlier.
func (a *analysis) inClone(p string) bool {
	for _, d := range a.clones {
		if under(p, d) {
			return true
		}
	}
	return false
}
