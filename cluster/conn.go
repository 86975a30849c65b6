package cluster

import (
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go"
)

// ConnOptions configures a node's connection to NATS. The zero value
// connects anonymously and logs nowhere.
type ConnOptions struct {
	// NodeID names the connection on the server (its monitoring pages
	// show it), so an operator can tell the nodes apart.
	NodeID string
	// ReconnectWait is the pause between reconnection attempts; zero
	// means 250ms, short enough that a restarted server is found again
	// well within a lease TTL.
	ReconnectWait time.Duration
	// Logger receives disconnects and reconnects; nil discards them.
	Logger *slog.Logger
	// Extra options are applied after the ones above (credentials, TLS).
	Extra []nats.Option
}

// Connect dials the NATS server at url for one node. The connection keeps
// reconnecting for as long as it is open: a NATS restart is something a
// cluster rides out, and leases decide on their own when waiting has
// lasted too long.
//
// Publishes made while disconnected fail at once instead of being queued
// for the reconnect (ReconnectBufSize -1). A queued compare-and-set sent
// after its caller gave up could still apply later, renewing a lease its
// node already considers lost and delaying the next owner by a TTL.
func Connect(url string, o ConnOptions) (*nats.Conn, error) {
	if url == "" {
		return nil, errors.New("cluster: no NATS URL")
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	wait := o.ReconnectWait
	if wait <= 0 {
		wait = 250 * time.Millisecond
	}
	name := "hotplex"
	if o.NodeID != "" {
		name += " " + o.NodeID
	}
	opts := []nats.Option{
		nats.Name(name),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(wait),
		nats.ReconnectBufSize(-1),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			log.Warn("nats disconnected", "err", err)
		}),
		nats.ReconnectHandler(func(nc *nats.Conn) {
			log.Info("nats reconnected", "url", nc.ConnectedUrlRedacted())
		}),
	}
	nc, err := nats.Connect(url, append(opts, o.Extra...)...)
	if err != nil {
		return nil, fmt.Errorf("cluster: connect to NATS at %s: %w", url, err)
	}
	return nc, nil
}
