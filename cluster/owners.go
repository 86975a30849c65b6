package cluster

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// DefaultOwnersBucket is the key-value bucket that holds session owners.
const DefaultOwnersBucket = "hotplex_owners"

// DefaultLeaseTTL is how long a lease outlives its last renewal.
const DefaultLeaseTTL = 10 * time.Second

// BucketConfig describes the owners bucket. The zero value is the default
// bucket with the default TTL on one replica.
type BucketConfig struct {
	// Name of the bucket; empty means DefaultOwnersBucket.
	Name string
	// LeaseTTL is how long after its last renewal a lease expires; zero
	// means DefaultLeaseTTL. Every node must use the same value.
	LeaseTTL time.Duration
	// Replicas of the bucket's stream on a clustered NATS; zero means 1.
	Replicas int
}

// OwnersBucket creates the owners bucket, or binds to it when another node
// created it already.
//
// The lease TTL is the bucket's TTL (its stream's MaxAge), so expiry is
// decided by the NATS server's clock from the moment it stored the last
// renewal, the one clock every node agrees on. Two alternatives were
// weighed and rejected. An expiry written into the value would be judged
// by the reading node's wall clock against the writing node's, so clock
// skew between nodes would let a node take a lease its holder still
// believes valid. A per-key TTL (the Nats-TTL header) is set by Create
// only: renewals made with Update carry none and would fall back to the
// bucket's MaxAge anyway.
//
// A bucket that exists with another TTL is an error rather than something
// to adjust: a node renewing on a longer TTL than the bucket's would lose
// leases it believes it holds.
func OwnersBucket(ctx context.Context, js jetstream.JetStream, c BucketConfig) (jetstream.KeyValue, error) {
	return ttlBucket(ctx, js, ttlBucketSpec{
		name:        cmp.Or(c.Name, DefaultOwnersBucket),
		kind:        "owners",
		entries:     "leases",
		description: "HotPlex session owners: which node runs each session",
		ttl:         cmp.Or(c.LeaseTTL, DefaultLeaseTTL),
		replicas:    cmp.Or(c.Replicas, 1),
	})
}

// ttlBucketSpec describes a bucket whose TTL is what expires its entries.
type ttlBucketSpec struct {
	name, kind, entries, description string
	ttl                              time.Duration
	replicas                         int
	// history is how many values of a key are kept (0: 1).
	history uint8
}

// ttlBucket creates a bucket whose entries expire a TTL after their last
// write, or binds to it when it exists with that TTL.
func ttlBucket(ctx context.Context, js jetstream.JetStream, b ttlBucketSpec) (jetstream.KeyValue, error) {
	if b.ttl < time.Second {
		// The server checks ages every 250ms at best; shorter TTLs
		// would expire late by a large share of their length.
		return nil, fmt.Errorf("cluster: %s TTL %s is below 1s", b.kind, b.ttl)
	}
	kv, err := js.CreateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket:      b.name,
		Description: b.description,
		History:     max(b.history, 1),
		TTL:         b.ttl,
		Storage:     jetstream.FileStorage,
		Replicas:    b.replicas,
	})
	if errors.Is(err, jetstream.ErrBucketExists) {
		kv, err = js.KeyValue(ctx, b.name)
	}
	if err != nil {
		return nil, fmt.Errorf("cluster: %s bucket %s: %w", b.kind, b.name, err)
	}
	st, err := kv.Status(ctx)
	if err != nil {
		return nil, fmt.Errorf("cluster: %s bucket %s: %w", b.kind, b.name, err)
	}
	if st.TTL() != b.ttl {
		return nil, fmt.Errorf("cluster: %s bucket %s keeps %s for %s, this node is configured for %s", b.kind, b.name, b.entries, st.TTL(), b.ttl)
	}
	return kv, nil
}

// ownerKey turns a session ID into a key of the owners bucket. Keys allow
// letters, digits and "-_=/." with no leading, trailing or doubled dot,
// while session keys carry "~" and may start with a dot, so every byte
// outside [A-Za-z0-9_-] is written as "=" and two hex digits. The mapping
// is one to one ("=" itself is escaped), and plain IDs stay readable in
// the bucket.
func ownerKey(sessionID string) (string, error) {
	if sessionID == "" {
		return "", errors.New("cluster: empty session ID")
	}
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(sessionID); i++ {
		c := sessionID[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '_', c == '-':
			b.WriteByte(c)
		default:
			b.WriteByte('=')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String(), nil
}
