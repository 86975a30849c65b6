// Package cluster holds what lets several HotPlex nodes act as one service
// on NATS JetStream. Its parts, each with its own guarantees:
//
//   - Session ownership (Leases, OwnersBucket): a hot CLI process lives
//     on one node, and a lease with a fencing token decides which.
//   - Event fan-out (Events): a session's owner publishes its events to a
//     stream every node follows in one order, resuming by stream sequence
//     across disconnects; the store, not the stream, keeps history.
//   - Membership (JoinNodes, Nodes, PickNode): each node's advertised URL
//     and load in a bucket whose TTL removes a dead node; a hint for
//     routing, never proof that a node stopped acting.
//   - Node-to-node calls (ServeRPC, CallRPC, Notify): request and reply
//     over core NATS, addressed by node ID, bounded per node.
//   - Conversation files (Files): the files a CLI keeps for a session,
//     saved whole or not at all and fenced by the lease token, so a node
//     that takes a session over can resume it.
//
// The rest of this comment is about leases.
//
// # What a lease guarantees
//
// A session's owner is one entry in a JetStream key-value bucket
// (OwnersBucket). Every write to it is a compare-and-set on the entry's
// revision, never a blind Put: Acquire creates the entry only when it is
// absent (never written, released or expired), a heartbeat renews it only
// at the revision it last wrote, and Release deletes it only at that
// revision. Revisions are stream sequence numbers, so they only grow, also
// across expiry, release and a restart of the NATS server.
//
//   - At most one node holds a session's lease at any moment, as the NATS
//     server orders the writes.
//   - Each lease has a fencing token (Lease.Token): the revision at which it
//     was taken. A later lease of the same session always has a higher
//     token, so whatever the holder writes elsewhere can carry the token and
//     be refused when a higher one has been seen. The token stays the same
//     while the lease is renewed, so one holder's concurrent writes never
//     fence each other out.
//   - A lease the holder did not renew for the bucket's TTL expires on the
//     server's clock, not on a node's: the bucket's MaxAge removes the entry
//     a TTL after the server stored its last renewal. The holder counts its
//     TTL from before it sent that renewal, so while it is running it gives
//     the lease up (Lost closes) no later than the server frees it, whatever
//     the difference between the machines' wall clocks.
//   - A holder that finds its revision moved (taken after expiry) or that
//     could not renew for a whole TTL (NATS unreachable) learns it through
//     Lost, and its node ends the session's process.
//
// # What it does not guarantee
//
//   - A paused process (a stopped VM, a long GC or swap stall) does not know
//     it was paused: after it resumes it may act for a moment before its
//     next renewal fails. Only the fencing token makes such late writes
//     harmless, so a store that accepts writes for a session must check it;
//     a new owner's first write should carry its token before it reads the
//     session's state.
//   - Ending a process takes time after Lost closes; a new owner may start
//     as soon as the server frees the lease. Work that must not run twice
//     has to be fenced, not timed.
//   - Expiry trusts the NATS server's clock not to jump forward, and the
//     server frees an expired entry on its next age check, a few hundred
//     milliseconds after the TTL.
//   - A Create whose reply is lost (NATS went away mid-request) may have
//     taken the lease anyway; Acquire then reports the error and the entry,
//     renewed by nobody, expires after one TTL.
package cluster
