#!/usr/bin/env bash
# uProf's OS-trace settings: --max-threads N models the first N threads and says how many
# were left out (and their records); --buffer-size PAGES sizes the rings (a 1-page ring
# cannot hold a burst of traced calls: the records lost are counted and said). On
# tests/targets/ostrace_wakers.c (main, then the holder, the mutex waiter, the
# condition-variable waiter, in that order).
. "$(dirname "$0")/lib/common.sh"

T=$TGT/ostrace_wakers
"$UPROF" collect --trace os --max-threads 2 -o "$SCRATCH/m2" "$T" "$SCRATCH/m2.facts" \
	>/dev/null 2>"$SCRATCH/m2.err"
rc=$?
if [ $rc -ne 0 ] && grep -q 'tracefs\|not readable\|permission' "$SCRATCH/m2.err"; then
	ok "# SKIP OS tracing not possible here: $(head -c 300 "$SCRATCH/m2.err")"
	exit 0
fi
check "collect --trace os --max-threads 2 exits 0 ($(tail -c 300 "$SCRATCH/m2.err" | tr "\n" " "))" [ $rc -eq 0 ]
S=$(session_in "$SCRATCH/m2")
"$UPROF" report -i "$S" >/dev/null 2>&1
rc=$?
check "report exits 0" [ $rc -eq 0 ]
fact() { sed -n "s/^$2 \([0-9]*\)$/\1/p" "$SCRATCH/$1.facts"; }
tids=$(csvq "$S/report.csv" "THREAD STATES" | cut -f3 | sort -n | tr '\n' ' ')
want=$(printf '%s\n' "$(fact m2 main_tid)" "$(fact m2 holder_tid)" | sort -n | tr '\n' ' ')
check "THREAD STATES has the first two threads, main and the holder ($tids vs $want)" [ "$tids" = "$want" ]
check_sh "a Note says the other two were left out, with their records ($(grep 'max-threads' "$S/report.csv"))" \
	'grep -qE "^Note: 2 threads past --max-threads 2 left out \([1-9][0-9]* of their records not modelled\); raise --max-threads$" "$S/report.csv"'
check_sh "no other thread is charged anything (OFF-CPU STACKS)" \
	'! csvq "$S/report.csv" "OFF-CPU STACKS" | cut -f3 | grep -qvE "^($(fact m2 main_tid)|$(fact m2 holder_tid))$"'

# without it, all four, and no such Note
"$UPROF" collect --trace os -o "$SCRATCH/all" "$T" "$SCRATCH/all.facts" >/dev/null 2>&1
A=$(session_in "$SCRATCH/all")
"$UPROF" report -i "$A" >/dev/null 2>&1
n=$(csvq "$A/report.csv" "THREAD STATES" | grep -c .)
check "without --max-threads THREAD STATES has all four threads ($n)" [ "$n" = 4 ]
check "and no Note of threads left out" bash -c "! grep -q 'past --max-threads' '$A/report.csv'"

# --buffer-size 1: a 4 KiB ring per CPU loses records in the calls' bursts, and says so
"$UPROF" collect --trace os --buffer-size 1 -o "$SCRATCH/b1" "$T" "$SCRATCH/b1.facts" \
	>/dev/null 2>"$SCRATCH/b1.err"
check "collect --buffer-size 1 exits 0" [ $? -eq 0 ]
lost=$(sed -n 's/.* \([0-9]*\) lost$/\1/p' "$SCRATCH/b1.err")
check "its 1-page rings lost records, and collect says how many ($lost)" [ "${lost:-0}" -gt 0 ]
B=$(session_in "$SCRATCH/b1")
"$UPROF" report -i "$B" >/dev/null 2>&1
check_sh "report.csv's OS trace says records were lost ($(grep 'records lost' "$B/report.csv"))" \
	'grep -qE "^Note: [1-9][0-9]* records lost \(ring buffer full\)" "$B/report.csv"'
