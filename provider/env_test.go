package provider

import "testing"

func TestEnvValue(t *testing.T) {
	env := []string{"HOME=/a", "HOMEDIR=/x", "PATH=/bin", "HOME=/b", "EMPTY="}
	for key, want := range map[string]string{"HOME": "/b", "HOMEDIR": "/x", "PATH": "/bin", "EMPTY": "", "MISSING": "", "HOM": ""} {
		if got := EnvValue(env, key); got != want {
			t.Errorf("EnvValue(%q) = %q, want %q", key, got, want)
		}
	}
}
