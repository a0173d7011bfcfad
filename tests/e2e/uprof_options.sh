#!/usr/bin/env bash
# uProf's collect, report and translate options beyond issue 16's: the aliases that work
# (--data-buffer-count = -m, --call-graph-type = --call-graph-mode) shown by their effect,
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
expect_fail 2 "--call-graph-type xyz refused" "^uprof collect: --call-graph: " \
	"$UPROF" collect --call-graph-type xyz -o "$SCRATCH/d" /bin/true

refused() { # refused CMD OPTION-WORDS... REASON-REGEX (last)
	local cmd=$1; shift
	local re=${!#} words=("${@:1:$#-1}")
	expect_fail 2 "$cmd ${words[*]} refused with its reason" "^uprof $cmd: ${words[0]}( [^:]*)?: .*$re" \
		"$UPROF" $cmd "${words[@]}" "${ARGS[@]}"
}
ARGS=(-o "$SCRATCH/r" /bin/true)
refused collect --call-graph-interval 1 "uprof takes a call stack with every sample"
refused collect --profiling-signal 27 "sends the program no signal"
refused collect --wait-for-signal "start with --start-paused"
refused collect --collect-thread "every thread's samples are collected already"
for o in "--log-path /tmp" --enable-log --enable-logts; do
	refused collect $o "uprof keeps no log file: its messages go to standard error"
done
check "nothing collected by a refused option" [ ! -e "$SCRATCH/r" ]

"$UPROF" collect -o "$SCRATCH/s" "$TGT/demo" 20 >/dev/null 2>&1
S=$(session_in "$SCRATCH/s")
ARGS=(-i "$S")
refused report --ascii ibsop-event-dump "no text dump of IBS records"
refused report --remove-raw-files "samples.data is the session itself"
refused report --export-session "the session directory is self-contained"
for o in "--log-path /tmp" --enable-log; do
	refused report $o "uprof keeps no log file"
	refused translate $o "uprof keeps no log file"
done
check "the refused report left no report.csv, and samples.data is there" bash -c "[ ! -e '$S/report.csv' ] && [ -s '$S/samples.data' ]"
exit 0
