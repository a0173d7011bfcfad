#!/usr/bin/env bash
# uProf's collect, report and translate options beyond issue 16's: the aliases that work
# (--data-buffer-count = -m, --call-graph-type = the scope of --call-graph's 5.x form, or a
# mode as --call-graph-mode, --wait-for-signal)
# shown by their effect,
# and the ones refused: one line naming the option and the reason, exit 2, nothing run.
. "$(dirname "$0")/lib/common.sh"

# --data-buffer-count is -m: the same check of its value, the same ring size
expect_fail 2 "--data-buffer-count 3: -m's check" "^uprof collect: -m/--mmap-pages '3' must be a power of two" \
	"$UPROF" collect --data-buffer-count 3 -o "$SCRATCH/a" /bin/true
"$UPROF" collect --data-buffer-count 8 -o "$SCRATCH/b" "$TGT/demo" 20 >/dev/null 2>"$SCRATCH/err"; rc=$?
check "--data-buffer-count 8: a session (exit $rc)" bash -c "[ $rc = 0 ] && [ -n \"\$(ls -d '$SCRATCH/b'/uprof-* 2>/dev/null)\" ]"
# --call-graph-type is --call-graph-mode: fpo means dwarf stacks
"$UPROF" collect --call-graph-type fpo -o "$SCRATCH/c" "$TGT/demo" 20 >/dev/null 2>"$SCRATCH/err"
check "--call-graph-type fpo: dwarf stacks, as --call-graph-mode fpo" grep -q '^Profiling started: .*with call stacks (dwarf: 8192 bytes of stack per sample' "$SCRATCH/err"
"$UPROF" collect --call-graph-type fp -o "$SCRATCH/c2" "$TGT/demo" 20 >/dev/null 2>"$SCRATCH/err"
check "--call-graph-type fp: frame pointers" grep -q '^Profiling started: .*with call stacks (frame pointers' "$SCRATCH/err"
expect_fail 2 "--call-graph-type xyz refused" "^uprof collect: --call-graph-type 'xyz': the stacks' scope, user, kernel or all" \
	"$UPROF" collect --call-graph-type xyz -o "$SCRATCH/d" /bin/true
# --call-graph-type SCOPE: the scope field of 1:128:SCOPE:fp, stacks on in fp mode (or the mode given)
for sc in user kernel all; do
	"$UPROF" collect --call-graph-type $sc -o "$SCRATCH/t$sc" "$TGT/demo" 20 >/dev/null 2>&1
	"$UPROF" collect --call-graph 1:128:$sc:fp -o "$SCRATCH/u$sc" "$TGT/demo" 20 >/dev/null 2>&1
	a=$(grep -E '^(mode|scope|depth) =' "$(session_in "$SCRATCH/t$sc")/session.ini")
	b=$(grep -E '^(mode|scope|depth) =' "$(session_in "$SCRATCH/u$sc")/session.ini")
	check "--call-graph-type $sc: session.ini's call graph is --call-graph 1:128:$sc:fp's ($(echo $a))" \
		bash -c "[ -n '$a' ] && [ '$a' = '$b' ] && grep -q 'scope = $sc' <<<'$a' && grep -q 'mode = fp' <<<'$a'"
done
"$UPROF" collect --call-graph dwarf --call-graph-type user -o "$SCRATCH/td" "$TGT/demo" 20 >/dev/null 2>&1
check "--call-graph dwarf --call-graph-type user: dwarf stacks of user scope" \
	bash -c "grep -q 'mode = dwarf' '$(session_in "$SCRATCH/td")/session.ini' && grep -q 'scope = user' '$(session_in "$SCRATCH/td")/session.ini'"

# --wait-for-signal: nothing sampled until uprof gets SIGUSR1, then sampling as usual
"$UPROF" collect --wait-for-signal -o "$SCRATCH/w0" "$TGT/demo" 200 >/dev/null 2>"$SCRATCH/w0.err" &
P=$!; wait $P; rc=$?
S0=$(session_in "$SCRATCH/w0")
check "--wait-for-signal, no signal: exit 0, says how to start it (uprof's pid $P)" grep -qx "Profiling starts at SIGUSR1 (kill -USR1 $P): target pid [0-9]*" "$SCRATCH/w0.err"
check "--wait-for-signal, no signal: 0 samples" bash -c "[ $rc = 0 ] && grep -qx 'samples = 0' '$S0/session.ini'"
"$UPROF" collect --wait-for-signal -o "$SCRATCH/w1" "$TGT/demo" 2000 >/dev/null 2>"$SCRATCH/w1.err" &
P=$!
for _ in $(seq 100); do grep -q SIGUSR1 "$SCRATCH/w1.err" && break; sleep 0.1; done
sleep 0.5 # the signal at least this late: the delay said is at least as long
kill -USR1 $P; wait $P; rc=$?
S1=$(session_in "$SCRATCH/w1")
delay=$(sed -nE 's/^Profiling started after ([0-9.e+-]+) s: .*/\1/p' "$SCRATCH/w1.err")
check "--wait-for-signal + SIGUSR1: exit 0, started after $delay s (>= the 0.5 s waited)" bash -c "[ $rc = 0 ] && [ -n '$delay' ] && awk 'BEGIN { exit !($delay >= 0.5) }'"
n=$(sed -n 's/^samples = //p' "$S1/session.ini"); cpu=$(sed -n 's/^cpu_ns = //p' "$S1/session.ini")
check "--wait-for-signal + SIGUSR1: $n samples, as the target's $cpu ns of CPU after the start give at 1 ms (within 25%)" \
	bash -c "[ '$n' -gt 0 ] && awk 'BEGIN { e = $cpu / 1e6; exit !($n >= e * 0.75 && $n <= e * 1.25 + 5) }'"
expect_fail 2 "--wait-for-signal with --start-delay refused" "^uprof collect: --wait-for-signal and --start-delay both say when sampling starts: give one" \
	"$UPROF" collect --wait-for-signal --start-delay 1 -o "$SCRATCH/w2" /bin/true

refused() { # refused CMD OPTION-WORDS... REASON-REGEX (last)
	local cmd=$1; shift
	local re=${!#} words=("${@:1:$#-1}")
	expect_fail 2 "$cmd ${words[*]} refused with its reason" "^uprof $cmd: ${words[0]}( [^:]*)?: .*$re" \
		"$UPROF" $cmd "${words[@]}" "${ARGS[@]}"
}
ARGS=(-o "$SCRATCH/r" /bin/true)
refused collect --call-graph-interval 1 "uprof takes a call stack with every sample"
refused collect --profiling-signal 27 "sends the program no signal"
refused collect --collect-thread "every thread's samples are collected already"
check "nothing collected by a refused option" [ ! -e "$SCRATCH/r" ]

"$UPROF" collect -o "$SCRATCH/s" "$TGT/demo" 20 >/dev/null 2>&1
S=$(session_in "$SCRATCH/s")
ARGS=(-i "$S")
refused report --ascii ibsop-event-dump "no text dump of IBS records"
refused report --remove-raw-files "samples.data is the session itself"
refused report --export-session "the session directory is self-contained"
check "the refused report left no report.csv, and samples.data is there" bash -c "[ ! -e '$S/report.csv' ] && [ -s '$S/samples.data' ]"
exit 0
