package guard

import "strings"

// Everything a listing cmdlet yields, piped into a cmdlet that removes or
// stops it: "Get-ClusterResource -Cluster C | Stop-ClusterResource",
// "Get-VM -ComputerName H | Get-VMSnapshot | Remove-VMSnapshot",
// "Get-CMDevice -CollectionName 'All Systems' | Remove-CMDevice". The
// listing names no object (only the host, cluster or server it asks), no
// Where-Object narrows it, and the last cmdlet names none either: every
// object of that kind goes. Files, jobs, sessions and processes have
// rules of their own.
var winBulkRules = []*rule{
	{ID: "win-listed-objects-destroyed", Level: LevelHigh, Category: CategorySystem, Description: "removing or stopping every object a listing cmdlet yields (all of a server's, cluster's or collection's)",
		Suggestions: []string{"Name the objects to remove, or narrow the listing with Where-Object", "Run the pipeline with -WhatIf first"},
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.stage == 0 || c.stage > len(c.pipe) {
				return false, ""
			}
			verb, noun, ok := strings.Cut(c.name, "-")
			if !ok || !bulkVerbs[verb] || bulkExemptNouns[noun] {
				return false, ""
			}
			args := wargs(c)
			if psHas(args, "whatif", 2) || !unselective(args) {
				return false, ""
			}
			first := ""
			for _, s := range c.pipe[:c.stage] {
				if s == nil {
					return false, "" // (a stage not judged yet)
				}
				v, n, ok := strings.Cut(s.name, "-")
				if !ok || v != "get" || !unselective(wargs(s)) {
					return false, "" // a filter, a name, or not a listing
				}
				if first == "" {
					first = n
				}
			}
			if first == "" || !strings.HasPrefix(noun, first) && !strings.HasPrefix(first, noun) {
				return false, ""
			}
			return true, "Get-" + first + " | " + c.base + " (every one listed)"
		}},
}

// bulkVerbs are the cmdlet verbs that remove or stop what they are given.
var bulkVerbs = map[string]bool{"remove": true, "stop": true, "disable": true, "uninstall": true, "dismount": true, "clear": true, "suspend": true}

// bulkExemptNouns are the nouns other rules judge (files, processes) or
// that belong to the session itself (jobs, sessions, variables).
var bulkExemptNouns = map[string]bool{"item": true, "childitem": true, "content": true, "itemproperty": true, "job": true, "pssession": true,
	"variable": true, "module": true, "psdrive": true, "cimsession": true, "eventsubscriber": true, "bitstransfer": true, "process": true,
	"alias": true, "psbreakpoint": true, "typedata": true, "formatdata": true, "history": true, "host": true, "printjob": true}

// unselective reports a cmdlet's arguments that name where to look (a
// computer, cluster, server, port) but no object: every object there.
func unselective(args []string) bool {
	for i := 0; i < len(args); i++ {
		w := args[i]
		if !strings.HasPrefix(w, "-") {
			return false // a positional name
		}
		k, v, hasV := strings.Cut(strings.TrimPrefix(w, "-"), ":")
		switch k {
		case "force", "passthru", "asjob", "nowait", "kill", "turnoff", "deletepermanently", "removedata", "includemanagementtools":
		case "confirm", "erroraction", "ea", "warningaction", "verbose":
			if !hasV && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") && (k == "erroraction" || k == "ea" || k == "warningaction") {
				i++
			}
		case "computername", "cn", "cluster", "server", "portnumber", "cimsession", "credential", "siteserver":
			if !hasV {
				i++
			}
		case "collectionname":
			if !hasV && i+1 < len(args) {
				v = args[i+1]
				i++
			}
			if !strings.HasPrefix(strings.Trim(v, `"'`), "all ") {
				return false
			}
		case "filter":
			if !hasV && i+1 < len(args) {
				v = args[i+1]
				i++
			}
			if strings.Trim(v, `"'`) != "*" {
				return false
			}
		default:
			return false
		}
	}
	return true
}

func init() { ruleSets = append(ruleSets, winBulkRules) }
