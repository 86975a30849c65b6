package cluster

import (
	"testing"
	"time"

	"github.com/hotplex/hotplex/internal/natstest"
)

// A listing taken while the nodes renew their entries still lists every
// one of them: a renewal landing as the listing starts must not hide the
// node it renews. (Renewals here come 25 times faster than a cluster's.)
func TestNodesListedWhileRenewing(t *testing.T) {
	ns := natstest.Start(t)
	kv := nodesBucket(t, ns, "lister", 10*time.Second)
	for _, id := range []string{"a", "b", "c"} {
		join(t, kv, NodeInfo{ID: id}, NodesOptions{Interval: 40 * time.Millisecond, Load: func() Load { return Load{Resident: 1} }})
	}
	for i := range 300 {
		if got := listNodes(t, kv); len(got) != 3 {
			t.Fatalf("listing %d found %d nodes: %v", i, len(got), got)
		}
	}
}
