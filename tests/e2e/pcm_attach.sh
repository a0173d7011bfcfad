#!/usr/bin/env bash
# uprof pcm --pid / --tid: software counters (swi) of a task that is already running, until
# it ends. The task waits on a FIFO until uprof's counters are open (their fds show in
# /proc/<uprof>/fd), spins, then writes the CPU time it used after the wait and its own page
# faults from getrusage/times, and exits; pcm's CPU Time and Page Faults are compared with
# those. Bad values are refused in one line.
. "$(dirname "$0")/lib/common.sh"

FIFO=$SCRATCH/go
SPIN='import os, resource, sys, time
r = open(sys.argv[1]); r.read(1)
t0 = os.times(); f0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
end = time.monotonic() + 0.6
x = 0
while time.monotonic() < end:
	x += 1
t1 = os.times(); f1 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
open(sys.argv[2], "w").write("%d %d\n" % (round((t1.user + t1.system - t0.user - t0.system) * 1000), f1 - f0))'

# attach_run OPTION: start the spinner, count it with OPTION <its id>, release it once the
# counters are open; leaves pcm's CSV in $SCRATCH/pcm.csv and the task's own numbers in
# $SCRATCH/self
attach_run() {
	rm -f "$FIFO" "$SCRATCH/self"
	mkfifo "$FIFO"
	"$PYTHON" -c "$SPIN" "$FIFO" "$SCRATCH/self" &
	local task=$! id
	id=$task
	"$UPROF" pcm -m swi "$1" "$id" -C -o "$SCRATCH/pcm.csv" 2>"$SCRATCH/pcm.err" &
	local up=$! i
	for i in $(seq 1 600); do
		ls -l /proc/$up/fd 2>/dev/null | grep -q perf_event && break
		sleep 0.05
	done
	echo go >"$FIFO"
	wait $task
	wait $up
	rc=$?
}
metric() { grep "^$1," "$SCRATCH/pcm.csv" | cut -d, -f2; }

for opt in --pid --tid; do
	attach_run $opt
	read -r self_ms self_faults <"$SCRATCH/self"
	pcm_ms=$(metric "CPU Time (ms)")
	check "$opt: pcm ended when the task did, exit 0, the cumulative CSV written" \
		[ "$rc" = 0 -a -n "$pcm_ms" ]
	# the task's own times() tick is 10 ms; pcm also counts the wait's wake-up and the exit
	# (a few ms): pcm within [self - 20, self + 60] ms
	check_sh "$opt: CPU Time ${pcm_ms} ms is the task's own ${self_ms} ms (-20/+60 ms)" \
		'"$PYTHON" -c "import sys; p, s = float(sys.argv[1]), float(sys.argv[2]); sys.exit(0 if s - 20 <= p <= s + 60 else 1)" "$pcm_ms" "$self_ms"'
	check_sh "$opt: Page Faults $(metric "Page Faults") at least the task's own $self_faults in the spin" \
		'[ "$(metric "Page Faults")" -ge "$self_faults" ]'
done

# refusals: one line, exit 2
expect_fail 2 "--pid abc" "--pid 'abc': a process or thread id" "$UPROF" pcm -m swi --pid abc -C
expect_fail 2 "--pid 0" "--pid '0': a process or thread id" "$UPROF" pcm -m swi --pid 0 -C
expect_fail 2 "--tid -3" "--tid '-3': a process or thread id" "$UPROF" pcm -m swi --tid -3 -C
expect_fail 2 "--pid of no process" "--pid 1073741823: no such process running" \
	"$UPROF" pcm -m swi --pid 1073741823 -C
expect_fail 2 "--pid with a program" "--pid/--tid count a running task: no program" \
	"$UPROF" pcm -m swi --pid $$ -C -- /bin/true
expect_fail 2 "--pid with -a" "not with -a or -c" "$UPROF" pcm -m swi --pid $$ -a -C
expect_fail 2 "--pid and --tid" "--pid and --tid name one task" \
	"$UPROF" pcm -m swi --pid $$ --tid $$ -C
# a thread of a process is not a process
"$PYTHON" -c 'import threading, time, os, sys
e = threading.Event()
t = threading.Thread(target=e.wait); t.start()
print(t.native_id, flush=True); time.sleep(30)' >"$SCRATCH/tid" &
py=$!
for i in $(seq 1 100); do [ -s "$SCRATCH/tid" ] && break; sleep 0.05; done
tid=$(cat "$SCRATCH/tid")
expect_fail 2 "--pid of a thread" "--pid $tid: a thread of process $py; give --pid $py" \
	"$UPROF" pcm -m swi --pid "$tid" -C
"$UPROF" pcm -m swi --pid $py -d 0.2 -C >/dev/null 2>"$SCRATCH/err"
check_sh "--pid of a 2-thread process: one note says the running thread is not counted" \
	'[ "$(grep -c "note: --pid $py has 2 threads already running" "$SCRATCH/err")" = 1 ]'
kill $py
wait $py 2>/dev/null
exit 0
