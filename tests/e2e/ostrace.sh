#!/usr/bin/env bash
# --trace os on a program with known waits (tests/targets/ostrace_waits.c): 0.3 s in
# nanosleep, ~0.2 s on a mutex another thread holds, ~0.1 s in a pipe read, exactly 1000
# getppid calls. The program times each wait and each thread's life itself (CLOCK_MONOTONIC,
# into a facts file); the report must show the 1000 calls exactly, charge each wait within
# 20 % of the program's own figure to the function that blocked with its wait kind, give
# each thread running + runnable + blocked adding up to its lifetime within 5 %, and leave
# the program's stdout byte-identical. Then the same beside two CPU hogs: runnable time
# appears, the checks still hold.
. "$(dirname "$0")/lib/common.sh"

T=$TGT/ostrace_waits
"$T" "$SCRATCH/bare.facts" >"$SCRATCH/bare.out" 2>/dev/null
check "the target runs bare" [ $? -eq 0 ]

# one run of collect + report into $SCRATCH/$1 ; the facts file is $SCRATCH/$1.facts
traced() {
	"$UPROF" collect --trace os -o "$SCRATCH/$1" "$T" "$SCRATCH/$1.facts" \
		>"$SCRATCH/$1.out" 2>"$SCRATCH/$1.err"
}

traced plain
rc=$?
if [ $rc -ne 0 ] && grep -q 'tracefs\|not readable\|permission' "$SCRATCH/plain.err"; then
	ok "# SKIP OS tracing not possible here: $(head -c 300 "$SCRATCH/plain.err")"
	exit 0
fi
check "collect --trace os exits 0 ($(tail -c 300 "$SCRATCH/plain.err"))" [ $rc -eq 0 ]

fact() { sed -n "s/^$2 \([0-9]*\)$/\1/p" "$SCRATCH/$1.facts"; }
# rows of a report section, tab-separated
rows() { csvq "$1/report.csv" "$2"; }
# within GOT_SECONDS OWN_NS PCT: |got - own| <= PCT % of own
within() { awk -v g="$1" -v o="$2" -v p="$3" 'BEGIN { o /= 1e9; d = g - o; if (d < 0) d = -d; exit !(g != "" && o > 0 && d <= o * p / 100) }'; }

