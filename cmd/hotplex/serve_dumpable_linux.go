package main

import "golang.org/x/sys/unix"

// hideSecretsFromAgents makes the daemon non-dumpable. Its environment and
// memory hold the model keys the gateway keeps from agents, and a process
// of the same user could otherwise read them from /proc/<daemon>/environ
// or /proc/<daemon>/mem, which no environment scrubbing prevents. Agents
// are unaffected: execve makes each new program dumpable again.
func hideSecretsFromAgents() error {
	return unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
}
