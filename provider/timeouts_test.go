package provider_test

import (
	"testing"
	"time"

	"github.com/hotplex/hotplex/provider"
)

func TestTimeoutsDefaults(t *testing.T) {
	var zero provider.Timeouts
	if zero.Start() != 60*time.Second || zero.Interrupt() != 5*time.Second || zero.Terminate() != 2*time.Second {
		t.Fatalf("defaults: %v %v %v", zero.Start(), zero.Interrupt(), zero.Terminate())
	}
	set := provider.Timeouts{StartTimeout: time.Second, InterruptGrace: 2 * time.Second, TerminateGrace: 3 * time.Second}
	if set.Start() != time.Second || set.Interrupt() != 2*time.Second || set.Terminate() != 3*time.Second {
		t.Fatalf("set: %v %v %v", set.Start(), set.Interrupt(), set.Terminate())
	}
	neg := provider.Timeouts{StartTimeout: -1}
	if neg.Start() != 60*time.Second {
		t.Fatalf("a negative timeout takes the default: %v", neg.Start())
	}
}
