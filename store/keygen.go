package store

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
)

// Prefixes of generated API key IDs and secrets.
const (
	KeyIDPrefix     = "hpk_"
	KeySecretPrefix = "hps_"
)

const (
	keyIDChars    = 12
	keySecretSize = 32
	// keyIDAlphabet is lowercase Crockford base32 (no i, l, o, u), so IDs
	// are unambiguous to read aloud and safe in URLs.
	keyIDAlphabet = "0123456789abcdefghjkmnpqrstvwxyz"
)

// HashKey returns the SHA-256 of an API key secret, the form in which the
// secret is stored and looked up.
func HashKey(secret string) []byte {
	h := sha256.Sum256([]byte(secret))
	return h[:]
}

// NewKeySecret generates a new API key: a public id ("hpk_" and 12 base32
// characters) and a secret ("hps_" and 32 random bytes in unpadded
// base64url). Only HashKey(secret) should be stored.
func NewKeySecret() (id, secret string, err error) {
	var raw [keyIDChars + keySecretSize]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", "", fmt.Errorf("store: generate api key: %w", err)
	}
	idb := make([]byte, 0, len(KeyIDPrefix)+keyIDChars)
	idb = append(idb, KeyIDPrefix...)
	for _, b := range raw[:keyIDChars] {
		// 256 is a multiple of 32, so the low five bits are uniform.
		idb = append(idb, keyIDAlphabet[b&31])
	}
	secret = KeySecretPrefix + base64.RawURLEncoding.EncodeToString(raw[keyIDChars:])
	return string(idb), secret, nil
}
