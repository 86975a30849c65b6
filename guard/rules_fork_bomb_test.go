package guard

import "testing"

// Git Bash's start returns at once, as & does: an endless loop of it
// starts processes without end.
func TestLoopsOfDetachedStarts(t *testing.T) {
	d := NewDetector(Options{})
	gb := winCorpusContextFor("gitbash")
	checkDanger(t, d, gb, []dangerCase{
		{`while :; do start bash; done`, CategoryForkBomb, "fork-bomb-loop", LevelCritical},
	})
	checkSafe(t, d, gb, []string{
		`start notepad README.md`,
		`for i in 1 2 3; do start bash; done`,
	})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`while true; do setsid -f sleep 1000; done`, CategoryForkBomb, "fork-bomb-loop", LevelCritical},
	})
}

// A program that holds its whole input, reading an endless device;
// a parallel build without a job limit; a bounded read of a size no disk
// holds.
func TestEndlessInputsAndUnboundedJobs(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`sort /dev/urandom`, CategoryForkBomb, "endless-input-buffered", LevelHigh},
		{`cat /dev/zero | tac`, CategoryForkBomb, "endless-input-buffered", LevelHigh},
		{`shuf < /dev/urandom`, CategoryForkBomb, "endless-input-buffered", LevelHigh},
		{`make -j all`, CategoryForkBomb, "make-unbounded-jobs", LevelModerate},
		{`gmake --jobs`, CategoryForkBomb, "make-unbounded-jobs", LevelModerate},
		{`head -c 200G /dev/zero > /tmp/blob`, CategoryDiskWipe, "disk-fill", LevelModerate},
	})
	checkSafe(t, d, corpusContext, []string{
		`head -c 32 /dev/urandom | base64`,
		`sort words.txt`,
		`tail -f /var/log/app.log`,
		`make -j8`,
		`make -j "$(nproc)"`,
		`make -j $(nproc) test`,
		`head -c 10M /dev/zero > /tmp/blob`,
	})
}

// Thousands of replicas asked of any client; the usual handful is not.
func TestRunawayScale(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`kubectl --context prod scale deploy api --replicas=10000`, CategoryForkBomb, "scale-runaway", LevelHigh},
		{`cloudctl scale web=5000`, CategoryForkBomb, "scale-runaway", LevelHigh},
		{`svcctl update api --desired-count 2000`, CategoryForkBomb, "scale-runaway", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`kubectl --context prod scale deploy api --replicas=3`,
		`cloudctl scale web=2`,
		`head --count 10000 data.csv`,
	})
}

// An endless loop that leaves something behind on every pass: detached
// containers, or files named after a counter; a paused or bounded loop,
// or one whose container ends with each pass, does not.
func TestEndlessLoopsThatPileUp(t *testing.T) {
	d := NewDetector(Options{})
	checkDanger(t, d, corpusContext, []dangerCase{
		{`while :; do podman run -d busybox sleep 9999; done`, CategoryForkBomb, "fork-bomb-loop", LevelHigh},
		{`n=0; while true; do mkdir /tmp/d$n; n=$((n+1)); done`, CategoryForkBomb, "fork-bomb-loop", LevelHigh},
		{`until false; do docker run --detach nginx; done`, CategoryForkBomb, "fork-bomb-loop", LevelHigh},
	})
	checkSafe(t, d, corpusContext, []string{
		`while true; do docker run --rm alpine date; done`,
		`while true; do docker run -d --rm alpine true; sleep 30; done`,
		`for i in $(seq 1 5); do touch /tmp/f$i; done`,
		`while true; do touch /tmp/heartbeat; done`,
	})
}
