package provider

import "strings"

// EnvValue returns the value of key in env, a list of KEY=VALUE entries as
// StartOptions.Env holds them, or "" when it is not set. The last entry
// wins, as it does for a process started with env.
func EnvValue(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], key+"="); ok {
			return v
		}
	}
	return ""
}
