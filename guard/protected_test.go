package guard

import "testing"

// protectedCtx is a session whose work directory lies, like HotPlex's data
// and its other sessions, under /tmp, where paths outside the work
// directory are otherwise ordinary temporary files.
var protectedCtx = Context{
	WorkDir: "/tmp/hotplex/work/s1",
	Home:    "/home/dev",
	ProtectedPaths: []string{
		"/tmp/hotplex/data",
		"/tmp/hotplex/data/hotplex.db",
		"/tmp/hotplex/work",
		"~/.hotplex",
	},
}

func TestProtectedPaths(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, protectedCtx, []dangerCase{
		{"rm -rf ../s2", CategoryFileDelete, "rm-protected", LevelCritical},
		{"rm -rf /tmp/hotplex/work/s2", CategoryFileDelete, "rm-protected", LevelCritical},
		{"rm -rf ..", CategoryFileDelete, "rm-protected", LevelCritical},
		{"rm -rf ../*", CategoryFileDelete, "rm-protected", LevelCritical},
		{"rm /tmp/hotplex/data/hotplex.db", CategoryFileDelete, "rm-protected", LevelCritical},
		{"rm -f /tmp/hotplex/data/hotplex.db-wal", CategoryFileDelete, "rm-protected", LevelCritical},
		{"rm -rf /tmp/hotplex", CategoryFileDelete, "rm-protected", LevelCritical},
		{"rm -rf /tmp/*", CategoryFileDelete, "rm-protected", LevelCritical},
		{"cd /tmp/hotplex/data && rm -rf ./*", CategoryFileDelete, "rm-protected", LevelCritical},
		{"find /tmp/hotplex -name '*.db' -delete", CategoryFileDelete, "rm-protected", LevelCritical},
		{"rm -rf ~/.hotplex", CategoryFileDelete, "rm-protected", LevelCritical},
		{"mv /tmp/hotplex/data/hotplex.db ./stolen.db", CategoryFileDelete, "rm-protected", LevelCritical},
		{"rsync -a --delete empty/ ../s2/", CategoryFileDelete, "rm-protected", LevelCritical},
		{": > /tmp/hotplex/data/hotplex.db", CategoryFileDelete, "overwrite-protected", LevelCritical},
		{"cp /dev/null /tmp/hotplex/data/hotplex.db", CategoryFileDelete, "overwrite-protected", LevelCritical},
		{"truncate -s 0 /tmp/hotplex/data/hotplex.db", CategoryFileDelete, "overwrite-protected", LevelCritical},
		{"echo x >> ../s2/notes.txt", CategoryFileDelete, "write-protected", LevelHigh},
		{"cp payload.sh /tmp/hotplex/work/s2/run.sh", CategoryFileDelete, "overwrite-protected", LevelCritical},
		{"chmod -R 777 /tmp/hotplex/data", "", "", LevelHigh},
		{"chown -R nobody ../s2", CategoryPermission, "chmod-protected", LevelHigh},
		{"sudo rm -rf /tmp/hotplex/work", CategoryFileDelete, "rm-protected", LevelCritical},
	})
	checkSafe(t, d, protectedCtx, []string{
		"rm -rf ./build",
		"rm -rf /tmp/hotplex/work/s1/dist",
		"echo x > /tmp/hotplex/work/s1/out.txt",
		"cat /tmp/hotplex/data/hotplex.log",
		"ls -la ../",
		"rm -rf /tmp/other-job",
		"cp notes.txt /tmp/scratch.txt",
		"chmod +x ./run.sh",
		"cd .. && ls",
	})
	// Without protected paths, /tmp is ordinary.
	plain := protectedCtx
	plain.ProtectedPaths = nil
	checkSafe(t, d, plain, []string{"rm -rf ../s2", "rm /tmp/hotplex/data/hotplex.db"})
}

func TestProtectedFileTools(t *testing.T) {
	d := NewDetector(Options{})
	v := d.CheckToolUse("Write", map[string]any{"file_path": "/tmp/hotplex/data/hotplex.db"}, protectedCtx)
	if !v.Blocked || v.Pattern != "file-protected" {
		t.Errorf("write to the database: %+v", v)
	}
	v = d.CheckToolUse("Write", map[string]any{"file_path": "/tmp/hotplex/work/s1/main.go"}, protectedCtx)
	if v.Blocked {
		t.Errorf("write inside the own work directory: %+v", v)
	}
}

// TestSymlinkedPaths: a path through a link made earlier in the command is
// judged where it leads; the link itself is not what it points to.
func TestSymlinkedPaths(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, testCtx, []dangerCase{
		{"ln -s /outside link && rm -rf link/", CategoryFileDelete, "", LevelHigh},
		{"ln -s /outside link; rm -rf link/*", CategoryFileDelete, "", LevelHigh},
		{"ln -sfn /etc cfg && rm -rf cfg/", CategoryFileDelete, "", LevelCritical},
		{"ln -s ~ h && cd h && rm -rf ./*", CategoryFileDelete, "", LevelCritical},
		{"ln -s /etc/cron.d jobs && cp job jobs/evil", CategoryPersistence, "", LevelHigh},
	})
	checkSafe(t, d, testCtx, []string{
		"ln -s /outside link && rm -rf link",
		"ln -s /outside link && rm link",
		"ln -s ../shared/config.yml config.yml && rm -f config.yml",
		"ln -s build/out latest && rm -rf latest/",
	})
}
