package guard

import (
	"path"
	"strings"
)

// credentialStore is where a tool keeps a login, a key or a token, as its
// documentation gives it: reading or sending the file hands them over.
type credentialStore struct {
	prefix string // home-relative (no leading slash) or absolute
	what   string
}

// homeCredentialStores are the files and folders below a home directory
// in which clients keep what signs them in, by tool family. A prefix
// ending in "/" names a folder and everything in it; otherwise the file
// itself (or a folder of that name).
var homeCredentialStores = []credentialStore{
	// encryption and signing identities
	{".config/age/", "age identities"}, {".config/sops/age/", "age identities"}, {".authinfo", "stored logins"},
	{".local/share/keyrings/", "the desktop keyring"}, {".local/share/kwalletd/", "the desktop keyring"},
	{".local/share/atuin/key", "the history sync key"},
	// coding agents' tool servers: their env blocks hold the servers' API keys
	{".cursor/mcp.json", "tool servers' API keys"}, {"Library/Application Support/Claude/claude_desktop_config.json", "tool servers' API keys"},
	{".config/Claude/claude_desktop_config.json", "tool servers' API keys"}, {".codeium/windsurf/mcp_config.json", "tool servers' API keys"},
	// remote access, tunnels and identity-aware proxies
	{".tsh/", "Teleport certificates"}, {".config/ngrok/", "the tunnel's auth token"}, {".ngrok2/", "the tunnel's auth token"},
	{"Library/Application Support/ngrok/", "the tunnel's auth token"}, {".vagrant.d/insecure_private_key", "SSH keys"},
	{".config/zerotier/", "network identity"},
	// Apple and mobile signing
	{"Library/MobileDevice/Provisioning Profiles", "signing profiles"}, {".appstoreconnect/", "App Store Connect keys"},
	{".fastlane/spaceship/", "App Store sessions"}, {".expo/state.json", "the build service's login"},
	{".android/adbkey", "the device debugging key"},
	// object storage and data platforms
	{".borg-passphrase", "the backup repository's passphrase"}, {".config/borg/passphrase", "the backup repository's passphrase"},
	{".config/rclone/rclone.conf", "storage remotes' keys"}, {".config/restic/", "the backup repository's password"}, {".s3cfg", "storage keys"}, {".mc/config.json", "storage keys"},
	{".boto", "storage keys"}, {".databrickscfg", "data platform tokens"}, {".snowsql/config", "warehouse logins"},
	{".dbt/profiles.yml", "warehouse logins"}, {".kaggle/kaggle.json", "an API key"}, {".cache/huggingface/token", "an API token"}, {".cache/huggingface/stored_tokens", "API tokens"},
	{".huggingface/token", "an API token"}, {".config/clickhouse-client/", "database logins"}, {".mongoshrc.js", "database logins"},
	// build, package and release tools
	{".m2/settings.xml", "repository logins"}, {".m2/settings-security.xml", "repository logins"},
	{".gradle/gradle.properties", "repository and signing secrets"}, {".nuget/NuGet/NuGet.Config", "feed logins"},
	{".composer/auth.json", "repository logins"}, {".config/composer/auth.json", "repository logins"}, {".bundle/config", "gem source logins"},
	{".yarnrc.yml", "registry tokens"}, {".terraformrc", "registry tokens"}, {".config/jfrog/", "artifact store tokens"},
	{".jfrog/", "artifact store tokens"}, {".sentryclirc", "an API token"}, {".circleci/cli.yml", "a CI token"},
	{".travis/config.yml", "a CI token"}, {".config/stripe/config.toml", "payment API keys"}, {".twilio-cli/", "API keys"},
	{".config/git/credentials", "git logins"}, {".config/glab-cli/", "a forge token"}, {".config/tea/", "a forge token"},
	// secrets managers and password managers
	{".config/Bitwarden CLI/", "the password vault"}, {".op/", "the password manager's sessions"}, {".doppler/", "secrets manager tokens"},
	{".infisical/", "secrets manager tokens"}, {".config/rbw/", "the password vault"},
	// clouds and hosting
	{".edgerc", "CDN API credentials"}, {".config/fastly/config.toml", "CDN API tokens"}, {".wrangler/config/default.toml", "the edge platform's login"},
	{".config/.wrangler/config/default.toml", "the edge platform's login"}, {".acme.sh/account.conf", "DNS providers' API keys"},
	{".cloginrc", "network devices' logins"},
	{".aliyun/", "cloud keys"}, {".tccli/", "cloud keys"}, {".config/scw/", "cloud keys"}, {".vultr-cli.yaml", "cloud keys"},
	{".config/vultr-cli.yaml", "cloud keys"}, {".config/exoscale/", "cloud keys"}, {".ovh.conf", "cloud keys"},
	{".config/argocd/", "a deployment token"}, {".talos/", "cluster keys"}, {".minikube/", "cluster keys"},
	{".config/containers/auth.json", "registry logins"}, {".config/helm/repositories.yaml", "chart repository logins"},
	// browsers
	{".config/BraveSoftware/", "browser logins"}, {".config/microsoft-edge/", "browser logins"},
	// wallets
	{".electrum/", "a wallet"}, {".ethereum/keystore/", "a wallet"}, {".bitcoin/", "a wallet"},
	{".config/obs-studio/basic/profiles/", "stream keys"}, {"AppData/Roaming/obs-studio/basic/profiles/", "stream keys"},
	{".config/solana/id.json", "a wallet's keypair"}, {"AppData/Roaming/Ethereum/keystore/", "a wallet"}, {".foundry/keystores/", "a wallet"},
	{".ethereum/password", "a wallet's password"}, {".lighthouse/", "validator keys"}, {".eth2validators/", "validator keys"},
}

