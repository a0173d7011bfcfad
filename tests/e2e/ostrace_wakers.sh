#!/usr/bin/env bash
# LOCK WAKERS of a --trace os session: who ended each lock wait, with the waker's function
# and stack from its sched_waking sample. On tests/targets/ostrace_wakers.c, where
# hand_over_mutex() unlocks a mutex wait_on_mutex() waits for (~0.15 s) and send_signal()
# signals a condition variable wait_for_signal() waits on (~0.1 s), each wait's row names
# the waiting thread and function, the waker thread and function, its stack through that
# function, and an off-CPU time within 20 % of what the program measured of its wait.
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/ostrace.sh"

T=$TGT/ostrace_wakers
"$T" "$SCRATCH/bare.facts" >"$SCRATCH/bare.out" 2>/dev/null
check "the target runs bare" [ $? -eq 0 ]
os_collect "$T"
check "the program's stdout is byte-identical to a bare run's" cmp -s "$SCRATCH/bare.out" "$SCRATCH/os.out"
os_report
csvq "$S/report.csv" "LOCK WAKERS" >"$SCRATCH/wakers.tsv"

# wait WAITER_TID_KEY BLOCKED_IN WAKER_TID_KEY WAKER_FN OWN_NS_KEY
wait_row() {
	local tid wtid own row fn=$4 stack
	tid=$(os_fact "$1")
	wtid=$(os_fact "$3")
	own=$(os_fact "$5")
	row=$(awk -F'\t' -v t="$tid" -v b="$2" '$3 == t && $4 == b' "$SCRATCH/wakers.tsv")
	echo "# $2 (thread $tid): $(echo "$row" | tr '\t' '|'); program measured $own ns"
	# a missing row: the whole table and the thread's waits, to say where it went (once
	# in a suite run the condition variable's wait had no row, not reproduced since)
	[ -n "$row" ] || { sed 's/^/# LOCK WAKERS: /' "$SCRATCH/wakers.tsv" | tr '\t' '|';
		grep -a -i "$tid" "$S/report.csv" | head -20 | sed 's/^/# report.csv: /'
		grep -a -i "wakeup\|lost\|order" "$S/report.csv" | sed 's/^/# report.csv note: /'
		perf script -i "$S/samples.data" -F tid,cpu,time,event,trace 2>/dev/null |
			grep -E "sched_|NR 202 " | grep -E "(pid|prev_pid|next_pid)=$tid |^ *$tid " |
			head -30 | sed 's/^/# perf script: /'; }
	check "$2's wait has one LOCK WAKERS row ($(echo "$row" | grep -c .))" [ "$(echo "$row" | grep -c .)" = 1 ]
	check "woken by thread $wtid, the $3 ($(echo "$row" | cut -f6))" [ "$(echo "$row" | cut -f6)" = "$wtid" ]
	check "in $4 ($(echo "$row" | cut -f7))" [ "$(echo "$row" | cut -f7)" = "$4" ]
	stack=$(echo "$row" | cut -f10)
	check_sh "its Waker Call Stack runs through $4 into the C library ($stack)" \
		'[[ "$stack" == *";$fn;"?* ]]'
	check_sh "its off-CPU time is within 20 % of the program's own $5 ($(echo "$row" | cut -f9) s vs $own ns)" \
		'awk -v g="$(echo "$row" | cut -f9)" -v o="$own" "BEGIN { o /= 1e9; d = g - o; if (d < 0) d = -d; exit !(g > 0 && o > 0 && d <= o * 0.2) }"'
}
wait_row mutex_waiter_tid wait_on_mutex holder_tid hand_over_mutex mutex_ns
wait_row cond_waiter_tid wait_for_signal main_tid send_signal cond_ns
# nobody else is named the waker of these two waits
check_sh "no other row charges wait_on_mutex or wait_for_signal" \
	'[ "$(awk -F"\t" "\$4 == \"wait_on_mutex\" || \$4 == \"wait_for_signal\"" "$SCRATCH/wakers.tsv" | wc -l)" = 2 ]'
