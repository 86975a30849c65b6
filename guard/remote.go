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
	if sub != "clone" {
		return
	}
	ops := posArgs(args, optSpec{short: "bcjou", long: []string{"branch", "config", "depth", "jobs", "origin", "upload-pack", "template", "reference", "separate-git-dir", "filter"}})
	if len(ops) == 0 || !codeURL(ops[0].s) && !strings.Contains(ops[0].s, "://") {
		return
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
