package guard

import "testing"

// A loop device is a file seen as a disk: formatting it erases no disk.
func TestLoopDevicesAreNotDisks(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`sudo mkfs.ext4 -q /dev/sdb1`, CategoryDiskWipe, "mkfs-device", LevelCritical},
		{`sudo wipefs -a /dev/nvme0n1`, CategoryDiskWipe, "wipefs", LevelCritical},
		{`sudo mkfs.ext4 /dev/loop-control`, CategoryDiskWipe, "mkfs-device", LevelCritical},
	})
	checkSafe(t, d, corpusContext, []string{
		`sudo mkfs.ext4 -q /dev/loop7`,
		`sudo wipefs -a /dev/loop7`,
	})
}
