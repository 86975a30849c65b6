//go:build linux

package proc

import (
	"testing"
	"time"
)

// BenchmarkStartInOwnPIDNamespace measures what the namespace's init adds
// to starting a session and killing it, against sharing our namespace:
// each iteration does both, so the ratio comes from one run.
func BenchmarkStartInOwnPIDNamespace(b *testing.B) {
	if !PIDNamespaces() {
		b.Skip("PID namespaces are off in this run")
	}
	cycle := func(share bool) time.Duration {
		start := time.Now()
		p, err := Start(Spec{Path: "/bin/sh", Args: []string{"-c", "read line"}, SharePIDNamespace: share})
		if err != nil {
			b.Fatal(err)
		}
		if p.OwnPIDNamespace() == share {
			b.Fatalf("own namespace %t with SharePIDNamespace %t", p.OwnPIDNamespace(), share)
		}
		if err := p.Kill(); err != nil {
			b.Fatal(err)
		}
		_ = p.Stdout().Close()
		return time.Since(start)
	}
	var shared, own time.Duration
	for range b.N {
		shared += cycle(true)
		own += cycle(false)
	}
	n := float64(b.N)
	b.ReportMetric(float64(shared.Microseconds())/n/1000, "shared-ms")
	b.ReportMetric(float64(own.Microseconds())/n/1000, "own-ns-ms")
	b.ReportMetric(float64(own)/float64(shared), "own/shared")
}
