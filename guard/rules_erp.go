package guard

import (
	"strings"
)

// Enterprise applications run from their administrators' command lines:
// SAP (sapcontrol, HDB, tp) and Oracle E-Business Suite (adstpall.sh,
// FNDCPASS, wallets). A whole system stopped, every transport imported
// into production, an application user's password set in the command,
// a wallet's stored password shown. Status calls and a development
// system's transports pass.
var erpRules = []*rule{
	{ID: "erp-system-changed", Level: LevelHigh, Category: CategorySystem, Description: "stopping or restarting an enterprise application's whole system, importing every pending transport into production, or setting an application administrator's password in the command",
		Suggestions: []string{"Stop or import in the change window, through the basis team", "Import the one transport reviewed for production"},
		names: names("sapcontrol", "sapcontrol.exe", "HDB", "tp", "adstpall.sh", "FNDCPASS", "saphostctrl", "saphostctrl.exe", "stopsap", "cleanipc",
			"hdbnsutil", "hdblcm", "hdbuninst", "adcmctl.sh", "admanagedsrvctl.sh", "adoacorectl.sh", "EndOneWorld.sh"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			low := c.lowerArgs()
			switch c.name {
			case "sapcontrol", "sapcontrol.exe":
				f, _ := optValue(args, "-function", "")
				switch strings.ToLower(f) {
				case "stopsystem", "restartsystem", "stop", "shutdown", "restartservice", "stopservice", "restartinstance", "abapstop":
					return true, "sapcontrol -function " + f
				}
			case "HDB":
				if ops := plainWords(low); len(ops) > 0 && (ops[0] == "stop" || ops[0] == "kill" || ops[0] == "kill-9") {
					return true, "HDB " + ops[0] + " (the HANA database stopped)"
				}
			case "tp":
				// tp import ALL SID: every transport in the queue, at once
				ops := plainWords(low)
				if len(ops) > 2 && ops[0] == "import" && ops[1] == "all" && isProdName(ops[2]) {
					return true, "tp import ALL " + strings.ToUpper(ops[2])
				}
			case "adstpall.sh":
				return true, "every E-Business Suite application service stopped"
			case "saphostctrl", "saphostctrl.exe":
				// the host agent stopping a database or an instance
				f, _ := optValue(args, "-function", "")
				switch strings.ToLower(f) {
				case "stopdatabase", "stopinstance", "stopsystem", "uninstallinstance":
					return true, "saphostctrl -function " + f
				}
			case "stopsap":
				return true, "stopsap " + strings.Join(low, " ") + " (an SAP instance stopped)"
			case "cleanipc":
				if hasAnyWord(low, "remove") {
					return true, "cleanipc remove (a running instance's shared memory removed)"
				}
			case "hdbnsutil":
				// system replication taken over, unregistered or switched
				// off: the secondary that protects production
				for _, w := range low {
					switch strings.SplitN(w, "=", 2)[0] {
					case "-sr_takeover", "-sr_unregister", "-sr_disable", "-sr_cleanup":
						return true, "hdbnsutil " + w + " (system replication)"
					}
				}
			case "hdblcm", "hdbuninst":
				if v, _ := optValue(args, "", "action"); c.name == "hdbuninst" || strings.EqualFold(v, "uninstall") {
					return true, c.name + " uninstall (a HANA system removed)"
				}
			case "adcmctl.sh", "admanagedsrvctl.sh", "adoacorectl.sh":
				if hasAnyWord(low, "abort") || hasAnyWord(low, "stop") {
					return true, c.name + " " + strings.Join(low, " ")
				}
			case "EndOneWorld.sh":
				return true, "a JD Edwards enterprise server stopped"
			case "FNDCPASS":
				// FNDCPASS apps/PW 0 Y system/PW USER NAME NEWPASSWORD
				ops := c.operands()
				if len(ops) >= 7 && (strings.EqualFold(ops[4].s, "USER") || strings.EqualFold(ops[4].s, "ORACLE") || strings.EqualFold(ops[4].s, "SYSTEM")) {
					return true, "FNDCPASS setting " + ops[5].s + "'s password in the command"
				}
			}
			return false, ""
		}},
	{ID: "crm-records-deleted", Level: LevelCritical, Category: CategoryDatabaseDestroy, Description: "running anonymous Apex that deletes records in a Salesforce org that is not a scratch or sandbox org",
		Suggestions: []string{"Run the script against a scratch org or sandbox first", "Export the records (sf data export) before deleting them in production"},
		names:       names("sf", "sfdx"),
		partial:     true, // sf data delete stays with the generic clients' rules
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := plainWords(c.lowerArgs())
			if len(ops) < 2 || !(ops[0] == "apex" && ops[1] == "run" || ops[0] == "force:apex:execute") {
				return false, ""
			}
			if ops[0] == "apex" && len(ops) > 2 && ops[2] == "test" {
				return false, ""
			}
			org, ok := optValue(args, "-o", "target-org", "targetusername")
			if !ok {
				org, ok = optValue(args, "-u", "")
			}
			if ok && scratchName(org) {
				return false, ""
			}
			if c.in.kind != flowText || !apexDeletes(c.in.text) {
				return false, ""
			}
			if !ok {
				org = "the default org"
			}
			return true, "anonymous Apex deleting records in " + org
		}},
	{ID: "wallet-secret-shown", Level: LevelHigh, Category: CategoryExfiltration, Description: "printing a password an Oracle wallet or SAP's secure store keeps",
		Suggestions: []string{"List the entries' names only (mkstore -list)", "Let the application read the wallet itself"},
		names:       names("mkstore", "rsecssfx"),
		match: func(a *analysis, c *cmd) (bool, string) {
			low := c.lowerArgs()
			switch c.name {
			case "mkstore":
				if optGiven(low, "-viewentry") {
					return true, "mkstore -viewEntry"
				}
			case "rsecssfx":
				if ops := plainWords(low); len(ops) > 0 && ops[0] == "get" {
					return true, "rsecssfx get"
				}
			}
			return false, ""
		}},
	{ID: "erp-records-changed", Level: LevelHigh, Category: CategoryDatabaseDestroy, Description: "deleting an ERP's records through its API, or upgrading every module of a production database",
		Suggestions: []string{"Archive records instead of deleting them, after a backup", "Upgrade modules on a copy of the database first"},
		names:       names("python", "python3", "odoo-bin", "odoo", "bench"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			switch c.name {
			case "bench":
				// Frappe / ERPNext: bench --site S reinstall, bench drop-site
				// S: the site's database made anew, or gone
				site, _ := optValue(args, "", "site")
				ops := c.operands()
				for i, w := range ops {
					if w.s == "drop-site" && i+1 < len(ops) {
						site = ops[i+1].s
					}
					if (w.s == "reinstall" || w.s == "drop-site" || w.s == "restore") && site != "" && !scratchName(site) && !strings.HasSuffix(site, ".localhost") {
						return true, "bench " + w.s + " of the site " + site
					}
				}
				return false, ""
			case "odoo-bin", "odoo":
				// odoo-bin -d acme_prod -u all: every module upgraded on
				// the live database
				db, _ := optValue(args, "-d", "database")
				if u, ok := optValue(args, "-u", "update"); ok && strings.EqualFold(u, "all") && isProdName(db) {
					return true, "every module upgraded on " + db
				}
			default:
				// xmlrpc execute_kw(DB, uid, key, 'res.partner', 'unlink', [ids])
				code, ok := optValue(args, "-c", "")
				if ok && strings.Contains(code, "execute_kw") && (strings.Contains(code, "'unlink'") || strings.Contains(code, `"unlink"`)) {
					return true, "records deleted through the ERP's API (unlink)"
				}
			}
			return false, ""
		}},
	{ID: "hr-records-changed", Level: LevelHigh, Category: CategoryDatabaseDestroy, Description: "changing employees' records or running payroll through an HR or payroll service's API (terminations, pay and bank details, payrolls submitted: real people and real money)",
		Suggestions: []string{"Make the change in the service's own console, where it is reviewed", "Try it against the service's sandbox or demo company first"},
		names:       httpClients,
		match: func(a *analysis, c *cmd) (bool, string) {
			h, ok := readHTTPCall(c)
			if !ok || h.method == "GET" || h.method == "HEAD" || h.scratch() {
				return false, ""
			}
			host := hostOf(h.url)
			if !hrPayrollHost(host) || strings.Contains(h.url, "/oauth") || strings.Contains(h.url, "/token") || strings.Contains(h.url, "/reports/") {
				return false, "" // (a sign-in, or a report asked for with a POST)
			}
			return true, h.method + " " + h.url
		}},
}

