//go:build !linux

package proc

func openExitFD(int) int { return -1 }

func pollExitFD(int) bool { return false }

func closeExitFD(int) {}