# all the checks on one run, named $1
checks() {
	local run=$1 S R main locker writer
	S=$(session_in "$SCRATCH/$run")
	"$UPROF" report -i "$S" >/dev/null 2>"$SCRATCH/$run.report.err"
	check "$run: report exits 0" [ $? -eq 0 ]
	R=$S/report.csv
	check "$run: stdout byte-identical to a bare run" cmp -s "$SCRATCH/bare.out" "$SCRATCH/$run.out"
	check "$run: no record lost (collect says 0 lost)" grep -q ' 0 lost$' "$SCRATCH/$run.err"
	local calls
	calls=$(rows "$S" "SYSTEM CALL SUMMARY" | awk -F'\t' '$2 == "getppid" { print $3 }')
	check "$run: exactly 1000 getppid calls in SYSTEM CALL SUMMARY (got '$calls')" [ "$calls" = 1000 ]
	calls=$(rows "$S" "SYSTEM CALLS BY THREAD" | awk -F'\t' -v t="$(fact "$run" main_tid)" \
		'$3 == t && $4 == "getppid" { print $5 }')
	check "$run: all 1000 on the main thread (got '$calls')" [ "$calls" = 1000 ]
	# each wait: OFF-CPU FUNCTIONS row of (function, kind) within 20 % of the program's own time
	local fn kind key own got
	for w in "sleep_in_nanosleep sleep sleep_ns" "wait_for_mutex lock mutex_ns" \
		"read_from_pipe I/O read_ns"; do
		read -r fn kind key <<<"$w"
		own=$(fact "$run" "$key")
		got=$(rows "$S" "OFF-CPU FUNCTIONS" | awk -F'\t' -v f="$fn" -v k="$kind" \
			'$1 == f && $2 == k { print $4 }')
		echo "# $run: $fn ($kind): program measured $own ns, report $got s"
		check_sh "$run: $fn's wait charged to it as $kind within 20 % of its own $key ($got s vs $own ns)" \
			'[ -n "$got" ] && [ -n "$own" ] && within "$got" "$own" 20'
	done
	# no wait charged to a function that did not wait that way
	check_sh "$run: sleep_in_nanosleep has no lock or I/O time" \
		'! rows "$S" "OFF-CPU FUNCTIONS" | awk -F"\t" "\$1 == \"sleep_in_nanosleep\" && \$2 != \"sleep\"" | grep -q .'
	# thread states: per thread, running + runnable + blocked against its lifetime (5 %), and
	# the lifetime against the program's own measurement of it
	local tid life sum unacc ownlife
	for th in "main_tid main_life_ns" "locker_tid locker_life_ns" "writer_tid writer_life_ns"; do
		read -r key ownlife <<<"$th"
		tid=$(fact "$run" "$key")
		ownlife=$(fact "$run" "$ownlife")
		read -r life sum unacc runnable < <(rows "$S" "THREAD STATES" | awk -F'\t' -v t="$tid" \
			'$3 == t { printf "%s %.6f %s %s\n", $4, $5 + $6 + $7, $12, $6 }')
		echo "# $run: thread $key=$tid lifetime $life s, states $sum s, unaccounted $unacc s; its own clock $ownlife ns"
		check_sh "$run: $key's running + runnable + blocked = its lifetime within 5 % ($sum of $life s, $unacc unaccounted)" \
			'[ -n "$life" ] && within "$sum" "$(awk -v l="$life" "BEGIN { printf \"%.0f\", l * 1e9 }")" 5'
		# the program's clock runs inside the thread's life: the states cover it, and add
		# at most 5 % (+ 50 ms for the exec and exit of main, outside its clock, on a
		# loaded machine)
		# the thread's clock starts at its first instruction: before it, a new thread (or
		# main, in the dynamic loader) may wait for a CPU for 100 ms beside the hogs on a
		# loaded machine; what the states hold beyond its own clock must be that runnable
		# time, within 5 %
		check_sh "$run: $key's states cover its own measured life within 5 %, the rest runnable ($sum s vs $ownlife ns, $runnable runnable)" \
			'[ -n "$sum" ] && awk -v s="$sum" -v o="$ownlife" -v r="$runnable" "BEGIN { o /= 1e9; exit !(s >= o * 0.95 && s - o <= r + o * 0.05) }"'
	done
	# who woke the lock wait: main, which unlocked it; by its function, or by its thread
	# when the waker's stack was not recorded (the suite once saw no main there, under load)
	local main_tid
	main_tid=$(fact "$run" main_tid)
	rows "$S" "LOCK WAKERS" | awk -F'\t' '$4 == "wait_for_mutex"' | sed "s/^/# $run: LOCK WAKERS: /"
	check_sh "$run: LOCK WAKERS names main as the waker of wait_for_mutex" \
		'rows "$S" "LOCK WAKERS" | awk -F"\t" -v m="$main_tid" "\$4 == \"wait_for_mutex\" && (\$7 == \"main\" || \$6 == m)" | grep -q .'
	# the slowest calls name their call site
	check_sh "$run: the 0.3 s clock_nanosleep is among the slowest calls, at sleep_in_nanosleep" \
		'rows "$S" "SLOWEST SYSTEM CALLS" | awk -F"\t" "\$4 == \"clock_nanosleep\" && \$8 == \"sleep_in_nanosleep\" && \$6 > 0.25" | grep -q .'
	# one of the three long waits (beside the hogs main's 0.2 s hold, runnable after its
	# timer, and the mutex wait it makes longer may outlast the 0.3 s sleep)
	check_sh "$run: the terminal's OS trace line names the longest wait ($(grep '^OS trace' "$SCRATCH/$run.report.err"))" \
		'grep -qE "^OS trace: [0-9]+ system calls .*; longest off CPU: (sleep_in_nanosleep \(sleep\)|main \(sleep\)|wait_for_mutex \(lock\)) 0\.[2-9]" "$SCRATCH/$run.report.err"'
	R_LAST=$S
}

