package guard

import "testing"

// Traffic sent through another proxy or gateway, and saved variables that
// change what runs, as opposed to a project's own settings.
func TestWindowsTrafficRedirectsAndSavedVariables(t *testing.T) {
	d := NewDetector(Options{})
	ps, cmdc := winCorpusContextFor("powershell"), winCorpusContextFor("cmd")
	checkDanger(t, d, ps, []dangerCase{
		{`Set-ItemProperty 'HKCU:\Software\Microsoft\Windows\CurrentVersion\Internet Settings' -Name ProxyServer -Value '203.0.113.140:8080'`, CategorySystem, "win-traffic-redirect", LevelHigh},
		{`Set-ItemProperty HKLM:\SOFTWARE\Policies\Microsoft\Windows\System -Name EnableSmartScreen -Value 0`, CategorySystem, "", LevelHigh},
		{`[Environment]::SetEnvironmentVariable('__PSLockdownPolicy', '0', 'Machine')`, CategorySystem, "win-system-env", LevelModerate},
		{`[Environment]::SetEnvironmentVariable('COR_PROFILER', '{11111111-1111-1111-1111-111111111111}', 'User')`, CategorySystem, "win-system-env", LevelModerate},
	})
	checkSafe(t, d, ps, []string{
		`Set-ItemProperty 'HKCU:\Software\Microsoft\Windows\CurrentVersion\Internet Settings' -Name ProxyServer -Value '127.0.0.1:8888'`,
		`[Environment]::SetEnvironmentVariable('ACME_HOME', 'C:\work', 'User')`,
		`Set-ItemProperty HKCU:\Environment -Name ACME_HOME -Value C:\work`,
	})
	checkDanger(t, d, cmdc, []dangerCase{
		{`route add 0.0.0.0 mask 0.0.0.0 203.0.113.156 metric 1`, CategorySystem, "win-traffic-redirect", LevelHigh},
		{`netsh winhttp set proxy 203.0.113.5:3128`, CategorySystem, "win-traffic-redirect", LevelHigh},
		{`reg add HKCU\Environment /v UserInitMprLogonScript /d C:\ProgramData\x.bat /f`, CategoryPersistence, "win-registry-autorun", LevelHigh},
		{`reg add HKCU\Environment /v Path /d C:\tmp;%PATH% /f`, CategoryPersistence, "win-registry-autorun", LevelHigh},
		{`shutdown /r /t 0`, CategorySystem, "", LevelHigh},
	})
	checkSafe(t, d, cmdc, []string{
		`route add 10.8.0.0 mask 255.255.0.0 10.0.0.1`,
		`netsh winhttp show proxy`,
		`reg add HKCU\Environment /v ACME_HOME /t REG_SZ /d C:\work\project /f`,
		`shutdown -a`,
		`shutdown /a`,
	})
}

// Shutting down or formatting through WMI, root certificates trusted,
// SMB opened to guests, and whole branches of Windows' settings deleted.
func TestWindowsProtectionsThroughOtherTools(t *testing.T) {
	d := NewDetector(Options{})
	ps, cmdc := winCorpusContextFor("powershell"), winCorpusContextFor("cmd")
	checkDanger(t, d, ps, []dangerCase{
		{`(Get-CimInstance Win32_OperatingSystem) | Invoke-CimMethod -MethodName Win32Shutdown -Arguments @{Flags=5}`, CategorySystem, "win-wmi-shutdown", LevelHigh},
		{`Import-Certificate -FilePath .\ca.cer -CertStoreLocation Cert:\LocalMachine\Root`, CategorySystem, "trust-root-certificate", LevelHigh},
		{`Set-SmbServerConfiguration -EnableInsecureGuestLogons $true -Force`, CategorySystem, "win-protection-weakened", LevelHigh},
		{`Set-SmbClientConfiguration -RequireSecuritySignature $false -Force`, CategorySystem, "win-protection-weakened", LevelHigh},
	})
	checkSafe(t, d, ps, []string{
		`Get-CimInstance Win32_Process -Filter "Name='notepad.exe'" | Invoke-CimMethod -MethodName GetOwner`,
		`Import-Certificate -FilePath .\dev.cer -CertStoreLocation Cert:\CurrentUser\My`,
		`Set-SmbClientConfiguration -RequireSecuritySignature $true -Force`,
	})
	checkDanger(t, d, cmdc, []dangerCase{
		{`certutil -addstore -f Root evil.cer`, CategorySystem, "trust-root-certificate", LevelHigh},
		{`reg delete HKLM\SOFTWARE\Microsoft\Windows\CurrentVersion\Uninstall /f`, CategorySystem, "win-registry-delete", LevelCritical},
	})
	checkSafe(t, d, cmdc, []string{
		`certutil -addstore -user My dev.cer`,
		`certutil -dump ca.cer`,
		`reg delete HKLM\SOFTWARE\Microsoft\Windows\CurrentVersion\Uninstall\AcmeDevTool /f`,
		`reg delete HKLM\SOFTWARE\Microsoft\Windows\CurrentVersion\Uninstall /v Stale /f`,
	})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`sudo security add-trusted-cert -d -r trustRoot -k /Library/Keychains/System.keychain ca.crt`, CategorySystem, "trust-root-certificate", LevelHigh},
		{`sudo trust anchor ./ca.crt`, CategorySystem, "trust-root-certificate", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`security find-certificate -a -c Acme`,
		`trust list`,
	})
}

