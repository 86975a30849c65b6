package guard

import "strings"

// Phones, tablets and development boards reached over USB (adb,
// fastboot, Apple's configurator and restore tools, ESP and STM32
// flashers), app stores' release tracks, signing identities, and the
// version-control servers game studios use (Perforce, TFVC). Each judged
// by what the tool's verb does to the device, the store or the server.
var deviceRules = []*rule{
	{ID: "label-printer-reset", Level: LevelHigh, Category: CategorySystem, Description: "sending a label printer a reset to factory or network defaults over its raw port (ZPL ^JUF, ^JUN, ~JR): its calibration, network settings and stored formats gone",
		Suggestions: []string{"Reset one printer from its own menu, with its owner", "Send test labels only (^XA ... ^XZ without ^JU)"},
		names:       names("nc", "ncat", "netcat", "socat"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if c.in.kind != flowText || !strings.Contains(c.argsText(), "9100") {
				return false, ""
			}
			if zplReset(c.in.text) {
				return true, "a ZPL reset sent to a printer"
			}
			return false, ""
		}},
	{ID: "board-flash-erased", Level: LevelModerate, Category: CategoryDiskWipe, Description: "erasing a development board's whole flash (its firmware, keys and stored data)",
		Suggestions: []string{"Read the flash out first (esptool read_flash)", "Write only the application's region"},
		names:       names("esptool.py", "esptool", "dfu-util", "stm32_programmer_cli", "STM32_Programmer_CLI", "nrfjprog", "st-flash", "openocd"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			low := c.lowerArgs()
			stm32 := strings.EqualFold(c.name, "stm32_programmer_cli")
			switch c.name {
			case "openocd":
				if j := strings.Join(low, " "); strings.Contains(j, "mass_erase") {
					return true, "openocd mass_erase"
				}
				return false, ""
			}
			for i, l := range low {
				switch {
				case l == "erase_flash" || l == "erase-flash" || l == "--eraseall" || l == "--recover" && c.name == "nrfjprog" || l == "erase" && c.name == "st-flash":
					return true, c.name + " " + args[i].s
				case strings.Contains(l, "mass-erase"):
					return true, c.name + " " + args[i].s
				case (l == "-e" || l == "--erase") && stm32 && i+1 < len(low) && low[i+1] == "all":
					return true, c.name + " -e all"
				}
			}
			return false, ""
		}},
	{ID: "device-fuses-burned", Level: LevelCritical, Category: CategoryDiskWipe, Description: "burning a chip's one-time fuses or locking it for good (it cannot be undone and may brick the board)",
		Suggestions: []string{"Read the fuses first (espefuse summary) and burn on a test board", "Let the hardware team burn production fuses"},
		names:       names("espefuse.py", "espefuse", "stm32_programmer_cli", "STM32_Programmer_CLI", "nrfjprog", "openocd", "avrdude", "avrdude.exe", "mmc"),
		match: func(a *analysis, c *cmd) (bool, string) {
			low := c.lowerArgs()
			if hasAnyWord(low, "--virt", "--help", "-h") {
				return false, ""
			}
			switch c.name {
			case "openocd":
				// stm32l4x option_write 0 0x20 0xCC ...: read-out
				// protection level 2, never lifted
				if j := strings.Join(low, " "); strings.Contains(j, "option_write") && strings.Contains(j, "0xcc") {
					return true, "read-out protection level 2 (openocd option_write)"
				}
				return false, ""
			case "avrdude", "avrdude.exe":
				// -U lock:w:... / -U hfuse:w:...: lock bits or fuses
				// written (wrong fuses leave the chip unprogrammable)
				for i, l := range low {
					v := strings.TrimPrefix(l, "-u")
					if l == "-u" && i+1 < len(low) {
						v = low[i+1]
					} else if v == l {
						continue
					}
					for _, m := range [...]string{"lock:w", "lfuse:w", "hfuse:w", "efuse:w", "fuse:w"} {
						if strings.HasPrefix(v, m) {
							return true, "avrdude -U " + v
						}
					}
				}
				return false, ""
			case "mmc":
				// mmc writeprotect user set permanent, mmc writeprotect
				// boot set: the eMMC (or its boot area) never writable again
				j := strings.Join(plainWords(low), " ")
				if strings.HasPrefix(j, "writeprotect") && (strings.Contains(j, "permanent") || strings.HasPrefix(j, "writeprotect boot set")) {
					return true, "the eMMC write-protected for good"
				}
				return false, ""
			case "nrfjprog":
				// UICR's APPROTECT word written: the debug port locked
				if v, ok := optValue(c.args(), "", "memwr"); ok && strings.EqualFold(v, "0x10001208") {
					return true, "the nRF's access port protection enabled"
				}
			}
			for i, l := range low {
				switch {
				case strings.HasPrefix(l, "burn_") || strings.HasPrefix(l, "burn-"):
					return true, c.name + " " + l
				case strings.EqualFold(c.name, "stm32_programmer_cli") && (l == "-ob" || l == "--optionbytes") && i+1 < len(low) && strings.Contains(low[i+1], "rdp=0xcc"):
					return true, "read-out protection level 2"
				case c.name == "nrfjprog" && l == "--rbp" && i+1 < len(low) && low[i+1] == "all":
					return true, "nrfjprog --rbp ALL"
				}
			}
			return false, ""
		}},
	{ID: "device-verification-off", Level: LevelHigh, Category: CategorySystem, Description: "switching off a device's verified boot, SELinux or install verification",
		Suggestions: []string{"Use an emulator or a userdebug build for tests that need it", "Keep verification on for devices that hold real data"},
		names:       names("fastboot", "adb"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if deviceIsEmulator(args) {
				return false, ""
			}
			j := lower(joinWords(args))
			switch {
			case c.name == "fastboot" && (hasWord(args, "--disable-verity") || hasWord(args, "--disable-verification")):
				return true, "fastboot --disable-verity"
			case c.name == "adb" && (hasWord(args, "disable-verity") || strings.Contains(j, "setenforce 0")):
				return true, "adb " + truncate(j, 60)
			case c.name == "adb" && strings.Contains(j, "settings put") && hasAny(j, "verifier_verify_adb_installs 0", "package_verifier_enable 0", "install_non_market_apps 1"):
				return true, "adb " + truncate(j, 60)
			case c.name == "adb" && strings.Contains(j, "pm grant ") && hasAny(j, "write_secure_settings", "read_logs", "android.permission.dump", "package_usage_stats", "system_alert_window"):
				// a system permission handed to an app on a real phone
				return true, "adb " + truncate(j, 60)
			case c.name == "adb" && (hasWord(args, "-a") && hasAnyWord(strings.Fields(j), "server", "nodaemon")):
				// adb -a: the server, and every device on it, reachable from
				// any host of the network
				return true, "adb -a (the adb server on every interface)"
			}
			return false, ""
		}},
	{ID: "device-app-data-cleared", Level: LevelHigh, Category: CategoryFileDelete, Description: "clearing an installed app's data on a real device (an authenticator's seeds, a messenger's history, a wallet)",
		Suggestions: []string{"Clear the debug build's data, or use an emulator", "Back the app up first"},
		names:       names("adb"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if deviceIsEmulator(args) {
				return false, ""
			}
			low := c.lowerArgs()
			for i, l := range low {
				if l == "clear" && i > 0 && low[i-1] == "pm" && i+1 < len(low) {
					p := low[i+1]
					if hasAny(p, ".debug", ".dev", "test", "sample", "example") {
						return false, "" // the project's own debug build
					}
					return true, "pm clear " + p
				}
			}
			return false, ""
		}},
	{ID: "device-app-data-read", Level: LevelHigh, Category: CategoryExfiltration, Description: "reading an app's private data off a device (its tokens, preferences and databases)",
		Suggestions: []string{"Read a debug build's data on an emulator", "Log what you need from the app instead"},
		names:       names("adb"),
		match: func(a *analysis, c *cmd) (bool, string) {
			if deviceIsEmulator(c.args()) || strings.Contains(a.srcLow(), ".debug") {
				return false, ""
			}
			if p := appPrivateRead(c); p != "" {
				return true, p
			}
			return false, ""
		}},
	{ID: "store-production-release", Level: LevelHigh, Category: CategorySystem, Description: "releasing an app to every user of a store's production track or an update channel by hand, or removing what its releases depend on (their rollback history, the signing fingerprint, the testers)",
		Suggestions: []string{"Release to an internal or beta track, or a small staged rollout", "Let the release process promote to production"},
		names:       names("fastlane", "bundle", "./gradlew", "gradlew", "gradle", "eas", "appcenter", "expo", "shopify", "firebase"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args, low := c.args(), c.lowerArgs()
			j := strings.Join(low, " ")
			switch c.name {
			case "shopify":
				// shopify theme push --live, theme publish on the live store:
				// every shopper sees it at once
				sub := clientSubWords(c).list()
				if len(sub) > 1 && sub[0] == "theme" && (sub[1] == "push" && hasAnyWord(low, "--live", "--allow-live", "-l") || sub[1] == "publish" && productionTarget(args, low)) {
					return true, "shopify theme " + sub[1] + " to the live store"
				}
				return false, ""
			case "fastlane", "bundle":
				// fastlane deliver --submit_for_review --automatic_release:
				// in the users' hands as soon as Apple approves it
				if (hasWord(args, "deliver") || hasWord(args, "upload_to_app_store")) && hasAnyWord(low, "--submit_for_review", "submit_for_review:true") &&
					(hasAnyWord(low, "--automatic_release", "automatic_release:true") || hasWord(args, "--force")) {
					return true, "submitted for review with automatic release"
				}
			case "firebase":
				if len(args) > 0 && strings.HasPrefix(low[0], "apps:android:sha:delete") {
					return true, "the app's signing fingerprint removed (its sign-in breaks)"
				}
				if len(args) > 0 && low[0] == "appdistribution:testers:remove" && optGiven(low, "--file") {
					return true, "App Distribution's testers removed in bulk"
				}
				return false, ""
			case "appcenter":
				// appcenter codepush deployment clear Production: no
				// release left to roll back to
				ops := posArgs(args, optSpec{short: "a", long: []string{"app", "token", "env", "output"}})
				if len(ops) > 3 && ops[0].s == "codepush" && ops[1].s == "deployment" && (ops[2].s == "clear" || ops[2].s == "rm" || ops[2].s == "remove") && strings.EqualFold(ops[len(ops)-1].s, "production") {
					return true, "codepush deployment " + ops[2].s + " Production"
				}
			}
			if !strings.Contains(j, "production") && !strings.Contains(j, "--track prod") {
				return false, ""
			}
			switch c.name {
			case "fastlane", "bundle":
				// fastlane supply --track production, --track_promote_to production
				if v, ok := optValue(args, "", "track_promote_to", "track-promote-to"); ok && strings.EqualFold(v, "production") {
					return true, "promoted to production"
				}
				if v, ok := optValue(args, "", "track"); ok && strings.EqualFold(v, "production") && (hasWord(args, "supply") || hasWord(args, "upload_to_play_store")) && !hasAnyWord(low, "--validate_only", "validate_only:true") {
					if r, ok := optValue(args, "", "rollout"); ok && r != "1" && r != "1.0" {
						return false, "" // a staged rollout to a share of users
					}
					return true, "fastlane supply --track production"
				}
			case "./gradlew", "gradlew", "gradle":
				// gradle-play-publisher: publish* --track production,
				// promote* --promote-track production
				if v, ok := optValue(args, "", "track", "promote-track"); ok && strings.EqualFold(v, "production") {
					return true, "published to the production track"
				}
			case "eas", "expo":
				// eas update --branch production (or --channel), eas
				// channel:edit production
				if v, ok := optValue(args, "", "branch", "channel"); ok && strings.EqualFold(v, "production") && hasWord(args, "update") {
					return true, "eas update to production"
				}
				if hasWord(args, "channel:edit") && hasAnyWord(low, "production") {
					return true, "eas channel:edit production"
				}
			case "appcenter":
				// appcenter codepush promote -d Production, release-react
				// -d Production
				if v, ok := optValue(args, "-d", "destination-deployment-name", "deployment-name"); ok && strings.EqualFold(v, "production") && (hasWord(args, "promote") || hasPrefixWord(args, "release")) {
					return true, "codepush to Production"
				}
			}
			return false, ""
		}},
	{ID: "signing-identities-revoked", Level: LevelCritical, Category: CategoryCloudDestroy, Description: "revoking every signing certificate and deleting the provisioning profiles of an app team (fastlane match nuke), or deleting a personal signing certificate with its key",
		Suggestions: []string{"Revoke the one expired certificate in the developer portal", "Export the certificate with its key before removing it"},
		names:       names("fastlane", "bundle", "certutil"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if c.name == "certutil" {
				// certutil -user -delstore My THUMBPRINT: the user's
				// certificate and its private key
				w := wargs(c)
				for i, s := range w {
					if (s == "-delstore" || s == "/delstore") && i+2 < len(w) && w[i+1] == "my" {
						// a development certificate (localhost, a test
						// name) is made again with one command
						if cert := w[i+2]; !isLocalHost(cert) && !strings.Contains(cert, "localhost") && !scratchName(cert) {
							return true, "certutil -delstore My " + cert
						}
					}
				}
				return false, ""
			}
			for i, w := range args {
				if w.s == "match" && i+1 < len(args) && args[i+1].s == "nuke" {
					return true, "fastlane match nuke"
				}
			}
			return false, ""
		}},
	{ID: "vcs-server-destroy", Level: LevelCritical, Category: CategoryGitDestroy, Description: "destroying a centralised repository's history (p4 obliterate, tf vc destroy)",
		Suggestions: []string{"Delete the files in a new changeset; history keeps them", "Let the server's administrators obliterate"},
		names:       names("p4", "tf", "tf.exe"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			sub := clientSubWords(c).list()
			switch c.name {
			case "p4":
				// (p4 -c CLIENT obliterate: the client's name comes first)
				return containsStr(sub, "obliterate") && hasWord(args, "-y"), "p4 obliterate -y"
			default:
				return len(sub) > 1 && sub[0] == "vc" && sub[1] == "destroy" && !hasSw(wargs(c), "preview"), "tf vc destroy"
			}
		}},
	{ID: "vcs-server-admin", Level: LevelHigh, Category: CategorySystem, Description: "stopping a shared version-control server, deleting its users or breaking others' file locks",
		Suggestions: []string{"Ask the lock's owner to release it", "Let the server's administrators do it"},
		names:       names("p4", "git"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			if c.name == "git" {
				// git lfs unlock --force: someone else's lock taken away
				return len(args) > 2 && args[0].s == "lfs" && args[1].s == "unlock" && (hasWord(args, "--force") || hasWord(args, "-f")), "git lfs unlock --force"
			}
			sub := clientSubWords(c).list()
			switch {
			case len(sub) > 1 && sub[0] == "admin" && sub[1] == "stop":
				return true, "p4 admin stop"
			case len(sub) > 0 && sub[0] == "user" && hasWord(args, "-d") && hasWord(args, "-f"):
				return true, "p4 user -d -f"
			case len(sub) > 0 && sub[0] == "unlock" && (hasWord(args, "-f") || hasWord(args, "-x")):
				return true, "p4 unlock -f"
			case len(sub) > 0 && (sub[0] == "triggers" || sub[0] == "protect" || sub[0] == "typemap") && hasWord(args, "-i"):
				// the server's triggers, protections or type map replaced
				// from the input
				return true, "p4 " + sub[0] + " -i"
			case len(sub) > 0 && sub[0] == "delete" && p4WholeTree(c.operands()) && strings.Contains(a.srcLow(), "p4 submit"):
				return true, "p4 delete of a whole tree, submitted"
			}
			return false, ""
		}},
	{ID: "vcs-workspace-discarded", Level: LevelModerate, Category: CategoryGitDestroy, Description: "discarding a Perforce or TFVC workspace's local changes (p4 clean, a forced get over them)",
		Suggestions: []string{"Shelve the changes first (p4 shelve)", "Preview with p4 clean -n"},
		names:       names("p4", "tf", "tf.exe"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args := c.args()
			sub := clientSubWords(c).list()
			if c.name == "p4" {
				if len(sub) == 0 || hasWord(args, "-n") {
					return false, ""
				}
				var paths []string // the files named after the subcommand
				for _, w := range c.operands() {
					if strings.ContainsAny(w.s, "/.") { // //depot/x/..., ..., a/b.cpp
						paths = append(paths, w.s)
					}
				}
				switch sub[0] {
				case "clean":
					return true, "p4 clean"
				case "revert":
					// p4 revert //depot/x/...: every opened file's edits
					// (-k keeps the local files, -a only unchanged ones)
					if !hasWord(args, "-k") && !hasWord(args, "-a") && p4ManyFiles(paths) {
						return true, "p4 revert " + strings.Join(paths, " ")
					}
				case "resolve":
					// -at: theirs taken over every local edit
					if (hasWord(args, "-at") || hasWord(args, "-af")) && p4ManyFiles(paths) {
						return true, "p4 resolve " + joinWords(args[1:])
					}
				}
				return false, ""
			}
			w := wargs(c)
			switch {
			case len(sub) > 0 && sub[0] == "get" && hasSw(w, "overwrite") && hasSw(w, "force"):
				return true, "tf get /overwrite /force"
			case len(sub) > 0 && sub[0] == "workspace" && hasSw(w, "delete"):
				return true, "tf workspace /delete"
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, deviceRules) }

// p4ManyFiles reports depot or workspace paths that take a whole tree
// (//depot/main/..., //..., ...), or none (every opened file).
func p4ManyFiles(paths []string) bool {
	if len(paths) == 0 {
		return true
	}
	for _, p := range paths {
		if strings.HasSuffix(p, "...") {
			return true
		}
	}
	return false
}

// p4WholeTree reports a depot path naming a whole tree (//depot/main/...).
func p4WholeTree(ops []word) bool {
	for _, w := range ops {
		if strings.HasPrefix(w.s, "//") && strings.HasSuffix(w.s, "/...") {
			return true
		}
	}
	return false
}

// deviceIsEmulator reports an adb or fastboot command aimed at an
// emulator (-s emulator-5554, -e).
func deviceIsEmulator(args []word) bool {
	if hasWord(args, "-e") {
		return true
	}
	s, _ := optValue(args, "-s", "")
	return strings.HasPrefix(s, "emulator-") || strings.HasPrefix(s, "localhost:") || strings.HasPrefix(s, "127.0.0.1:")
}

// appPrivateRead returns what an adb command reads from an app's private
// storage (run-as PKG cat shared_prefs/..., databases/...), or "".
func appPrivateRead(c *cmd) string {
	j := c.argsText()
	i := strings.Index(j, "run-as ")
	if i < 0 {
		return ""
	}
	rest := lower(j[i:])
	if !hasAny(rest, " cat ", " cp ", " tar ", " base64 ") || !hasAny(rest, "shared_prefs", "databases/", "files/", ".db", "auth", "token") {
		return ""
	}
	return truncate(j[i:], 80)
}

// zplReset reports ZPL that resets a printer to factory or network
// defaults (^JUF, ^JUN) or power-cycles it (~JR).
func zplReset(t string) bool {
	u := strings.ToUpper(t)
	return strings.Contains(u, "^JUF") || strings.Contains(u, "^JUN") || strings.Contains(u, "~JR")
}
