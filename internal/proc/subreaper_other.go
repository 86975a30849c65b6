//go:build !linux

package proc

// EnableSubreaper does nothing and returns nil: child subreapers are Linux only.
func EnableSubreaper() error { return nil }
