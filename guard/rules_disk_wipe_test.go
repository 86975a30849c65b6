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

// Formatting a volume through WMI is formatting it.
func TestWmiFormat(t *testing.T) {
	d := NewDetector(Options{})
	ps := winCorpusContextFor("powershell")
	checkDanger(t, d, ps, []dangerCase{
		{`(Get-CimInstance Win32_Volume -Filter "DriveLetter='D:'") | Invoke-CimMethod -MethodName Format -Arguments @{FileSystem='NTFS';QuickFormat=$true}`, CategoryDiskWipe, "win-wmi-format", LevelCritical},
	})
	checkSafe(t, d, ps, []string{
		`Get-CimInstance Win32_Volume | Select-Object DriveLetter, FreeSpace`,
	})
}

// Erasing a flash device is wiping it.
func TestFlashErase(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`flash_erase /dev/mtd0 0 0`, CategoryDiskWipe, "wipefs", LevelCritical},
	})
	checkSafe(t, d, corpusContext, []string{
		`flash_erase --help`,
	})
}

// diskpart fed a script through a pipe.
func TestDiskpartFromAPipe(t *testing.T) {
	d := NewDetector(Options{})
	gb := winCorpusContextFor("gitbash")
	checkDanger(t, d, gb, []dangerCase{
		{`printf 'select disk 1\nclean\n' | diskpart`, CategoryDiskWipe, "win-diskpart-piped", LevelCritical},
	})
	checkSafe(t, d, gb, []string{
		`printf 'list disk\n' | diskpart`,
	})
}

// Imaging and rescue tools writing over a disk device, and the
// machine's firmware rewritten; images written to files are not.
func TestImagingToolsOntoDisks(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`sudo qemu-img convert -O raw vm.qcow2 /dev/nvme1n1`, CategoryDiskWipe, "image-onto-disk", LevelCritical},
		{`sudo qemu-img create -f raw /dev/sdc 10G`, CategoryDiskWipe, "image-onto-disk", LevelCritical},
		{`sudo bmaptool copy os.wic.gz /dev/sdd`, CategoryDiskWipe, "image-onto-disk", LevelCritical},
		{`sudo dcfldd if=/dev/urandom of=/dev/sdb`, CategoryDiskWipe, "", LevelCritical},
		{`sudo flashrom -p internal -w rom.bin`, CategoryDiskWipe, "image-onto-disk", LevelCritical},
	})
	checkSafe(t, d, corpusContext, []string{
		`qemu-img convert -O raw vm.qcow2 vm.raw`,
		`qemu-img create -f qcow2 disk.qcow2 20G`,
		`bmaptool copy os.wic.gz os.img`,
		`flashrom -p internal -r backup.bin`,
	})
}

// A loop device set up over a real disk is that disk.
func TestLoopDevicesOverDisks(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`sudo losetup /dev/loop7 /dev/nvme0n1 && sudo mkfs.xfs -f /dev/loop7`, CategoryDiskWipe, "mkfs-device", LevelCritical},
	})
	checkSafe(t, d, corpusContext, []string{
		`sudo losetup /dev/loop7 ./disk.img && sudo mkfs.ext4 /dev/loop7`,
	})
}

// Copying a partition table out reads the disk; writing one back does not.
func TestPartitionTableBackup(t *testing.T) {
	d := NewDetector(Options{})
	checkSafe(t, d, corpusContext, []string{`sudo sgdisk --backup=/mnt/backup/sda-gpt.bak /dev/sda`})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`sudo sgdisk --load-backup=/tmp/other.bak /dev/sda`, CategoryDiskWipe, "partition-table", LevelCritical},
	})
}

// dd reading a disk into an image file makes a backup; writing zeros or
// another image over a machine's disk image destroys it.
func TestDiskImagedIntoFile(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`dd if=/dev/zero of=~/vms/ubuntu.qcow2 bs=1M count=10`, CategoryDiskWipe, "disk-image-overwrite", LevelModerate},
		{`dd if=./seed.img of=~/vms/build.img bs=4M`, CategoryDiskWipe, "disk-image-overwrite", LevelModerate},
	})
	checkSafe(t, d, corpusContext, []string{
		`sudo dd if=/dev/sdc of=~/sd-card-backup.img bs=4M status=progress`,
		`sudo dd if=/dev/nvme0n1p2 of=/mnt/backup/root.raw bs=8M`,
	})
}
