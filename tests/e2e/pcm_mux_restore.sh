#!/usr/bin/env bash
# uprof pcm -t changes a system setting, each PMU's perf_event_mux_interval_ms: it puts
# the old value back on every way out. Here on the software PMU (what pcm -m swi counts
# on a machine without a core PMU): a normal end, an error after the change (an output
# file that cannot be made), SIGTERM, SIGINT and SIGHUP (read by pcm's loop), SIGPIPE (the
# reader of its stdout gone) and SIGSEGV (a crash: the handler writes the kept value and
# pcm dies of the signal). Each time the file held -t's value while pcm ran (so the check
# can fail) and holds the old one after.
# run-alone: it changes the software PMU's perf_event_mux_interval_ms, a system setting
. "$(dirname "$0")/lib/common.sh"

F=/sys/bus/event_source/devices/software/perf_event_mux_interval_ms
if [ "$(id -u)" -ne 0 ] || [ ! -w "$F" ]; then
	ok "# SKIP pcm -t restore: $F is not writable here (needs root)"
	exit 0
fi
OLD=$(cat "$F")
trap 'echo "$OLD" >"$F"; rm -rf "$SCRATCH"' EXIT
T=$((OLD == 17 ? 19 : 17)) # a value other than the current one
echo "# $F is $OLD; pcm -t $T"

# changed_while P: wait (at most ~10 s) for pcm P to have written -t's value; what F held
changed_while() {
	for _ in $(seq 200); do
		[ "$(cat "$F")" = "$T" ] && break
		kill -0 "$1" 2>/dev/null || break
		sleep 0.05
	done
	cat "$F"
}

# a normal end
"$UPROF" pcm -m swi -t "$T" -o "$SCRATCH/n.csv" -- "$TGT/demo" 300 >/dev/null 2>"$SCRATCH/err"; rc=$?
check "normal end (exit $rc): the interval is $OLD again ($(cat "$F"))" bash -c "[ $rc = 0 ] && [ \"\$(cat $F)\" = '$OLD' ]"
check "and the CSV said the interval pcm used" grep -qx "Multiplex interval (ms):,$T" "$SCRATCH/n.csv"

# an error after the change: the output file cannot be made
"$UPROF" pcm -m swi -t "$T" -o "$SCRATCH/no/such/dir.csv" -- "$TGT/demo" 10 >/dev/null 2>"$SCRATCH/err"; rc=$?
check "an error after the change (exit $rc, $(head -c 120 "$SCRATCH/err")): the interval is $OLD again" \
	bash -c "[ $rc = 1 ] && [ \"\$(cat $F)\" = '$OLD' ]"

# signals pcm's loop reads, and one that kills it at once
# (each pcm leads its own process group, setsid: what it leaves running when a signal
# kills it, its program, is ended by the group's id)
for sig in TERM INT HUP SEGV; do
	setsid "$UPROF" pcm -m swi -t "$T" -o "$SCRATCH/$sig.csv" -- "$TGT/demo" 2000 >/dev/null 2>"$SCRATCH/err" &
	p=$!
	during=$(changed_while $p)
	kill -$sig $p
	wait $p; rc=$?
	kill -KILL -- -$p 2>/dev/null
	want=0 # pcm waits for the program, whose status it returns
	[ $sig = SEGV ] && want=$((128 + 11))
	check "SIG$sig (exit $rc, want $want): $T while pcm ran ($during), $OLD after ($(cat "$F"))" \
		bash -c "[ $rc = $want ] && [ '$during' = '$T' ] && [ \"\$(cat $F)\" = '$OLD' ]"
done

# SIGPIPE: the reader of the rows goes after the first line
setsid "$UPROF" pcm -m swi -t "$T" -I 10 -- "$TGT/demo" 2000 2>/dev/null > >(head -1 >/dev/null) &
p=$!
wait $p; rc=$?
kill -KILL -- -$p 2>/dev/null
check "SIGPIPE (exit $rc): the interval is $OLD again ($(cat "$F"))" \
	bash -c "[ $rc = $((128 + 13)) ] && [ \"\$(cat $F)\" = '$OLD' ]"
exit 0
