//go:build !linux

package proc

import (
	"errors"
	"syscall"
)

// errNoCgroups is returned where cgroup v2 does not exist.
var errNoCgroups = errors.New("proc: cgroups are Linux only")

func newCgroup(string) (string, int, error) { return "", -1, errNoCgroups }
func setCgroupFD(*syscall.SysProcAttr, int) {}
func closeFD(int)                           {}
func cgroupPIDs(string) []int               { return nil }
func cgroupProcs(string) ([]int, bool)      { return nil, false }
func cgroupKill(string) error               { return errNoCgroups }
func removeCgroup(string) error             { return nil }
func rmdirCgroup(string) error              { return nil }

// DefaultCgroupRoot returns "": cgroups are Linux only.
func DefaultCgroupRoot() string { return "" }

// RemoveCgroupRoot does nothing: cgroups are Linux only.
func RemoveCgroupRoot(string) error { return nil }
