package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"strings"
	"testing"
)

func TestHashKey(t *testing.T) {
	want := sha256.Sum256([]byte("hps_secret"))
	got := HashKey("hps_secret")
	if !bytes.Equal(got, want[:]) {
		t.Fatalf("HashKey = %x, want %x", got, want)
	}
	if len(got) != sha256.Size {
		t.Fatalf("len = %d", len(got))
	}
	if bytes.Equal(HashKey("a"), HashKey("b")) {
		t.Fatal("different secrets hash alike")
	}
}

func TestNewKeySecret(t *testing.T) {
	seen := map[string]bool{}
	for range 200 {
		id, secret, err := NewKeySecret()
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(id, KeyIDPrefix) || len(id) != len(KeyIDPrefix)+keyIDChars {
			t.Fatalf("bad id %q", id)
		}
		for _, c := range id[len(KeyIDPrefix):] {
			if !strings.ContainsRune(keyIDAlphabet, c) {
				t.Fatalf("id %q has %q outside the alphabet", id, c)
			}
		}
		if !strings.HasPrefix(secret, KeySecretPrefix) {
			t.Fatalf("bad secret %q", secret)
		}
		raw, err := base64.RawURLEncoding.DecodeString(secret[len(KeySecretPrefix):])
		if err != nil || len(raw) != keySecretSize {
			t.Fatalf("secret %q: %d bytes, %v", secret, len(raw), err)
		}
		if seen[id] || seen[secret] {
			t.Fatalf("repeated id or secret: %q %q", id, secret)
		}
		seen[id], seen[secret] = true, true
	}
}