// Certificate checks turned off, or any host trusted, for a package
// manager or git for good; the firewall disabled however it is asked.
func TestToolTLSOffAndFirewall(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`git config --global http.sslVerify false`, CategorySystem, "tool-tls-off", LevelHigh},
		{`npm config set strict-ssl false -g`, CategorySystem, "tool-tls-off", LevelHigh},
		{`pip config set global.trusted-host evil.example`, CategorySystem, "tool-tls-off", LevelHigh},
		{`pip config set global.break-system-packages true`, CategorySystem, "tool-tls-off", LevelHigh},
		{`yarn config set enableStrictSsl false`, CategorySystem, "tool-tls-off", LevelHigh},
		{`conda config --set ssl_verify false`, CategorySystem, "tool-tls-off", LevelHigh},
		{`sudo ufw --force disable`, CategorySystem, "firewall-flush", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`git config http.sslVerify true`,
		`git config --global http.sslVerify true`,
		`npm config set registry https://registry.npmjs.org/`,
		`pip config set global.timeout 60`,
		`npm config get strict-ssl`,
		`sudo ufw --force enable`,
	})
}

// AMSI switched off in the session.
func TestAmsiBypass(t *testing.T) {
	d := NewDetector(Options{})
	ps := winCorpusContextFor("powershell")
	checkDanger(t, d, ps, []dangerCase{
		{`[Ref].Assembly.GetType('System.Management.Automation.AmsiUtils').GetField('amsiInitFailed','NonPublic,Static').SetValue($null,$true)`, CategorySystem, "win-defender-disable", LevelHigh},
	})
	checkSafe(t, d, ps, []string{
		`[Ref].Assembly.GetName().Version`,
	})
}

// Every system Python package uninstalled as root.
func TestEverySystemPackageUninstalled(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`sudo pip uninstall -y -r <(pip freeze)`, CategorySystem, "pip-uninstall-everything", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`pip freeze | xargs pip uninstall -y`,
		`sudo pip uninstall -y httpie`,
	})
}

// Certificate and host-key checks turned off through Go's, kubectl's,
// composer's and ssh's settings, or a saved environment variable.
func TestMoreWaysToTurnChecksOff(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`go env -w GOINSECURE=* GOSUMDB=off`, CategorySystem, "tool-tls-off", LevelHigh},
		{`kubectl config set-cluster prod --insecure-skip-tls-verify=true`, CategorySystem, "tool-tls-off", LevelHigh},
		{`git config --global core.sshCommand "ssh -o StrictHostKeyChecking=no"`, CategorySystem, "tool-tls-off", LevelHigh},
		{`composer config -g secure-http false`, CategorySystem, "tool-tls-off", LevelHigh},
		{`echo 'export NODE_TLS_REJECT_UNAUTHORIZED=0' >> ~/.bashrc`, CategoryPersistence, "", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`go env -w GOPRIVATE=github.com/acme/*`,
		`kubectl config set-cluster dev --server=https://127.0.0.1:6443`,
		`git config --global core.sshCommand "ssh -i ~/.ssh/work_ed25519"`,
		`echo 'export NODE_ENV=development' >> ~/.bashrc`,
	})
	cmdc := winCorpusContextFor("cmd")
	checkDanger(t, d, cmdc, []dangerCase{
		{`setx NODE_TLS_REJECT_UNAUTHORIZED 0`, CategorySystem, "tool-tls-off", LevelHigh},
	})
	checkSafe(t, d, cmdc, []string{
		`setx ACME_HOME C:\work`,
	})
}

// A certificate dropped where the system's trust store is built from,
// by any file-writing tool.
func TestCertificatesDroppedIntoTrustAnchors(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`sudo install -m 644 proxy.crt /usr/local/share/ca-certificates/proxy.crt`, CategorySystem, "trust-root-certificate", LevelHigh},
		{`cat mitm.pem | sudo tee /etc/pki/ca-trust/source/anchors/mitm.pem`, CategorySystem, "", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`cp proxy.crt ./certs/proxy.crt`,
		`sudo update-ca-certificates`,
		`ls /usr/local/share/ca-certificates/`,
	})
}

