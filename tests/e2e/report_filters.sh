#!/usr/bin/env bash
# report -p PID,.. and --time-filter T1:T2: only those processes / that window of the run
# is reported; what is left out is counted in the header; task instances are clipped to
# the window; exports see the same samples; bad values are one-line usage errors.
. "$(dirname "$0")/lib/common.sh"

key() { csvq "$1" --key "$2"; }
# share FUNC REPORT: percent of the report's samples in FUNC (0 when absent)
share() {
	local secs total
	secs=$(csvq "$2" "FUNCTIONS" | awk -F'\t' -v f="$1" '$1==f{print $2; exit}')
	total=$(key "$2" "Samples")
	python3 -c "import sys; print(round(100 * float(sys.argv[1] or 0) / 0.001 / max(int(sys.argv[2]), 1), 1))" \
		"${secs:-0}" "$total"
}
# task_elapsed NAME REPORT: elapsed seconds of Phases/NAME in HOTTEST TASKS (empty if absent)
task_elapsed() { csvq "$2" "HOTTEST TASKS (Sort" | awk -F'\t' -v t="$1" '$1=="Phases" && $2==t {print $4}'; }

# ---- --time-filter on a program with two 0.4 s phases (each inside a task) ----
"$UPROF" collect -o "$SCRATCH/ph" "$TGT/phases" >/dev/null 2>&1
check "collect of phases exits 0" [ $? = 0 ]
S=$(session_in "$SCRATCH/ph")
R=$S/report.csv
"$UPROF" report -i "$S" >/dev/null 2>&1
all=$(key "$R" "Samples")
check "unfiltered: both phases, about half each ($(share phase_one "$R")%)" near "$(share phase_one "$R")" 50 8
check "unfiltered: no filter lines in the header" bash -c "! grep -q 'Filter' '$R'"

"$UPROF" report -i "$S" --time-filter 0:0.3 >/dev/null 2>"$SCRATCH/err1"
kept=$(key "$R" "Samples")
out=$(key "$R" "Samples Outside The Filter" | awk '{print $1}')
check "0:0.3: the header names the window" bash -c "grep -q '^Time Filter:,\"0.000:0.300 seconds' '$R'"
check "0:0.3: kept + outside = all samples ($kept + $out = $all)" [ $((kept + out)) = "$all" ]
check "0:0.3: about 0.3 s of samples ($kept)" near "$kept" 300 40
check "0:0.3: phase_one only ($(share phase_one "$R")%)" near "$(share phase_one "$R")" 100 5
check "0:0.3: task one clipped to the window ($(task_elapsed one "$R") s)" near "$(task_elapsed one "$R")" 0.3 0.03
check "0:0.3: task two left out" [ -z "$(task_elapsed two "$R")" ]
check "0:0.3: the terminal says what was left out" grep -q "Filtered (-p/--time-filter): $kept samples reported, $out outside" "$SCRATCH/err1"

"$UPROF" report -i "$S" --time-filter 0.5: --export folded >/dev/null 2>&1
kept=$(key "$R" "Samples")
check "0.5: (open end): phase_two only ($(share phase_two "$R")%)" near "$(share phase_two "$R")" 100 5
check "0.5: the folded stacks hold the kept samples only" \
	[ "$(awk '{n += $NF} END {print n}' "$S/stacks.folded")" = "$kept" ]

"$UPROF" report -i "$S" --time-filter 0.2:0.6 >/dev/null 2>&1
check "0.2:0.6: both phases, about half each ($(share phase_two "$R")%)" near "$(share phase_two "$R")" 50 10
check "0.2:0.6: task one clipped to 0.2 s ($(task_elapsed one "$R"))" near "$(task_elapsed one "$R")" 0.2 0.03
check "0.2:0.6: task two clipped to 0.2 s ($(task_elapsed two "$R"))" near "$(task_elapsed two "$R")" 0.2 0.03

"$UPROF" report -i "$S" --time-filter 60: >/dev/null 2>"$SCRATCH/err2"
check "a window after the run: 0 samples, exit 0, said on the terminal" \
	bash -c "[ '$(key "$R" "Samples")' = 0 ] && grep -q 'No samples to display' '$SCRATCH/err2'"

