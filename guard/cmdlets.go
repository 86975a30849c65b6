package guard

import (
	"maps"
	"slices"
	"strings"
)

// Administration cmdlets, module by module as their documentation lists
// them (SqlServer and dbatools, Exchange Online and Purview, Microsoft
// Graph and the older AzureAD and MSOnline modules, Az, AWS Tools, the DNS
// server's and IIS's tools), whose parameters destroy data, open a
// service or a store to everyone, or grant an administrator's role.
// Each entry is judged on the cmdlet's lower-cased arguments.
type cmdletRisk struct {
	id       string
	level    DangerLevel
	category string
	what     string
	// when reports whether these arguments are the dangerous form; nil
	// for always
	when func(args []string) bool
}

var cmdletRisks = map[string]cmdletRisk{
	// SQL Server: databases overwritten, taken offline, masked, or
	// made to run programs; every target but the developer's own
	"copy-dbadatabase": {"sql-database-overwrite", LevelHigh, CategoryDatabaseDestroy, "a database copied over the destination's",
		func(args []string) bool { return psHas(args, "force", 2) && sqlTargetRemote(args, "destination") }},
	"restore-sqldatabase": {"sql-database-overwrite", LevelHigh, CategoryDatabaseDestroy, "a backup restored over a database",
		func(args []string) bool {
			return psHas(args, "replacedatabase", 3) && sqlTargetRemote(args, "serverinstance")
		}},
	"set-dbadbstate": {"sql-database-offline", LevelHigh, CategoryDatabaseDestroy, "a database taken offline or detached",
		func(args []string) bool {
			return (psHas(args, "offline", 3) || psHas(args, "detached", 3) || psHas(args, "emergency", 3)) && sqlTargetRemote(args, "sqlinstance")
		}},
	"dismount-dbadatabase": {"sql-database-offline", LevelHigh, CategoryDatabaseDestroy, "a database detached from its server",
		func(args []string) bool { return sqlTargetRemote(args, "sqlinstance") }},
	"invoke-dbadbdatamasking": {"sql-data-masked", LevelHigh, CategoryDatabaseDestroy, "a database's columns overwritten with masked values",
		func(args []string) bool { return sqlTargetRemote(args, "sqlinstance") }},
	"set-dbaspconfigure": {"db-server-code-exec", LevelHigh, CategorySystem, "SQL Server allowed to run programs (xp_cmdshell, OLE automation)",
		func(args []string) bool {
			n, _ := psFlag(args, "name", 2)
			v, _ := psFlag(args, "value", 2)
			n = strings.Trim(n, `"'`)
			return (strings.Contains(n, "xpcmdshell") || strings.Contains(n, "oleautomation")) && strings.Trim(v, `"'`) == "1"
		}},

	// Exchange Online and Purview: mail deleted, or an administrator's
	// role group joined
	"new-compliancesearchaction": {"mail-purge", LevelHigh, CategoryCloudDestroy, "the mail a search found purged",
		func(args []string) bool { return psHas(args, "purge", 3) }},
	"new-mailboxexportrequest": {"mail-forwarded-away", LevelCritical, CategoryExfiltration, "a mailbox exported to the share of a machine known only by its address",
		func(args []string) bool {
			v, _ := psFlag(args, "filepath", 2)
			host, _ := uncHost(strings.Trim(v, `"'`))
			return isPublicIP(host)
		}},
	// a database's backup written to the share of a machine known only
	// by its address
	"backup-dbadatabase": {"db-backup-sent-away", LevelCritical, CategoryExfiltration, "a database backed up to the share of a machine known only by its address",
		func(args []string) bool { return backupToAddress(args) }},
	"backup-sqldatabase": {"db-backup-sent-away", LevelCritical, CategoryExfiltration, "a database backed up to the share of a machine known only by its address",
		func(args []string) bool { return backupToAddress(args) }},
	"search-mailbox": {"mail-purge", LevelHigh, CategoryCloudDestroy, "a mailbox's messages deleted",
		func(args []string) bool { return psHas(args, "deletecontent", 3) }},
	"add-rolegroupmember": {"directory-admin-role", LevelHigh, CategoryPrivilege, "a member added to an administrators' role group",
		func(args []string) bool {
			id, ok := psFlag(args, "identity", 2)
			if !ok && len(args) > 0 && !strings.HasPrefix(args[0], "-") {
				id = args[0]
			}
			return strings.Contains(id, "management") || strings.Contains(id, "admin")
		}},

	// Entra ID: every directory role is an administrator's
	"new-mgdirectoryrolememberbyref":                  {"directory-admin-role", LevelHigh, CategoryPrivilege, "a member added to a directory role", nil},
	"new-mgrolemanagementdirectoryroleassignment":     {"directory-admin-role", LevelHigh, CategoryPrivilege, "a directory role assigned", nil},
	"new-mgbetarolemanagementdirectoryroleassignment": {"directory-admin-role", LevelHigh, CategoryPrivilege, "a directory role assigned", nil},
	"add-azureaddirectoryrolemember":                  {"directory-admin-role", LevelHigh, CategoryPrivilege, "a member added to a directory role", nil},
	"new-azureadmsroleassignment":                     {"directory-admin-role", LevelHigh, CategoryPrivilege, "a directory role assigned", nil},
	"add-msolrolemember":                              {"directory-admin-role", LevelHigh, CategoryPrivilege, "a member added to a directory role", nil},
	"update-mgpolicyauthorizationpolicy": {"directory-opened", LevelHigh, CategorySystem, "anyone allowed to invite guests into the directory",
		func(args []string) bool {
			v, _ := psFlag(args, "allowinvitesfrom", 6)
			return strings.Trim(v, `"'`) == "everyone"
		}},

	// Azure: stores and servers opened to the internet
	"set-azstorageaccount": {"service-open-to-all", LevelHigh, CategorySystem, "a storage account's blobs opened to anonymous reads",
		func(args []string) bool { v, ok := psFlag(args, "allowblobpublicaccess", 6); return psTrue(v, ok) }},
	"update-azstorageaccountnetworkruleset": {"service-open-to-all", LevelHigh, CategorySystem, "a storage account's firewall set to allow everyone",
		func(args []string) bool {
			v, _ := psFlag(args, "defaultaction", 3)
			return strings.Trim(v, `"'`) == "allow"
		}},
	"update-azkeyvaultnetworkruleset": {"service-open-to-all", LevelHigh, CategorySystem, "a key vault's firewall set to allow everyone",
		func(args []string) bool {
			v, _ := psFlag(args, "defaultaction", 3)
			return strings.Trim(v, `"'`) == "allow"
		}},
	"new-azsqlserverfirewallrule": {"service-open-to-all", LevelHigh, CategorySystem, "a SQL server's firewall opened to every address",
		sqlFirewallOpen},
	"set-azsqlserverfirewallrule": {"service-open-to-all", LevelHigh, CategorySystem, "a SQL server's firewall opened to every address",
		sqlFirewallOpen},
	"set-azstoragecontaineracl": {"public-storage", LevelHigh, CategoryExfiltration, "a storage container opened to anonymous reads",
		func(args []string) bool {
			v, _ := psFlag(args, "permission", 2)
			v = strings.Trim(v, `"'`)
			return v == "blob" || v == "container"
		}},

	// AWS Tools: the audit trail stopped, objects made public, keys
	// uploaded
	"stop-ctlogging": {"cloud-audit-off", LevelHigh, CategoryHistoryTamper, "the CloudTrail trail stopped (API calls no longer recorded)", nil},
	"write-s3object": {"public-storage", LevelHigh, CategoryExfiltration, "an object uploaded readable by anyone",
		func(args []string) bool {
			v, _ := psFlag(args, "cannedaclname", 3)
			return strings.Contains(v, "public-read")
		}},
	"set-s3acl": {"public-storage", LevelHigh, CategoryExfiltration, "an object or bucket made readable by anyone",
		func(args []string) bool {
			v, _ := psFlag(args, "cannedaclname", 3)
			return strings.Contains(v, "public-read")
		}},

	"edit-rdsdbsnapshotattribute": {"public-snapshot", LevelCritical, CategoryExfiltration, "a database snapshot shared with every AWS account",
		func(args []string) bool {
			v, _ := psFlag(args, "valuestoadd", 6)
			return strings.Trim(v, `"'`) == "all"
		}},
	"edit-ec2snapshotattribute": {"public-snapshot", LevelCritical, CategoryExfiltration, "a disk snapshot shared with every AWS account",
		func(args []string) bool { v, _ := psFlag(args, "groupname", 5); return strings.Trim(v, `"'`) == "all" }},
	"set-azsqlserver": {"service-open-to-all", LevelHigh, CategorySystem, "a SQL server opened to public networks",
		func(args []string) bool {
			v, _ := psFlag(args, "publicnetworkaccess", 7)
			return strings.Trim(v, `"'`) == "enabled"
		}},
	"add-dbaserverrolemember": {"sql-admin-role", LevelHigh, CategoryPrivilege, "a login made a SQL Server administrator",
		func(args []string) bool {
			v, _ := psFlag(args, "serverrole", 7)
			v = strings.Trim(v, `"'`)
			return v == "sysadmin" || v == "securityadmin" || v == "serveradmin" || v == "controlserver"
		}},
	"new-mgserviceprincipalapproleassignment": {"directory-admin-role", LevelHigh, CategoryPrivilege, "an application granted a directory permission (an app role of Microsoft Graph)", nil},
	"new-mgserviceprincipalapproleassignedto": {"directory-admin-role", LevelHigh, CategoryPrivilege, "an application granted a directory permission (an app role of Microsoft Graph)", nil},

	// Windows Server's roles: failover clusters, Hyper-V hosts,
	// Configuration Manager, WSUS, Active Directory, DNS, remoting
	// endpoints and Exchange
	"stop-clusterresource":   {"win-cluster-disrupted", LevelHigh, CategorySystem, "a failover cluster's resource, role or whole cluster stopped or removed", nil},
	"stop-clustergroup":      {"win-cluster-disrupted", LevelHigh, CategorySystem, "a failover cluster's resource, role or whole cluster stopped or removed", nil},
	"remove-clusterresource": {"win-cluster-disrupted", LevelHigh, CategorySystem, "a failover cluster's resource, role or whole cluster stopped or removed", nil},
	"remove-clustergroup":    {"win-cluster-disrupted", LevelHigh, CategorySystem, "a failover cluster's resource, role or whole cluster stopped or removed", nil},
	"remove-clusternode":     {"win-cluster-disrupted", LevelHigh, CategorySystem, "a failover cluster's resource, role or whole cluster stopped or removed", nil},
	"stop-cluster":           {"win-cluster-disrupted", LevelHigh, CategorySystem, "a failover cluster's resource, role or whole cluster stopped or removed", nil},
	"remove-cluster":         {"win-cluster-disrupted", LevelHigh, CategorySystem, "a failover cluster's resource, role or whole cluster stopped or removed", nil},
	"set-clusterquorum": {"win-cluster-disrupted", LevelHigh, CategorySystem, "a failover cluster's resource, role or whole cluster stopped or removed",
		func(args []string) bool { return psHas(args, "nowitness", 3) }},
	"restore-vmcheckpoint": {"vm-reverted-remote", LevelHigh, CategorySystem, "a server's virtual machine reverted to a checkpoint (what changed since is lost)",
		func(args []string) bool { return psHas(args, "computername", 3) }},
	"restore-vmsnapshot": {"vm-reverted-remote", LevelHigh, CategorySystem, "a server's virtual machine reverted to a checkpoint (what changed since is lost)",
		func(args []string) bool { return psHas(args, "computername", 3) }},
	"remove-cmdevice":     {"configmgr-object-removed", LevelHigh, CategoryCloudDestroy, "a Configuration Manager device record, collection or deployment deleted", nil},
	"remove-cmcollection": {"configmgr-object-removed", LevelHigh, CategoryCloudDestroy, "a Configuration Manager device record, collection or deployment deleted", nil},
	"remove-cmdeployment": {"configmgr-object-removed", LevelHigh, CategoryCloudDestroy, "a Configuration Manager device record, collection or deployment deleted", nil},
	"invoke-cmscript":     {"fleet-script-run", LevelCritical, CategoryRemoteExec, "a script run as SYSTEM on every machine of a Configuration Manager collection", nil},
	"approve-wsusupdate": {"wsus-fleet-approval", LevelHigh, CategorySystem, "updates approved for removal, or for every computer, on the update server",
		func(args []string) bool {
			act, _ := psFlag(args, "action", 2)
			grp, _ := psFlag(args, "targetgroupname", 2)
			return strings.Trim(act, `"'`) == "uninstall" || strings.HasPrefix(strings.Trim(grp, `"'`), "all computers")
		}},
	"uninstall-windowsfeature": {"server-role-removed", LevelHigh, CategorySystem, "a Windows server role removed from another machine",
		func(args []string) bool { return psHas(args, "computername", 3) }},
	"remove-windowsfeature": {"server-role-removed", LevelHigh, CategorySystem, "a Windows server role removed from another machine",
		func(args []string) bool { return psHas(args, "computername", 3) }},
	"set-addomainmode": {"ad-functional-level-raised", LevelHigh, CategorySystem, "the domain's or forest's functional level raised (it cannot be lowered)", nil},
	"set-adforestmode": {"ad-functional-level-raised", LevelHigh, CategorySystem, "the domain's or forest's functional level raised (it cannot be lowered)", nil},
	"move-addirectoryserveroperationmasterrole": {"ad-fsmo-seized", LevelHigh, CategorySystem, "a domain's operations master roles seized (the old holder must never come back)",
		func(args []string) bool { return psHas(args, "force", 2) }},
	"set-dnsserverprimaryzone": {"dns-zone-opened", LevelHigh, CategoryPermission, "a DNS zone opened to unauthenticated updates (any host may overwrite any record)",
		func(args []string) bool {
			v, _ := psFlag(args, "dynamicupdate", 3)
			return strings.Trim(v, `"'`) == "nonsecureandsecure"
		}},
	"register-pssessionconfiguration": {"remoting-endpoint-opened", LevelHigh, CategoryPrivilege, "a remoting endpoint that runs every caller's commands as another account",
		func(args []string) bool { return psHas(args, "runascredential", 4) && sddlGrantsEveryone(args) }},
	"set-pssessionconfiguration": {"remoting-endpoint-opened", LevelHigh, CategoryPrivilege, "a remoting endpoint that runs every caller's commands as another account",
		func(args []string) bool { return psHas(args, "runascredential", 4) && sddlGrantsEveryone(args) }},
	"dismount-database":      {"mail-database-removed", LevelHigh, CategoryCloudDestroy, "an Exchange mailbox database dismounted or removed (every mailbox on it goes offline)", nil},
	"remove-mailboxdatabase": {"mail-database-removed", LevelHigh, CategoryCloudDestroy, "an Exchange mailbox database dismounted or removed (every mailbox on it goes offline)", nil},
	"add-adpermission": {"mail-open-relay", LevelHigh, CategoryPermission, "anonymous senders allowed to relay through a mail server",
		func(args []string) bool {
			j := strings.Join(args, " ")
			return strings.Contains(j, "anonymous logon") && strings.Contains(j, "accept-any-recipient")
		}},

	// Entra ID and AD FS: directory sync stopped, a relying party
	// opened to everyone, the Global Administrator's or Privileged Role
	// Administrator's role assigned, the whole internet named trusted, an
	// anonymous link to a file
	"set-adsyncscheduler": {"directory-sync-stopped", LevelHigh, CategorySystem, "directory synchronisation switched off (leavers stay enabled in the cloud)",
		func(args []string) bool {
			v, ok := psFlag(args, "synccycleenabled", 5)
			v = strings.Trim(v, `"'`)
			return ok && (v == "$false" || v == "false" || v == "0")
		}},
	"set-adfsrelyingpartytrust": {"sso-policy-opened", LevelHigh, CategoryPermission, "a single sign-on application's access policy opened to everyone, or an IP range of every address trusted",
		func(args []string) bool {
			v, _ := psFlag(args, "accesscontrolpolicyname", 6)
			return strings.Trim(v, `"'`) == "permit everyone"
		}},
	"new-mgidentityconditionalaccessnamedlocation": {"sso-policy-opened", LevelHigh, CategoryPermission, "a single sign-on application's access policy opened to everyone, or an IP range of every address trusted",
		func(args []string) bool {
			j := strings.ReplaceAll(strings.Join(args, " "), " ", "")
			return (strings.Contains(j, "istrusted=$true") || strings.Contains(j, "istrusted=true")) && strings.Contains(j, "0.0.0.0/0")
		}},
	"new-mgrolemanagementdirectoryroleassignmentschedulerequest": {"directory-admin-role", LevelHigh, CategoryPrivilege, "a directory role assigned",
		func(args []string) bool { return directoryAdminRoleID(args) }},
	"new-mgdriveitemlink": {"anonymous-link-created", LevelHigh, CategoryPermission, "a link that lets anyone who has it open the file",
		func(args []string) bool {
			v, _ := psFlag(args, "scope", 3)
			return strings.Trim(v, `"'`) == "anonymous"
		}},

	// Group Policy values that switch protections off for every machine
	// the policy reaches: automatic updates, fresh credentials delegated
	// to any host
	"set-gpregistryvalue": {"gpo-protection-off", LevelHigh, CategorySystem, "a Group Policy value that switches updates off or delegates credentials to any host",
		func(args []string) bool {
			j := strings.Join(args, " ")
			vn, _ := psFlag(args, "valuename", 6)
			v, _ := psFlag(args, "value", 5)
			vn, v = strings.Trim(vn, `"'`), strings.Trim(v, `"'`)
			return strings.Contains(j, `windowsupdate\au`) && vn == "noautoupdate" && v == "1" ||
				strings.Contains(j, `credentialsdelegation\allowfreshcredentials`) && (strings.Contains(v, "/*") || strings.HasSuffix(v, "*"))
		}},

	// Windows servers' own tools
	"openfiles": {"open-files-disconnected", LevelHigh, CategorySystem, "every file open on a file server closed under its users (their unsaved work is lost)",
		func(args []string) bool { return hasSw(args, "disconnect") && slices.Contains(args, "*") }},
	"appcmd": {"iis-backup-deleted", LevelHigh, CategoryFileDelete, "an IIS configuration backup deleted (the restore point of applicationHost.config)",
		func(args []string) bool { return len(args) > 1 && args[0] == "delete" && args[1] == "backup" }},
	"foreach-object": {"iis-pool-password-shown", LevelHigh, CategoryExfiltration, "an IIS application pool's account password printed", iisPoolPassword},
	"select-object":  {"iis-pool-password-shown", LevelHigh, CategoryExfiltration, "an IIS application pool's account password printed", iisPoolPassword},
	"format-list":    {"iis-pool-password-shown", LevelHigh, CategoryExfiltration, "an IIS application pool's account password printed", iisPoolPassword},
	"format-table":   {"iis-pool-password-shown", LevelHigh, CategoryExfiltration, "an IIS application pool's account password printed", iisPoolPassword},
	// Dynamics 365 Finance and Operations (d365fo.tools): the database
	// dropped, its SQL credentials printed
	"remove-d365database":    {"erp-database-dropped", LevelCritical, CategoryDatabaseDestroy, "an ERP's database dropped", nil},
	"get-d365databaseaccess": {"erp-credentials-shown", LevelHigh, CategoryExfiltration, "an ERP's database credentials printed", nil},
	"reg": {"remote-registry-deleted", LevelHigh, CategorySystem, "a registry tree of another machine deleted",
		func(args []string) bool {
			return len(args) > 1 && args[0] == "delete" && strings.HasPrefix(strings.Trim(args[1], `"`), `\\`) && strings.Contains(args[1], `\hklm\`)
		}},
	"netsh": {"dhcp-scope-disrupted", LevelHigh, CategorySystem, "a DHCP server's scope deactivated or deleted (its clients get no address)",
		func(args []string) bool {
			j := strings.Join(args, " ")
			return strings.Contains(j, "dhcp server") && (strings.Contains(j, " delete scope ") || strings.Contains(j, " set state 0"))
		}},
	"dnscmd": {"dns-zone-delete", LevelHigh, CategoryCloudDestroy, "a DNS zone or its records deleted from the server",
		func(args []string) bool { return hasSw(args, "zonedelete", "recorddelete", "nodedelete") }},
}

func init() {
	byID := make(map[string]*rule)
	var rs []*rule
	// in name order, so that the rules and their names come out the same
	// on every start
	for _, name := range slices.Sorted(maps.Keys(cmdletRisks)) {
		r := cmdletRisks[name]
		rl := byID[r.id]
		if rl != nil && (rl.Level != r.level || rl.Category != r.category) {
			panic("guard: cmdlet rule " + r.id + " given two levels or categories")
		}
		if rl == nil {
			rl = &rule{ID: r.id + "-cmdlet", Level: r.level, Category: r.category, Description: r.what,
				Suggestions: []string{"Ask the user to run it", "Check the target and the parameters with -WhatIf first"}}
			rl.match = func(a *analysis, c *cmd) (bool, string) {
				e, ok := cmdletRisks[c.name]
				if !ok || e.id != r.id {
					return false, ""
				}
				args := wargs(c)
				if psHas(args, "whatif", 2) {
					return false, ""
				}
				if e.when == nil || e.when(args) {
					return true, c.base + ": " + e.what
				}
				return false, ""
			}
			byID[r.id] = rl
			rs = append(rs, rl)
		}
		rl.names = append(rl.names, name)
	}
	ruleSets = append(ruleSets, rs)
}

// psHas reports a switch or parameter given by a prefix of name at
// least minLen letters long (-Force, -Purge, -ReplaceDatabase).
func psHas(args []string, name string, minLen int) bool {
	_, ok := psFlag(args, name, minLen)
	return ok
}

// sqlTargetRemote reports a SQL Server named by the parameter that is not
// the developer's own (localhost, ".", (localdb)); a cmdlet with no
// server named works on the local default one.
func sqlTargetRemote(args []string, param string) bool {
	v, ok := psFlag(args, param, 4)
	if !ok {
		return false
	}
	h, _, _ := strings.Cut(strings.Trim(v, `"'`), `\`)
	h, _, _ = strings.Cut(h, ",")
	return h != "" && h != "." && !loopback(h) && h != "(localdb)" && h != "(local)"
}

// sqlFirewallOpen reports a server firewall rule that lets every Azure
// address or every address at all in.
func sqlFirewallOpen(args []string) bool {
	if psHas(args, "allowallazureips", 6) {
		return true
	}
	s, _ := psFlag(args, "startipaddress", 6)
	e, _ := psFlag(args, "endipaddress", 4)
	return strings.Trim(s, `"'`) == "0.0.0.0" && strings.Trim(e, `"'`) == "255.255.255.255"
}

// backupToAddress reports a backup cmdlet's folder or file on a UNC share
// of a bare public address.
func backupToAddress(args []string) bool {
	for _, f := range [...]string{"path", "backupdirectory", "filepath", "backupfile"} {
		if v, ok := psFlag(args, f, 4); ok {
			if host, _ := uncHost(strings.Trim(v, `"'`)); isPublicIP(host) {
				return true
			}
		}
	}
	return false
}

// sddlGrantsEveryone reports a -SecurityDescriptorSddl that allows
// authenticated users, everyone or the built-in users (AU, WD, BU).
func sddlGrantsEveryone(args []string) bool {
	v, _ := psFlag(args, "securitydescriptorsddl", 3)
	v = strings.ToLower(v)
	return strings.Contains(v, ";;;au)") || strings.Contains(v, ";;;wd)") || strings.Contains(v, ";;;bu)")
}

// directoryAdminRoleID reports the role template of Entra ID's Global
// Administrator or Privileged Role Administrator among the arguments.
func directoryAdminRoleID(args []string) bool {
	j := strings.Join(args, " ")
	return strings.Contains(j, "62e90394-69f5-4237-9190-012177145e10") || strings.Contains(j, "e8611ab8-c189-46e8-94e1-60213ab1f814")
}

// iisPoolPassword reports arguments that print an application pool's
// identity password ($_.processModel.password, processModel.password).
func iisPoolPassword(args []string) bool {
	return strings.Contains(strings.Join(args, " "), "processmodel.password")
}
