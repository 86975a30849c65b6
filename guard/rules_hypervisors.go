package guard

import (
	"strings"
)

// Hypervisors' own command lines (deletions are vm-destroy's, in
// rules_container_destroy.go, through guestDestroyed): Proxmox (qm, pct, pvesh, pvesm, pveum,
// qmrestore), libvirt (virsh), VirtualBox (VBoxManage), LXD and Incus
// (lxc, incus), ESXi (esxcli, vim-cmd, vmkfstools), vSphere (govc,
// PowerCLI's cmdlets) and Vagrant. A guest deleted with its disks, a
// restore over a running guest, a console opened to the network, a
// host's firewall or its second factor switched off: each is one short
// command that nothing in its words marks as dangerous to a generic
// rule. Listing, snapshots taken, restores to a new guest, clones and
// consoles on this machine pass; scratch guests (named for tests or CI)
// are left to the test-scoped exemption.
var hypervisorRules = []*rule{
	{ID: "vm-image-deleted", Level: LevelCritical, Category: CategorySystem, Description: "deleting a golden template, a published box or a virtual disk's file (every guest built from it, or its data, is lost)",
		Suggestions: []string{"Export or copy the template first; retire it by renaming or moving it", "Delete only images made for this task"},
		names:       names("govc", "vagrant", "remove-template", "remove-contentlibraryitem"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if what := imageDeleted(c); what != "" {
				return true, what
			}
			return false, ""
		}},
	{ID: "vm-rolled-back", Level: LevelHigh, Category: CategorySystem, Description: "reverting a running guest to an old snapshot (everything written since is lost)",
		Suggestions: []string{"Take a snapshot of the current state first", "Clone the snapshot into a new guest and look at it there"},
		names:       names("qm", "pct", "virsh", "VBoxManage", "vboxmanage", "lxc", "incus", "govc", "restore-vmsnapshot", "set-vm"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			for _, w := range c.args() {
				if !strings.HasPrefix(w.s, "-") && (testName(w.s) || scratchName(w.s) || devNamed(w.s)) {
					return false, "" // a test machine's or the developer's own box, put back as it was
				}
			}
			switch c.name {
			case "qm", "pct":
				if len(ops) > 0 && ops[0].s == "rollback" {
					return true, c.name + " rollback"
				}
			case "virsh":
				if len(ops) > 0 && ops[0].s == "snapshot-revert" {
					return true, "virsh snapshot-revert"
				}
			case "VBoxManage", "vboxmanage":
				if len(ops) > 2 && lower(ops[0].s) == "snapshot" && (lower(ops[2].s) == "restore" || lower(ops[2].s) == "restorecurrent") {
					return true, "VBoxManage snapshot " + ops[2].s
				}
			case "lxc", "incus":
				if len(ops) > 1 && ops[0].s == "restore" {
					return true, c.name + " restore " + ops[1].s
				}
			case "govc":
				if len(ops) > 0 && ops[0].s == "snapshot.revert" {
					return true, "govc snapshot.revert"
				}
			case "restore-vmsnapshot":
				return !psWhatIf(c.name, c.args()), "Restore-VMSnapshot"
			case "set-vm":
				// PowerCLI's Set-VM -Snapshot reverts the VM to it
				if _, ok := psFlag(c.lowerArgs(), "snapshot", 6); ok && !psWhatIf(c.name, c.args()) {
					return true, "Set-VM -Snapshot"
				}
			}
			return false, ""
		}},
	{ID: "vm-console-exposed", Level: LevelHigh, Category: CategoryPermission, Description: "a guest's console or a hypervisor's API opened to every address, or without a password",
		Suggestions: []string{"Reach consoles through the hypervisor's own authenticated web console or an SSH tunnel", "Bind to 127.0.0.1 and keep authentication on"},
		names:       names("qm", "VBoxManage", "vboxmanage", "govc", "lxc", "incus", "vagrant"),
		match: func(a *analysis, c *cmd) (bool, string) {
			low := c.lowerArgs()
			ops := c.operands()
			switch c.name {
			case "qm":
				if v, ok := optValue(c.args(), "", "args"); ok && len(ops) > 0 && ops[0].s == "set" && strings.Contains(v, "-vnc") && (strings.Contains(v, "0.0.0.0") || strings.Contains(v, "[::]")) {
					return true, "a VNC console on every address (" + v + ")"
				}
			case "VBoxManage", "vboxmanage":
				if optGiven(low, "--vrde") {
					if v, ok := optValue(c.args(), "", "vrdeauthtype"); ok && lower(v) == "null" {
						return true, "a remote desktop console without authentication"
					}
					if v, ok := optValue(c.args(), "", "vrdeaddress"); ok && everyAddress(v) {
						return true, "a remote desktop console on every address"
					}
				}
			case "govc":
				for _, l := range low {
					if strings.Contains(l, "remotedisplay.vnc.enabled=true") {
						return true, "a VNC console served by the host"
					}
				}
			case "lxc", "incus":
				// lxc config set core.https_address 0.0.0.0:8443
				for i, l := range low {
					if (l == "core.https_address" && i+1 < len(low) && everyAddress(hostOf(low[i+1]))) || strings.HasPrefix(l, "core.https_address=") && everyAddress(hostOf(strings.TrimPrefix(l, "core.https_address="))) {
						return true, c.name + "'s API on every address"
					}
				}
			case "vagrant":
				if len(ops) > 0 && ops[0].s == "share" {
					return true, "vagrant share (the guest published on the internet)"
				}
			}
			return false, ""
		}},
	{ID: "hypervisor-security-off", Level: LevelCritical, Category: CategorySystem, Description: "switching off a hypervisor's firewall, code-signing enforcement, certificate checks or an account's second factor",
		Suggestions: []string{"Open the one port a task needs, for the addresses that need it", "Keep the host's protections on; install signed packages only"},
		names:       names("pvesh", "pveum", "esxcli", "govc", "lxc", "incus", "set-powercliconfiguration", "set-vmhostfirewalldefaultpolicy"),
		match: func(a *analysis, c *cmd) (bool, string) {
			low := c.lowerArgs()
			ops := c.operands()
			switch c.name {
			case "pvesh":
				// pvesh set /cluster/firewall/options --enable 0
				if len(ops) > 1 && (ops[0].s == "set" || ops[0].s == "create") && strings.Contains(ops[1].s, "/firewall/options") {
					if v, ok := optValue(c.args(), "", "enable"); ok && v == "0" {
						return true, "the Proxmox firewall switched off (" + ops[1].s + ")"
					}
					if v, ok := optValue(c.args(), "", "policy_in"); ok && strings.EqualFold(v, "ACCEPT") {
						return true, "every inbound connection accepted (" + ops[1].s + ")"
					}
				}
			case "pveum":
				// pveum user tfa delete root@pam
				if len(ops) > 2 && ops[0].s == "user" && ops[1].s == "tfa" && ops[2].s == "delete" {
					return true, "an account's second factor removed"
				}
			case "esxcli", "govc":
				if what := esxcliWeakens(low); what != "" {
					return true, what
				}
			case "lxc", "incus":
				for _, l := range low {
					if strings.HasSuffix(l, ".firewall=false") {
						return true, "a network's firewall rules switched off (" + l + ")"
					}
				}
			case "set-powercliconfiguration":
				if v, ok := psFlag(c.lowerArgs(), "invalidcertificateaction", 6); ok && strings.EqualFold(v, "ignore") {
					return true, "PowerCLI's certificate checks switched off"
				}
			case "set-vmhostfirewalldefaultpolicy":
				if v, ok := psFlag(c.lowerArgs(), "allowincoming", 6); ok && strings.EqualFold(strings.TrimPrefix(v, "$"), "true") {
					return true, "every inbound connection accepted by the ESXi hosts"
				}
			}
			return false, ""
		}},
	{ID: "hypervisor-admin-granted", Level: LevelHigh, Category: CategoryPrivilege, Description: "giving an account administrator rights over a whole hypervisor cluster (Proxmox's datacenter, vCenter's root)",
		Suggestions: []string{"Grant the narrowest role on the one pool or folder the task needs", "Let the cluster's administrators grant administration"},
		names:       names("pveum", "govc"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			ops := c.operands()
			switch c.name {
			case "pveum":
				// pveum acl modify / --roles Administrator
				if len(ops) > 2 && ops[0].s == "acl" && ops[1].s == "modify" && ops[2].s == "/" {
					if v, ok := optValue(args, "", "roles"); ok && hasAny(lower(v), "administrator", "pveadmin") {
						return true, "pveum acl modify / --roles " + v
					}
				}
			case "govc":
				// govc permissions.set -principal X -role Admin /
				if len(ops) > 0 && ops[0].s == "permissions.set" {
					if v, ok := optValue(args, "-role", ""); ok && strings.EqualFold(v, "admin") && (ops[len(ops)-1].s == "/" || optGiven(c.lowerArgs(), "-propagate=true")) {
						return true, "govc permissions.set -role Admin"
					}
					for _, w := range args {
						if r, ok := strings.CutPrefix(w.s, "-role="); ok && strings.EqualFold(r, "admin") {
							return true, "govc permissions.set -role=Admin"
						}
					}
				}
			}
			return false, ""
		}},
	{ID: "guest-password-set", Level: LevelHigh, Category: CategoryPrivilege, Description: "setting a guest's or a hypervisor's account password from the command line (it lands in the history and the transcript)",
		Suggestions: []string{"Set passwords interactively or from a secret store", "Use keys and the hypervisor's own access control"},
		names:       names("qm", "virsh", "esxcli"),
		match: func(a *analysis, c *cmd) (bool, string) {
			ops := c.operands()
			switch c.name {
			case "qm":
				// qm guest exec 118 -- sh -c 'echo root:x | chpasswd'
				if len(ops) > 1 && ops[0].s == "guest" && (ops[1].s == "exec" && hasAny(c.argsText(), "chpasswd", "passwd ", "net user") || ops[1].s == "passwd") {
					return true, "qm guest " + ops[1].s + " setting a password"
				}
			case "virsh":
				if len(ops) > 0 && ops[0].s == "set-user-password" {
					return true, "virsh set-user-password"
				}
			case "esxcli":
				low := c.lowerArgs()
				if hasAnyWord(low, "account") && (hasAnyWord(low, "set") || hasAnyWord(low, "add")) && (optGiven(low, "-p") || optGiven(low, "--password")) {
					return true, "an ESXi account's password set on the command line"
				}
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, hypervisorRules) }

// guestDestroyed returns what a hypervisor's command deletes with its
// data, or "".
func guestDestroyed(c *cmd) string {
	args := c.args()
	ops := c.operands()
	low := c.lowerArgs()
	if len(ops) == 0 {
		return ""
	}
	verb := lower(ops[0].s)
	switch c.name {
	case "qm", "pct":
		switch {
		case verb == "destroy" && len(ops) > 1:
			return c.name + " destroy " + ops[1].s
		case verb == "disk" && len(ops) > 1 && ops[1].s == "unlink" && forceOne(args):
			return "qm disk unlink --force (the disks deleted)"
		case verb == "restore" && forceOne(args):
			return "pct restore --force over an existing container"
		}
	case "qmrestore":
		if forceOne(args) {
			return "qmrestore --force over an existing VM"
		}
	case "pvesh":
		// pvesh delete /nodes/n/qemu/105, .../storage/s/content/VOLUME
		if verb == "delete" && len(ops) > 1 {
			p := lower(ops[1].s)
			if strings.Contains(p, "/qemu/") || strings.Contains(p, "/lxc/") || strings.Contains(p, "/content/") || strings.HasPrefix(p, "/storage/") || strings.HasPrefix(p, "/pools/") {
				return "pvesh delete " + ops[1].s
			}
		}
	case "pvesm":
		if (verb == "free" || verb == "remove") && len(ops) > 1 {
			return "pvesm " + verb + " " + ops[1].s
		}
	case "virsh":
		switch verb {
		case "vol-delete", "vol-wipe", "pool-delete":
			return "virsh " + verb
		}
	case "VBoxManage", "vboxmanage":
		switch verb {
		case "unregistervm":
			if optGiven(low, "--delete") {
				return "VBoxManage unregistervm --delete"
			}
		case "closemedium":
			if optGiven(low, "--delete") {
				return "VBoxManage closemedium --delete"
			}
		}
	case "vmkfstools":
		if hasWord(args, "-U") || optGiven(low, "--deletevirtualdisk") {
			return "vmkfstools deleting a virtual disk"
		}
	case "vim-cmd":
		if verb == "vmsvc/destroy" {
			return "vim-cmd vmsvc/destroy"
		}
	case "govc":
		// vm.destroy takes its machines as operands or from xargs;
		// datastore.rm deletes a datastore's files (disks, whole folders)
		switch verb {
		case "vm.destroy", "datastore.rm", "pool.destroy", "folder.destroy":
			if hasWord(args, "-h") {
				return "" // its usage
			}
			return "govc " + verb
		}
	}
	return ""
}

// imageDeleted returns the golden image, published box or disk file a
// vSphere or Vagrant client deletes, or "".
func imageDeleted(c *cmd) string {
	ops := c.operands()
	if len(ops) == 0 {
		return ""
	}
	switch c.name {
	case "vagrant":
		if ops[0].s == "cloud" && len(ops) > 2 && (ops[1].s == "box" || ops[1].s == "version" || ops[1].s == "provider") && ops[2].s == "delete" {
			return "vagrant cloud " + ops[1].s + " delete"
		}
	case "govc":
		switch ops[0].s {
		case "library.rm":
			return "govc library.rm"
		case "device.remove":
			if optGiven(c.lowerArgs(), "-keep=false") {
				return "govc device.remove -keep=false (the disk's file deleted)"
			}
		}
	case "remove-template":
		if _, ok := psFlag(c.lowerArgs(), "deletepermanently", 6); ok && !psWhatIf(c.name, c.args()) {
			return c.name + " -DeletePermanently"
		}
	case "remove-contentlibraryitem":
		if !psWhatIf(c.name, c.args()) {
			return "Remove-ContentLibraryItem"
		}
	}
	return ""
}

// forceOne reports Proxmox's --force 1 (or a bare --force).
func forceOne(args []word) bool {
	for i, w := range args {
		switch w.s {
		case "--force", "-force":
			return i+1 >= len(args) || args[i+1].s != "0"
		case "--force=1", "-force=1", "--force=true":
			return true
		}
	}
	return false
}

// esxcliWeakens returns how an esxcli command (or govc host.esxcli)
// weakens the host, or "".
func esxcliWeakens(low []string) string {
	j := strings.Join(low, " ")
	switch {
	case strings.Contains(j, "network firewall set") && (strings.Contains(j, "--enabled false") || strings.Contains(j, "--enabled=false") || strings.Contains(j, "-e false") || strings.Contains(j, "--default-action true")):
		return "the ESXi firewall switched off"
	case strings.Contains(j, "execinstalledonly") && (strings.Contains(j, "-v false") || strings.Contains(j, "--value false") || strings.Contains(j, "--value=false")):
		return "ESXi's execInstalledOnly protection switched off"
	case strings.Contains(j, "software acceptance set") && strings.Contains(j, "communitysupported"):
		return "unsigned (community) packages accepted by the host"
	case strings.Contains(j, "allowedip add") && (strings.Contains(j, "0.0.0.0/0") || strings.Contains(j, "::/0")):
		return "an ESXi service opened to every address"
	case strings.Contains(j, "ruleset set") && strings.Contains(j, "--allowed-all true"):
		return "an ESXi service opened to every address"
	}
	return ""
}

// optGiven reports an option among lowered words, alone or with its
// value after '=' (--force, --force=1).
func optGiven(low []string, p string) bool {
	for _, l := range low {
		if l == p || strings.HasPrefix(l, p+"=") {
			return true
		}
	}
	return false
}