// hrPayrollHost reports an HR or payroll service's API host (not its
// demo or sandbox).
func hrPayrollHost(host string) bool {
	if host == "" || hasAny(host, "demo", "sandbox", "test", "mock") {
		return false
	}
	switch host {
	case "api.gusto.com", "api.bamboohr.com", "api.personio.de", "api.adp.com", "accounts.adp.com", "api.paychex.com", "api.rippling.com",
		"api.hibob.com", "api.deel.com", "api.namely.com", "api.paylocity.com", "api.justworks.com", "api.remote.com", "api.zenefits.com":
		return true
	}
	return strings.HasSuffix(host, ".workday.com") || strings.HasSuffix(host, ".myworkday.com") || strings.HasSuffix(host, ".successfactors.com") ||
		strings.HasSuffix(host, ".ultipro.com") || strings.HasSuffix(host, ".dayforcehcm.com")
}

func init() { ruleSets = append(ruleSets, erpRules) }

// apexDeletes reports Apex that deletes records: a delete statement
// (delete [SELECT …]; delete accounts;) or Database.delete.
func apexDeletes(src string) bool {
	l := strings.ToLower(src)
	if strings.Contains(l, "database.delete(") || strings.Contains(l, "database.emptyrecyclebin(") {
		return true
	}
	for _, stmt := range strings.FieldsFunc(l, func(r rune) bool { return r == ';' || r == '{' || r == '}' || r == '\n' }) {
		f := strings.Fields(stmt)
		if len(f) > 1 && f[0] == "delete" {
			return true
		}
	}
	return false
}
