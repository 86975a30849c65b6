package webhook

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The Standard Webhooks headers (https://www.standardwebhooks.com/): the
// message's ID (the same on every retry, so a receiver can drop
// duplicates), the attempt's Unix time in seconds, and the signatures.
const (
	HeaderID        = "webhook-id"
	HeaderTimestamp = "webhook-timestamp"
	HeaderSignature = "webhook-signature"
)

// secretPrefix marks a Standard Webhooks secret; the rest is base64.
const secretPrefix = "whsec_"

// ErrSignature reports a delivery whose signature does not verify.
var ErrSignature = errors.New("webhook: signature does not verify")

// NewSecret returns a new signing secret: "whsec_" and 32 random bytes in
// base64.
func NewSecret() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24)
	return secretPrefix + base64.StdEncoding.EncodeToString(b)
}

// secretKey returns the HMAC key of a secret: the bytes its base64 part
// holds.
func secretKey(secret string) ([]byte, error) {
	b64, ok := strings.CutPrefix(secret, secretPrefix)
	if !ok {
		return nil, fmt.Errorf("webhook secret must start with %q", secretPrefix)
	}
	key, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return nil, fmt.Errorf("webhook secret: the part after %q is not base64: %w", secretPrefix, err)
	}
	if len(key) < 24 || len(key) > 64 {
		return nil, fmt.Errorf("webhook secret: %d bytes, want 24 to 64", len(key))
	}
	return key, nil
}

// CheckSecret reports what makes secret unfit to sign with.
func CheckSecret(secret string) error {
	_, err := secretKey(secret)
	return err
}

// Sign returns the webhook-signature value of a message: "v1," and the
// base64 HMAC-SHA256, keyed with the secret, of "id.timestamp.body".
func Sign(secret, id string, ts time.Time, body []byte) (string, error) {
	key, err := secretKey(secret)
	if err != nil {
		return "", err
	}
	return "v1," + base64.StdEncoding.EncodeToString(mac(key, id, ts.Unix(), body)), nil
}

func mac(key []byte, id string, unix int64, body []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(id + "." + strconv.FormatInt(unix, 10) + "."))
	m.Write(body)
	return m.Sum(nil)
}

// Verify checks a delivery as a receiver in Go would: one of the
// space-separated v1 signatures of h must be body's, and its timestamp
// within tolerance of now (replays of old messages fail).
func Verify(secret string, h http.Header, body []byte, tolerance time.Duration, now time.Time) error {
	key, err := secretKey(secret)
	if err != nil {
		return err
	}
	id, tsText := h.Get(HeaderID), h.Get(HeaderTimestamp)
	unix, err := strconv.ParseInt(tsText, 10, 64)
	if id == "" || err != nil {
		return fmt.Errorf("%w: missing %s or %s", ErrSignature, HeaderID, HeaderTimestamp)
	}
	if d := now.Sub(time.Unix(unix, 0)); d > tolerance || d < -tolerance {
		return fmt.Errorf("%w: timestamp %s is outside the tolerance", ErrSignature, tsText)
	}
	want := mac(key, id, unix, body)
	for _, sig := range strings.Fields(h.Get(HeaderSignature)) {
		v, b64, ok := strings.Cut(sig, ",")
		if !ok || v != "v1" {
			continue
		}
		got, err := base64.StdEncoding.DecodeString(b64)
		if err == nil && hmac.Equal(got, want) {
			return nil
		}
	}
	return ErrSignature
}
