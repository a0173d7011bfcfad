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
	"$PYTHON" -c "import sys; print(round(100 * float(sys.argv[1] or 0) / 0.001 / max(int(sys.argv[2]), 1), 1))" \
		"${secs:-0}" "$total"
}
# task_elapsed NAME REPORT: elapsed seconds of Phases/NAME in HOTTEST TASKS (empty if absent)
task_elapsed() { csvq "$2" "HOTTEST TASKS (Sort" | awk -F'\t' -v t="$1" '$1=="Phases" && $2==t {print $4}'; }

# task_cpu NAME REPORT: CPU_TIME seconds of Phases/NAME in HOTTEST TASKS (empty if absent)
task_cpu() { csvq "$2" "HOTTEST TASKS (Sort" | awk -F'\t' -v t="$1" '$1=="Phases" && $2==t {print $5}'; }
# fn_secs FUNC REPORT: CPU_TIME seconds of FUNC in the functions table (0 when absent)
fn_secs() { csvq "$2" "FUNCTIONS" | awk -F'\t' -v f="$1" '$1==f{s=$2} END {print s+0}'; }
# mostly FUNC OTHER REPORT: FUNC holds the report's samples but a few (kernel entries, the
# vDSO clock, the exit path: at most 4 or 5 %), and OTHER none
mostly() {
	local n o total
	n=$(py "print(round(float(a[0]) * 1000))" "$(fn_secs "$1" "$3")")
	o=$(fn_secs "$2" "$3")
	total=$(key "$3" "Samples")
	echo "# $1: $n of $total samples, $2: $o s"
	# the fact is the other phase's absence; the rest of the window is the phase's own
	# clock reads (vDSO) and kernel entries, which grow with the load (9 % beside two CPU
	# hogs): the phase need only hold most of the window
	[ "$o" = 0 ] && [ "$n" -gt 0 ] && [ $((2 * n)) -gt "$total" ]
}
py() { "$PYTHON" -c "import sys; a = sys.argv[1:]; $1" "${@:2}"; }

# ---- --time-filter on a program with two 0.4 s phases (each inside a task) ----
# The windows are set from the times phases prints for its tasks (CLOCK_MONOTONIC, as the
# samples and session.ini's start_mono_ns): how long the program took to start on a
# loaded machine, and how much CPU each phase got, change where the phases lie in the
# run, never what a window must keep. Each task is clipped exactly to the window.
"$UPROF" collect -o "$SCRATCH/ph" "$TGT/phases" >"$SCRATCH/ph.out" 2>&1
check "collect of phases exits 0" [ $? = 0 ]
S=$(session_in "$SCRATCH/ph")
R=$S/report.csv
start=$(sed -n 's/^start_mono_ns = //p' "$S/session.ini")
# b1 e1 b2 e2: the tasks' begin and end in seconds after the profile start; m1, m2: the
# middle of each, rounded to the ms (the header shows windows to the ms)
read -r b1 e1 b2 e2 m1 m2 <<<"$(awk '$1=="one" && $4=="two" {print $2, $3, $5, $6}' "$SCRATCH/ph.out" |
	py "t = [(int(x) - int(a[0])) / 1e9 for x in sys.stdin.read().split()]
print(*['%.6f' % x for x in t], '%.3f' % ((t[0] + t[1]) / 2), '%.3f' % ((t[2] + t[3]) / 2))" "$start")"
echo "# phases: one $b1..$e1 s, two $b2..$e2 s after the profile start"
"$UPROF" report -i "$S" >/dev/null 2>&1
all=$(key "$R" "Samples")
check "unfiltered: both phases sampled ($(fn_secs phase_one "$R") s, $(fn_secs phase_two "$R") s)" \
	py "sys.exit(0 if min(map(float, a)) > 0 else 1)" "$(fn_secs phase_one "$R")" "$(fn_secs phase_two "$R")"
check "unfiltered: the tasks last what phases measured ($(task_elapsed one "$R"), $(task_elapsed two "$R") s)" \
	py "sys.exit(0 if abs(float(a[0]) - (float(a[2]) - float(a[1]))) <= 0.002 and abs(float(a[3]) - (float(a[5]) - float(a[4]))) <= 0.002 else 1)" \
	"$(task_elapsed one "$R")" "$b1" "$e1" "$(task_elapsed two "$R")" "$b2" "$e2"
check "unfiltered: no filter lines in the header" bash -c "! grep -q 'Filter' '$R'"

w=$(py "print('%.3f' % float(a[0]))" "$b1"):$m1
"$UPROF" report -i "$S" --time-filter "$w" >/dev/null 2>"$SCRATCH/err1"
kept=$(key "$R" "Samples")
out=$(key "$R" "Samples Outside The Filter" | awk '{print $1}')
check "$w (first half of task one): the header names the window" grep -q "^Time Filter:,\"${w}0* seconds" "$R"
check "$w: kept + outside = all samples ($kept + $out = $all)" [ $((kept + out)) = "$all" ]
# one thread cannot run for longer than the window, nor be sampled more often than 1 kHz
check "$w: some samples, no more than the window's CPU time allows ($kept)" \
	py "sys.exit(0 if 0 < int(a[0]) <= (float(a[2]) - float(a[1])) * 1000 + 3 else 1)" "$kept" "${w%%:*}" "$m1"
