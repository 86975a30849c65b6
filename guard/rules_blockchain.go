package guard

import (
	"strconv"
	"strings"
)

// Blockchain nodes, validators and wallets: money moved and contracts
// changed on a live network (a transaction cannot be taken back), a
// validator exited or its chain state reset (double signing is
// slashed), a node's chain data wiped or rewound, a wallet's private keys
// printed or its lock lifted for good. The same commands on a local
// chain (anvil, hardhat, regtest, a localnet), a test network, a dry run
// or a transaction only built (--generate-only) pass.
var blockchainRules = []*rule{
	{ID: "chain-transaction-sent", Level: LevelCritical, Category: CategorySystem, Description: "sending a transaction on a live blockchain network: moving funds, deploying or upgrading contracts, minting, pausing, transferring ownership, closing programs (it cannot be taken back)",
		Suggestions: []string{"Run it on a fork or a test network first (anvil --fork-url, sepolia, devnet)", "Build the transaction unsigned and have the owners sign it (a multisig)"},
		names:       names("bitcoin-cli", "bitcoin-cli.exe", "cast", "forge", "solana", "spl-token", "npx", "hardhat", "geth", "gaiad", "osmosisd", "junod", "evmosd", "injectived", "wasmd", "seid", "neutrond", "celestia-appd"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args, low := c.args(), c.lowerArgs()
			ops := plainWords(low)
			if len(ops) == 0 || hasAnyWord(low, "--help", "-h", "--dry-run", "--generate-only") {
				return false, ""
			}
			switch c.name {
			case "bitcoin-cli", "bitcoin-cli.exe":
				if testChainFlag(low) {
					return false, ""
				}
				for _, o := range ops {
					switch o {
					case "send", "sendtoaddress", "sendmany", "sendall", "sendrawtransaction", "sendfrom", "bumpfee":
						return true, "bitcoin-cli " + o
					}
				}
			case "cast":
				if ops[0] == "send" || ops[0] == "publish" {
					if rpc := chainRPC(args); rpc != "" && liveChain(rpc) {
						return true, "cast " + ops[0] + " on " + rpc
					}
				}
			case "forge":
				if (ops[0] == "script" && hasWord(args, "--broadcast") || ops[0] == "create" && !hasWord(args, "--dry-run")) && !hasPrefixWord(args, "--fork-url") {
					if rpc := chainRPC(args); rpc != "" && liveChain(rpc) {
						return true, "forge " + ops[0] + " on " + rpc
					}
				}
			case "npx", "hardhat":
				// npx hardhat run scripts/upgrade.ts --network polygon
				if n, ok := optValue(args, "", "network"); ok && liveChain(n) && (hasWord(args, "run") || hasWord(args, "deploy") || hasWord(args, "ignition")) {
					return true, "hardhat on the " + n + " network"
				}
			case "solana", "spl-token":
				if !solanaMainnet(args) {
					return false, ""
				}
				switch {
				case ops[0] == "transfer" || ops[0] == "withdraw-from-vote-account" || ops[0] == "withdraw-stake" || ops[0] == "close-vote-account":
					return true, c.name + " " + ops[0] + " on mainnet"
				case ops[0] == "program" && len(ops) > 1 && (ops[1] == "close" || ops[1] == "deploy" || ops[1] == "upgrade" || ops[1] == "set-upgrade-authority"):
					return true, c.name + " program " + ops[1] + " on mainnet"
				case c.name == "spl-token" && (ops[0] == "authorize" || ops[0] == "mint" || ops[0] == "burn" || ops[0] == "close"):
					return true, "spl-token " + ops[0] + " on mainnet"
				}
			case "geth":
				// geth attach --exec 'eth.sendTransaction({...})'
				if x, ok := optValue(args, "", "exec"); ok && strings.Contains(x, "eth.sendTransaction(") {
					return true, "geth attach: eth.sendTransaction"
				}
			default:
				// Cosmos SDK daemons: gaiad tx bank send ... --chain-id
				// cosmoshub-4 (not a local or test chain's id)
				if ops[0] == "tx" && len(ops) > 2 {
					if id, ok := optValue(args, "", "chain-id"); ok && liveChain(id) {
						return true, c.name + " tx " + ops[1] + " " + ops[2] + " on " + id
					}
				}
			}
			return false, ""
		}},
	{ID: "validator-exited-or-reset", Level: LevelCritical, Category: CategorySystem, Description: "exiting a validator, resetting its signing state or its chain data, or rewinding a node's chain (an exit cannot be undone; a reset validator signs twice and is slashed)",
		Suggestions: []string{"Follow the network's documented procedure with the validator stopped and its key moved, not copied", "Try it on a local network first"},
		names:       chainNodes,
		match: func(a *analysis, c *cmd) (bool, string) {
			if len(c.words) < 2 {
				return false, ""
			}
			args, low := c.args(), c.lowerArgs()
			ops := plainWords(low)
			if hasAnyWord(low, "--help", "-h") {
				return false, ""
			}
			home, _ := optValue(args, "", "home")
			if d, ok := optValue(args, "", "datadir"); ok {
				home = d
			}
			scratch := home != "" && (scratchName(home) || a.classifyUnder(word{s: home, ok: true}, c.cwd, false) == pcInside || strings.Contains(home, "localnet") || strings.Contains(home, "devnet"))
			for i, o := range ops {
				switch {
				case o == "unsafe-reset-all" && !scratch:
					return true, c.name + " unsafe-reset-all"
				case o == "removedb" && !scratch:
					return true, c.name + " removedb"
				case o == "exit" && i > 0 && (ops[i-1] == "validator" || ops[i-1] == "voluntary-exit"):
					return true, c.name + " validator exit"
				}
			}
			if hasWord(args, "--init-slashing-protection") {
				return true, c.name + " --init-slashing-protection (signing history started empty)"
			}
			for _, w := range args {
				if l := lower(w.s); strings.Contains(l, "debug.sethead(") || strings.Contains(l, "debug_sethead") {
					return true, "the chain's head rewound (debug_setHead)"
				}
			}
			return false, ""
		}},
	{ID: "wallet-keys-shown", Level: LevelHigh, Category: CategoryExfiltration, Description: "printing a wallet's private keys or seed, or unlocking it for good (dumpprivkey, dumpwallet, cast wallet private-key, keys export --unsafe, an unlock without a timeout)",
		Suggestions: []string{"Print the address or the public key only", "Unlock for the seconds the signing needs"},
		names:       names("bitcoin-cli", "bitcoin-cli.exe", "cast", "geth"),
		match: func(a *analysis, c *cmd) (bool, string) {
			args, low := c.args(), c.lowerArgs()
			ops := plainWords(low)
			if len(ops) == 0 || testChainFlag(low) {
				return false, ""
			}
			switch c.name {
			case "bitcoin-cli", "bitcoin-cli.exe":
				switch ops[0] {
				case "dumpprivkey", "dumpwallet":
					return true, "bitcoin-cli " + ops[0]
				case "listdescriptors":
					if len(ops) > 1 && ops[1] == "true" {
						return true, "bitcoin-cli listdescriptors true (private descriptors)"
					}
				case "walletpassphrase":
					if len(ops) > 2 {
						if n, err := strconv.Atoi(ops[len(ops)-1]); err == nil && n >= 86400 {
							return true, "bitcoin-cli walletpassphrase for " + ops[len(ops)-1] + " s"
						}
					}
				}
			case "cast":
				if len(ops) > 1 && ops[0] == "wallet" && (ops[1] == "private-key" || ops[1] == "decrypt-keystore" || ops[1] == "derive-private-key") {
					return true, "cast wallet " + ops[1]
				}
			case "geth":
				if x, ok := optValue(args, "", "exec"); ok && strings.Contains(x, "personal.unlockAccount(") && strings.HasSuffix(strings.ReplaceAll(strings.TrimRight(x, ") ;"), " ", ""), ",0") {
					return true, "an account unlocked until the node stops"
				}
			}
			return false, ""
		}},
}

