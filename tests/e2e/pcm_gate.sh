#!/usr/bin/env bash
# uprof pcm --wait-for-signal / --start-delay: counting starts later than the program. The
# program faults in 5000 fresh pages, then (--wait-for-signal) sends uprof SIGUSR1 itself;
# it waits until uprof's stderr says "counting started", faults in 3000 more pages and
# writes its own page-fault count for those (getrusage). pcm's Page Faults must be those
# 3000 and what follows them to the exit, not the 5000 before: within [self, self + 200].
. "$(dirname "$0")/lib/common.sh"

PROG='import os, resource, sys, time, mmap, signal
mode, errf, outf = sys.argv[1:4]
def faults(): return resource.getrusage(resource.RUSAGE_SELF).ru_minflt
def touch(n):
	m = mmap.mmap(-1, n * 4096)
	for i in range(n): m[i * 4096] = 1
	return m
keep = [touch(5000)]
early = "counting started" in open(errf).read()
if mode == "usr1": os.kill(os.getppid(), signal.SIGUSR1)
while "counting started" not in open(errf).read(): time.sleep(0.01)
f0 = faults(); keep.append(touch(3000)); f1 = faults()
open(outf, "w").write("%d %d\n" % (f1 - f0, early))'
metric() { grep "^$1," "$SCRATCH/pcm.csv" | cut -d, -f2; }

# run MODE OPTIONS...: the program under pcm -C with OPTIONS
run() {
	local mode=$1; shift
	: >"$SCRATCH/err"
	"$UPROF" pcm -m swi -C -o "$SCRATCH/pcm.csv" "$@" -- "$PYTHON" -c "$PROG" "$mode" \
		"$SCRATCH/err" "$SCRATCH/self" 2>"$SCRATCH/err"
	rc=$?
	read -r self early <"$SCRATCH/self"
	pf=$(metric "Page Faults")
}

run usr1 --wait-for-signal
check_sh "--wait-for-signal: exit 0; told how to start, then that counting started" \
	'[ $rc = 0 ] && grep -q "^uprof pcm: waiting for SIGUSR1 (kill -USR1 [0-9]*) to start counting; SIGINT ends the run$" "$SCRATCH/err" && grep -qx "uprof pcm: counting started" "$SCRATCH/err"'
check_sh "--wait-for-signal: Page Faults $pf are the program's $self after SIGUSR1 (not the 5000 before)" \
	'[ "$pf" -ge "$self" ] && [ "$pf" -le $((self + 200)) ]'

run delay --start-delay 3000
if [ "$early" = 1 ]; then
	ok "--start-delay: Page Faults after the delay # SKIP the program started too slowly to fault its first pages within the 3 s delay"
else
	check_sh "--start-delay 3000: Page Faults $pf are the program's $self after the delay" \
		'[ $rc = 0 ] && [ "$pf" -ge "$self" ] && [ "$pf" -le $((self + 200)) ]'
fi

# the program ends before the signal comes: nothing counted, said; the program's status
"$UPROF" pcm -m swi -C --wait-for-signal -- /bin/sh -c 'exit 3' >"$SCRATCH/out" 2>"$SCRATCH/err"
rc=$?
check_sh "--wait-for-signal, program exits first: its status 3, 'nothing was counted', no table" \
	'[ $rc = 3 ] && grep -qx "uprof pcm: the run ended before counting started: nothing was counted" "$SCRATCH/err" && [ ! -s "$SCRATCH/out" ]'
# -d counts from the start of counting: 0.5 s of delay, then 0.3 s of 100 ms rows (3; 2
# when a reading late on a loaded machine passes the end); the run lasts at least 0.8 s
t0=$(date +%s%N)
"$UPROF" pcm -m swi -a -I 100 -d 0.3 --start-delay 500 >"$SCRATCH/out" 2>"$SCRATCH/err"
t1=$(date +%s%N)
rows=$(grep -cE '^[0-9]{2}:[0-9]{2}:[0-9]{2}' "$SCRATCH/out")
check "--start-delay 500 -d 0.3: $rows rows of 100 ms after the delay, $(((t1 - t0) / 1000000)) ms in all (>= 800)" \
	[ \( "$rows" = 3 -o "$rows" = 2 \) -a $((t1 - t0)) -ge 800000000 ]

expect_fail 2 "--start-delay abc" "--start-delay 'abc': milliseconds, 0 .. 86400000" \
	"$UPROF" pcm -m swi -C --start-delay abc -- /bin/true
expect_fail 2 "--start-delay -5" "--start-delay '-5': milliseconds" \
	"$UPROF" pcm -m swi -C --start-delay -5 -- /bin/true
expect_fail 2 "--start-delay 1.5" "--start-delay '1.5': milliseconds" \
	"$UPROF" pcm -m swi -C --start-delay 1.5 -- /bin/true
exit 0