// systemCredentialStores are the same outside homes: services' keys,
// VPN and tunnel identities, Kerberos tickets and cluster admin files.
var systemCredentialStores = []credentialStore{
	{"/var/lib/tailscale/", "the node's VPN identity"}, {"/etc/wireguard/", "VPN private keys"},
	{"/var/lib/zerotier-one/identity.secret", "the node's VPN identity"}, {"/etc/openvpn/", "VPN keys"},
	{"/etc/ipsec.secrets", "VPN secrets"}, {"/etc/NetworkManager/system-connections/", "network passwords"},
	{"/etc/krb5.keytab", "Kerberos keys"}, {"/tmp/krb5cc_", "Kerberos tickets"}, {"/var/lib/sss/secrets/", "directory secrets"},
	{"/etc/kubernetes/admin.conf", "cluster admin credentials"}, {"/etc/kubernetes/pki/", "cluster keys"},
	{"/etc/rancher/k3s/k3s.yaml", "cluster admin credentials"}, {"/var/lib/rancher/k3s/server/token", "the cluster join token"},
	{"/var/lib/kubelet/pki/", "cluster keys"}, {"/etc/mysql/debian.cnf", "the database maintenance login"},
	{"/etc/vault.d/", "secrets server keys"}, {"/etc/cloudflared/", "the tunnel's credentials"},
	{"/etc/ssh/ssh_host_", "SSH host keys"}, {"/etc/docker/certs.d/", "registry keys"},
}

// credentialExts are extensions of key and token files whatever their
// folder: Kerberos keytabs, Apple's .p8 API keys and provisioning
// profiles.
var credentialExts = map[string]string{".keytab": "Kerberos keys", ".p8": "an API signing key", ".mobileprovision": "a signing profile",
	".pkcs12": "key material", ".kdb": "a password database", ".psafe3": "a password database"}

// credentialStoreOf reports what a path holds when it is, or is inside,
// a tool's credential store; rel is the path below its home directory
// (home reports whether it is below one).
func credentialStoreOf(p, rel string, home bool) string {
	if home {
		for _, c := range homeCredentialStores {
			if storeHolds(c.prefix, rel) {
				return c.what
			}
		}
	}
	for _, c := range systemCredentialStores {
		if storeHolds(c.prefix, p) {
			return c.what
		}
	}
	if d, ok := credentialExts[strings.ToLower(path.Ext(p))]; ok {
		return d
	}
	return ""
}

// storeHolds reports whether p is the store named by prefix or inside it;
// a prefix ending in "_" starts file names (/tmp/krb5cc_ starts every
// user's ticket cache).
func storeHolds(prefix, p string) bool {
	if strings.HasSuffix(prefix, "/") {
		return strings.HasPrefix(p, prefix) || p == prefix[:len(prefix)-1]
	}
	if strings.HasSuffix(prefix, "_") {
		return strings.HasPrefix(p, prefix)
	}
	// (not HasPrefix(p, prefix+"/"): this runs for every store on every
	// path, and the concatenation allocated each time)
	return p == prefix || len(p) > len(prefix) && p[len(prefix)] == '/' && strings.HasPrefix(p, prefix)
}