# ---- -p on a program with a forked child and exec'ed children ----
"$UPROF" collect -o "$SCRATCH/mu" "$TGT/multi" "$TGT/exec_child" "$TGT/libplugin.so" >/dev/null 2>&1
M=$(session_in "$SCRATCH/mu")
MR=$M/report.csv
"$UPROF" report -i "$M" --cutoff 0 >/dev/null 2>&1
all=$(key "$MR" "Samples")
procs=$(csvq "$MR" "PROCESSES" | cut -f1)
child=$(grep '^multi ' <<<"$procs" | sed 's/.*PID:\([0-9]*\).*/\1/' | tail -1)
execs=$(grep '^exec_child ' <<<"$procs" | sed 's/.*PID:\([0-9]*\).*/\1/' | head -2 | paste -sd,)
"$UPROF" report -i "$M" -p "$child" --cutoff 0 >/dev/null 2>&1
funcs=$(csvq "$MR" "FUNCTIONS" | awk -F'\t' '$3 !~ /kallsyms/ {print $1}' | sort -u)
check "-p <forked child>: its function only (${funcs//$'\n'/ })" [ "$funcs" = forked_child_work ]
check "-p <forked child>: one process in the processes table" \
	[ "$(csvq "$MR" "PROCESSES" | cut -f1)" = "multi (PID:$child)" ]
check "-p implies --detail: one process block, the child's" \
	bash -c "[ \$(grep -c 'PROFILE REPORT FOR PROCESS' '$MR') = 1 ] && grep -q 'PROFILE REPORT FOR PROCESS - multi (PID:$child)' '$MR'"
check "-p: the header names the filter" grep -q "^Process Filter,\"$child\"" "$MR"
kept=$(key "$MR" "Samples")
out=$(key "$MR" "Samples Outside The Filter" | awk '{print $1}')
check "-p: kept + outside = all samples ($kept + $out = $all)" [ $((kept + out)) = "$all" ]
"$UPROF" report -i "$M" --pid "$execs" --cutoff 0 >/dev/null 2>&1
check "--pid A,B: two exec_child processes" [ "$(csvq "$MR" "PROCESSES" | grep -c '^exec_child ')" = 2 ]
# (exec'ed children: a sample may land in the dynamic loader or libc, or in multi's code
# before the exec, in the same pid; so the check is about where the time is and that no
# other module comes in)
fn=$(csvq "$MR" "FUNCTIONS" | awk -F'\t' '$3 !~ /kallsyms/' | cut -f1,3)
check "--pid A,B: exec_child_work on top" [ "$(head -1 <<<"$fn" | cut -f1)" = exec_child_work ]
check "--pid A,B: only those processes' modules (exec_child, multi before the exec, ld.so, libc)" \
	bash -c "! cut -f2 <<<'$fn' | grep -v -e '/exec_child\$' -e '/multi\$' -e '/ld-linux' -e '/libc\.so' -e '^\[vdso\]\$' | grep -q ."

# ---- bad values ----
expect_fail 2 "--time-filter without a colon" "--time-filter '5': use T1:T2" "$UPROF" report -i "$S" --time-filter 5
expect_fail 2 "--time-filter backwards" "the end must come after the start" "$UPROF" report -i "$S" --time-filter 2:1
expect_fail 2 "--time-filter negative" "--time-filter '-1:2'" "$UPROF" report -i "$S" --time-filter -1:2
expect_fail 2 "--time-filter ':'" "use T1:T2" "$UPROF" report -i "$S" --time-filter :
expect_fail 2 "-p not a number" "-p 'abc': give process ids" "$UPROF" report -i "$S" -p abc
expect_fail 2 "-p with an empty item" "-p '12,,13'" "$UPROF" report -i "$S" -p 12,,13
expect_fail 1 "-p of a process not in the session" "no process 1; its processes: [0-9]" "$UPROF" report -i "$S" -p 1
echo "# report_filters.sh done"