check "$w: phase_one only ($(share phase_one "$R")%)" mostly phase_one phase_two "$R"
check "$w: task one clipped to the window ($(task_elapsed one "$R") s)" \
	py "sys.exit(0 if abs(float(a[0]) - (float(a[2]) - float(a[1]))) <= 0.002 else 1)" "$(task_elapsed one "$R")" "$b1" "$m1"
check "$w: its CPU_TIME is the window's samples ($(task_cpu one "$R") s, $kept samples)" \
	py "sys.exit(0 if abs(float(a[0]) - int(a[1]) / 1000) <= 0.0025 else 1)" "$(task_cpu one "$R")" "$kept"
check "$w: task two left out" [ -z "$(task_elapsed two "$R")" ]
check "$w: the terminal says what was left out" grep -q "Filtered (-p/--time-filter): $kept samples reported, $out outside" "$SCRATCH/err1"

"$UPROF" report -i "$S" --time-filter "$m2": --export folded >/dev/null 2>&1
kept=$(key "$R" "Samples")
check "$m2: (open end, the second half of task two on): phase_two only ($(share phase_two "$R")%)" mostly phase_two phase_one "$R"
check "$m2: the folded stacks hold the kept samples only" \
	[ "$(awk '{n += $NF} END {print n}' "$S/stacks.folded")" = "$kept" ]

"$UPROF" report -i "$S" --time-filter "$m1:$m2" >/dev/null 2>&1
check "$m1:$m2: both phases ($(fn_secs phase_one "$R") s, $(fn_secs phase_two "$R") s)" \
	py "sys.exit(0 if min(map(float, a)) > 0 else 1)" "$(fn_secs phase_one "$R")" "$(fn_secs phase_two "$R")"
check "$m1:$m2: task one clipped to its second half ($(task_elapsed one "$R"))" \
	py "sys.exit(0 if abs(float(a[0]) - (float(a[2]) - float(a[1]))) <= 0.002 else 1)" "$(task_elapsed one "$R")" "$m1" "$e1"
check "$m1:$m2: task two clipped to its first half ($(task_elapsed two "$R"))" \
	py "sys.exit(0 if abs(float(a[0]) - (float(a[2]) - float(a[1]))) <= 0.002 else 1)" "$(task_elapsed two "$R")" "$b2" "$m2"

"$UPROF" report -i "$S" --time-filter 60: >"$SCRATCH/out2" 2>/dev/null
check "a window after the run: 0 samples, exit 0, said in place of the table (stdout)" \
	bash -c "[ '$(key "$R" "Samples")' = 0 ] && grep -qx 'No samples to display.' '$SCRATCH/out2'"

# ---- -p on a program with a forked child and exec'ed children ----
"$UPROF" collect -o "$SCRATCH/mu" "$TGT/multi" "$TGT/exec_child" "$TGT/libplugin.so" >/dev/null 2>&1
M=$(session_in "$SCRATCH/mu")
MR=$M/report.csv
"$UPROF" report -i "$M" --cutoff 0 >/dev/null 2>&1
all=$(key "$MR" "Samples")
procs=$(csvq "$MR" "PROCESSES" | cut -f1)
child=$(grep '^multi ' <<<"$procs" | sed 's/.*PID:\([0-9]*\).*/\1/' | tail -1)
execs=$(grep '^exec_child ' <<<"$procs" | sed 's/.*PID:\([0-9]*\).*/\1/' | head -2 | paste -sd,)
# (which functions the child's first and last samples land in, _Fork's return or main
# before the call, is the scheduler's choice: the facts are that its own work is on top,
# that no other process's work comes in, and that -p keeps exactly the child's samples as
# the unfiltered report's block for that process has them)
"$UPROF" report -i "$M" --detail --cutoff 0 >/dev/null 2>&1
# (rows sorted: the order among equal times is not the point)
whole=$(csvq "$MR" "FUNCTION SUMMARY" --after "PROFILE REPORT FOR PROCESS - multi (PID:$child)" | cut -f1-3 | LC_ALL=C sort)
"$UPROF" report -i "$M" -p "$child" --cutoff 0 >/dev/null 2>&1
top=$(csvq "$MR" "FUNCTIONS" | head -1 | cut -f1)
funcs=$(csvq "$MR" "FUNCTIONS" | cut -f1-3 | LC_ALL=C sort)
check "-p <forked child>: forked_child_work on top ($top)" [ "$top" = forked_child_work ]
check "-p <forked child>: no other process's work ($(cut -f1 <<<"$funcs" | paste -sd' '))" \
	bash -c "! cut -f1 <<<'$funcs' | grep -qxE 'main_work|thread_a_work|thread_b_work|exec_child_work|plugin_work'"
[ "$funcs" = "$whole" ] || diff <(echo "$whole") <(echo "$funcs") | sed 's/^/# /'
check "-p <forked child>: its functions and times as its block in the unfiltered --detail report" \
	bash -c "[ -n '$funcs' ] && [ '$funcs' = '$whole' ]"
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
