//go:build !linux

package proc

import "os"

func launchInNamespace(Spec, []string, int, [3]*os.File) (*nsInit, int, error) {
	return nil, 0, errNamespaceRefused
}

func runInit() int { return 125 }

func hostPID(int, int) (int, error) { return 0, errNamespaceRefused }