checks plain
if command -v perf >/dev/null; then
	# samples.data carries perf's tracing data (the tracepoints' formats): perf script
	# names each tracepoint and decodes its fields
	perf script -G -F tid,event,trace -i "$R_LAST/samples.data" >"$SCRATCH/perf.txt" 2>"$SCRATCH/perf.err"
	n=$(grep -cE 'raw_syscalls:sys_(enter|exit):|sched:sched_(switch|wakeup):' "$SCRATCH/perf.txt")
	check "perf script names the tracepoints in samples.data ($n lines, 2000+ for the calls alone; $(head -c 200 "$SCRATCH/perf.err" | tr '\n' ' '))" \
		[ "${n:-0}" -ge 2000 ]
	n=$(grep -c 'unknown' "$SCRATCH/perf.txt")
	check "none as an unknown tracepoint ($n)" [ "$n" = 0 ]
	getppid=$(echo '#include <sys/syscall.h>' | cc -E -dM - | awk '$2 == "__NR_getppid" { print $3 }')
	n=$(grep -cE "^ *$(fact plain main_tid) +raw_syscalls:sys_enter: +NR $getppid " "$SCRATCH/perf.txt")
	check "perf decodes the fields: main's sys_enter with NR $getppid (getppid) $n times, the program's 1000" \
		[ "$n" = 1000 ]
else
	ok "# SKIP perf is not installed"
fi

# beside two CPU hogs: the spinning function is preempted, runnable time appears
hog() { while :; do :; done; }
hog & h1=$!
hog & h2=$!
traced hogs
rc=$?
kill "$h1" "$h2" 2>/dev/null
wait "$h1" "$h2" 2>/dev/null
check "collect --trace os beside two hogs exits 0" [ $rc -eq 0 ]
checks hogs
S=$(session_in "$SCRATCH/hogs")
run=$(rows "$S" "THREAD STATES" | awk -F'\t' -v t="$(fact hogs main_tid)" '$3 == t { print $6 }')
check_sh "hogs: the main thread was runnable (preempted) for some time ($run s)" \
	'[ -n "$run" ] && awk -v r="$run" "BEGIN { exit !(r > 0.005) }"'
pre=$(rows "$S" "THREAD STATES" | awk -F'\t' -v t="$(fact hogs main_tid)" '$3 == t { print $14 }')
check_sh "hogs: and preempted more than once ($pre)" '[ "${pre:-0}" -gt 1 ]'

# bad input: one line naming what was wrong, nothing started
expect_fail 2 "an unknown --trace os event is refused with the list" \
	"unknown event 'bogus'; events: syscall, pthread, sched, pagefault" \
	"$UPROF" collect --trace os=syscall,bogus -o "$SCRATCH/bad" "$T" "$SCRATCH/bad.facts"
expect_fail 2 "a threshold that is not a number is refused" \
	"threshold 'soon' of syscall is not a number of microseconds" \
	"$UPROF" collect --trace os=syscall:soon -o "$SCRATCH/bad" "$T" "$SCRATCH/bad.facts"
expect_fail 2 "--osrt-threshold of another kind is refused" "give pthread:NS, syscall:NS or NS" \
	"$UPROF" collect --trace os --osrt-threshold function:10 -o "$SCRATCH/bad" "$T" "$SCRATCH/bad.facts"
expect_fail 1 "no tracefs: says how to mount it" "tracefs is not mounted .*mount -t tracefs" \
	env UPROF_TRACEFS_ROOT="$SCRATCH/none" "$UPROF" collect --trace os -o "$SCRATCH/bad" "$T" "$SCRATCH/bad.facts"
check "and leaves no session behind" [ -z "$(ls -A "$SCRATCH/bad" 2>/dev/null)" ]
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	mkdir -p "$SCRATCH/nobody" && chmod 777 "$SCRATCH/nobody" && chmod 711 "$SCRATCH"
	expect_fail 1 "an unprivileged user is told what OS tracing needs" \
		"needs root \(or CAP_PERFMON" \
		setpriv --reuid=65534 --regid=65534 --clear-groups "$UPROF" collect --trace os \
		-o "$SCRATCH/nobody" /bin/true
else
	ok "# SKIP not root: no second user to try"
fi