// chainNodes are blockchain nodes' and validator clients' programs:
// geth, lighthouse, prysmctl, ethdo, gaiad and the other Cosmos SDK
// daemons, and cast (its rpc subcommand reaches a node's debug API).
var chainNodes = names("geth", "geth.exe", "lighthouse", "lighthouse.exe", "prysmctl", "prysm", "ethdo", "teku", "nimbus_beacon_node", "cast", "tendermint", "cometbft",
	"gaiad", "gaiad.exe", "osmosisd", "junod", "evmosd", "injectived", "celestia-appd", "wasmd", "seid", "neutrond", "akash", "solana-validator", "agave-validator",
	"reth", "erigon", "nethermind", "besu")

// chainRPC returns the network a cast or forge command talks to: its
// --rpc-url (or -r, --fork-url), or "" for the default local node.
func chainRPC(args []word) string {
	if v, ok := optValue(args, "-r", "rpc-url"); ok {
		return v
	}
	if v, ok := optValue(args, "", "chain"); ok {
		return v
	}
	return ""
}

// liveChain reports a network or RPC endpoint that is not a local or test
// chain: mainnet, an L2's mainnet, a production RPC's variable.
func liveChain(n string) bool {
	l := lower(n)
	if h := hostOf(l); h != "" && isLocalHost(h) {
		return false
	}
	// (local, test and dev cover localhost, localnet, testnet, devnet)
	for _, t := range [...]string{"local", "127.0.0.1", "test", "dev", "anvil", "hardhat", "ganache", "fork", "sepolia", "holesky", "hoodi", "goerli",
		"mumbai", "amoy", "fuji", "chiado"} {
		if strings.Contains(l, t) {
			return false
		}
	}
	return true
}

// testChainFlag reports bitcoin-cli's flags for a test chain.
func testChainFlag(low []string) bool {
	for _, l := range low {
		if l == "-regtest" || l == "-testnet" || l == "-testnet4" || l == "-signet" || strings.HasPrefix(l, "-chain=") && l != "-chain=main" {
			return true
		}
	}
	return false
}

// solanaMainnet reports a solana command sent to mainnet-beta (-um,
// --url mainnet-beta or its RPC).
func solanaMainnet(args []word) bool {
	for i, w := range args {
		l := lower(w.s)
		if l == "-um" || (l == "-u" || l == "--url") && i+1 < len(args) && (lower(args[i+1].s) == "m" || strings.Contains(lower(args[i+1].s), "mainnet")) ||
			strings.HasPrefix(l, "--url=") && strings.Contains(l, "mainnet") {
			return true
		}
	}
	return false
}

func init() { ruleSets = append(ruleSets, blockchainRules) }