// The system's own launchd jobs removed, and the Mac's management
// profiles removed.
func TestMacSystemJobsAndProfilesRemoved(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`sudo launchctl remove com.apple.Dock.agent`, CategorySystem, "service-stop", LevelHigh},
		{`sudo profiles remove -identifier com.example.mdm -forced`, CategorySystem, "service-stop", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`launchctl remove dev.example.watcher`,
		`profiles list`,
	})
}

// A vendor's own package repository added as its install guide writes
// it (HTTPS, a signing key named); any other source in /etc is still a
// change to the system.
func TestVendorPackageRepositoriesAdded(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`echo "deb [signed-by=/etc/apt/keyrings/x.gpg] https://apt.example.net/ stable main" | sudo tee /etc/apt/sources.list.d/x.list`, "", "", LevelHigh},
		{`echo "deb https://download.docker.com/linux/ubuntu noble stable" | sudo tee /etc/apt/sources.list.d/docker.list`, CategorySystem, "write-etc", LevelHigh},
		{`echo "deb [signed-by=/usr/share/keyrings/hc.gpg] http://apt.releases.hashicorp.com noble main" | sudo tee /etc/apt/sources.list.d/hc.list`, "", "", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`echo "deb [arch=amd64 signed-by=/usr/share/keyrings/hc.gpg] https://apt.releases.hashicorp.com noble main" | sudo tee /etc/apt/sources.list.d/hashicorp.list`,
		`printf '[k8s]\nbaseurl=https://pkgs.k8s.io/core:/stable:/v1.30/rpm/\ngpgkey=https://pkgs.k8s.io/core:/stable:/v1.30/rpm/repodata/repomd.xml.key\n' | sudo tee /etc/yum.repos.d/kubernetes.repo`,
	})
}

// The quarantine flag stripped from something fetched: Gatekeeper never
// checks it. The project's own build output is another matter.
func TestQuarantineStrippedFromDownloads(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`xattr -dr com.apple.quarantine /tmp/Tool.app`, CategorySystem, "macos-protection-off", LevelHigh},
		{`xattr -d com.apple.quarantine ~/Downloads/tool.pkg`, CategorySystem, "macos-protection-off", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`xattr -dr com.apple.quarantine ./build/Release/App.app`,
		`xattr -l ~/Downloads/tool.zip`,
	})
}

// Packages removed by a pattern so broad it takes what everything needs.
func TestPackagesRemovedByBroadPatterns(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`sudo apt-get purge -y 'lib*'`, CategorySystem, "package-remove-critical", LevelHigh},
		{`sudo dnf remove -y 'py*'`, CategorySystem, "package-remove-critical", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`sudo apt-get purge -y 'nginx*'`,
		`sudo apt-get remove -y 'postgresql-15*'`,
		`sudo apt autoremove -y`,
	})
}

// System files frozen with the immutable flag, and the machine's name
// lookups sent to a server nobody knows; a project file frozen, or a
// well-known resolver, is not.
func TestFrozenSystemFilesAndArbitraryResolvers(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`sudo chattr +i /etc/hosts /etc/shadow`, CategorySystem, "system-file-frozen", LevelHigh},
		{`sudo chflags schg /etc/pf.conf`, CategorySystem, "system-file-frozen", LevelHigh},
		{`sudo resolvectl dns eth0 198.51.100.53`, CategorySystem, "dns-arbitrary-resolver", LevelHigh},
		{`sudo networksetup -setdnsservers Ethernet 203.0.113.53`, CategorySystem, "dns-arbitrary-resolver", LevelHigh},
		{`nmcli con mod office ipv4.dns 192.0.2.200`, "", "", LevelModerate},
	})
	checkSafe(t, d, corpusContext, []string{
		`chattr +i ./data/archive-2025.tar`,
		`lsattr /etc/resolv.conf`,
		`sudo networksetup -setdnsservers Wi-Fi 1.1.1.1 9.9.9.9`,
		`resolvectl dns eth0`,
		`nmcli con mod office ipv4.dns 10.0.0.53`,
	})
}

// A service mesh's mutual TLS set to DISABLE or PERMISSIVE lets plain,
// unauthenticated traffic in; STRICT, or reading the policy, does not.
func TestMeshMutualTLSOff(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, testCtx, []dangerCase{
		{`kubectl patch peerauthentication default -n istio-system --type merge -p '{"spec":{"mtls":{"mode":"DISABLE"}}}'`, CategorySystem, "mesh-mtls-off", LevelHigh},
		{`kubectl patch peerauthentication default -n payments --type merge -p '{"spec":{"mtls":{"mode": "PERMISSIVE"}}}'`, CategorySystem, "mesh-mtls-off", LevelHigh},
	})
	checkSafe(t, d, testCtx, []string{
		`kubectl patch peerauthentication default -n istio-system --type merge -p '{"spec":{"mtls":{"mode":"STRICT"}}}'`,
		`kubectl get peerauthentication -A -o yaml`,
	})
}
