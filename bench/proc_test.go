package bench

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/hotplex/hotplex/internal/proc"
)

// BenchmarkSessionEndAmongMany: starting and ending one session's process
// tree (a program that ends at stdin EOF and leaves a background job
// behind) while 400 other processes run on the machine, followed through the
// tree's own cgroup against the marker sweep that reads every process's
// status and environment. A fleet that hibernates sessions by the
// thousand pays this on every start and end.
func BenchmarkSessionEndAmongMany(b *testing.B) {
	const others, rounds = 400, 30
	root := proc.DefaultCgroupRoot()
	if root == "" {
		b.Fatal("no usable cgroup v2 here; the comparison needs one")
	}
	b.Cleanup(func() { _ = proc.RemoveCgroupRoot(root) })
	var bystanders []*proc.Process
	b.Cleanup(func() {
		for _, p := range bystanders {
			_ = p.Kill()
		}
	})
	for i := range others {
		p, err := proc.Start(proc.Spec{Path: "sleep", Args: []string{"600"}, Marker: fmt.Sprintf("bystander-%d", i)})
		if err != nil {
			b.Fatal(err)
		}
		bystanders = append(bystanders, p)
	}
	// cpu is the CPU time this process has used: the tracking's cost,
	// which is what limits a fleet's starts and ends per second.
	cpu := func() time.Duration {
		var ru syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	var sweptCPU, confinedCPU time.Duration
	cycle := func(cgroup string, i int) time.Duration {
		t0, c0 := time.Now(), cpu()
		if cgroup == "" {
			defer func() { sweptCPU += cpu() - c0 }()
		} else {
			defer func() { confinedCPU += cpu() - c0 }()
		}
		p, err := proc.Start(proc.Spec{Path: "sh", Args: []string{"-c", "sleep 600 & exec cat"},
			Marker: fmt.Sprintf("measured-%d", i), CgroupRoot: cgroup})
		if err != nil {
			b.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := p.Terminate(ctx, time.Second); err != nil {
			b.Fatal(err)
		}
		return time.Since(t0)
	}
	var swept, confined []time.Duration
	b.ResetTimer()
	for i := range rounds { // alternated, so both see the same machine
		swept = append(swept, cycle("", i))
		confined = append(confined, cycle(root, i))
	}
	b.StopTimer()
	s, c := pct(swept, 0.5), pct(confined, 0.5)
	fmt.Printf("%-34s start + end of a 2-process tree among %d processes: cgroup p50 %s | sweep p50 %s | ratio %.2f\n",
		"session end among many", others, c.Round(time.Microsecond), s.Round(time.Microsecond), float64(c)/float64(s))
	fmt.Printf("%-34s CPU per start + end: cgroup %s | sweep %s | ratio %.2f\n", "session end among many",
		(confinedCPU / rounds).Round(time.Microsecond), (sweptCPU / rounds).Round(time.Microsecond), float64(confinedCPU)/float64(sweptCPU))
	b.ReportMetric(float64(confinedCPU)/float64(sweptCPU), "cpu-cgroup/sweep")
}
