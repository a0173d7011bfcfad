#!/usr/bin/env bash
# Issue 3 must-shows: profile control (both API groups) with --start-paused, task and
# event semantics, 1e6 tasks from 8 threads, a hostile target, and the library without a
# profiler (static, compiled out, disabled by environment, exported symbols).
. "$(dirname "$0")/lib/common.sh"
own_dev_shm "$0" "$@" # section 5 checks that no control page outlives its process

funcs() { csvq "$1/report.csv" FUNCTIONS | cut -f1; }
# ge A B: is A >= B (floats)? The targets spin for wall time: how much CPU a spin gets is
# the machine's load, so these checks state what holds under any load (lower bounds that
# the spins' wall time sets, and relations between tasks); the exact task, event and pause
# arithmetic is tested on synthetic records by the unit tests of lib/report's tasks.
ge() { "$PYTHON" -c "import sys; sys.exit(0 if float(sys.argv[1]) >= float(sys.argv[2]) - 1e-9 else 1)" "$1" "$2"; }
key() { csvq "$1/report.csv" --key "$2"; }
# task DOMAIN NAME [--after X]: "count<TAB>elapsed<TAB>cpu" of a task row
task() {
	local s=$1 d=$2 n=$3; shift 3
	csvq "$s/report.csv" "${1:-TASKS (Sort Event}" ${2:+--after "$2"} |
		awk -F'\t' -v d="$d" -v n="$n" '$1==d && $2==n {print $3"\t"$4"\t"$5; exit}'
}

# --- 1 and 2: --start-paused, strict and async
for mode in strict async; do
	"$UPROF" collect --start-paused -o "$SCRATCH/p-$mode" "$TGT/pause" $mode >/dev/null 2>"$SCRATCH/err"
	check "$mode: collect exits 0" [ $? -eq 0 ]
	S=$(session_in "$SCRATCH/p-$mode")
	"$UPROF" report -i "$S" --cutoff 0 >/dev/null 2>&1
	f=$(funcs "$S")
	check "$mode: inside() is sampled" grep -qx inside <<<"$f"
	check "$mode: no sample from outside() or outside_again()" bash -c "! grep -q '^outside' <<<'$f'"
	inside=$(csvq "$S/report.csv" FUNCTIONS | awk -F'\t' '$1=="inside"{print $2}')
	n=$(key "$S" "Samples")
	# user-mode seconds: the kernel's share (interrupts, preemption on the program's
	# behalf) grows with the machine's load, so it is left out of the comparison
	user=$(csvq "$S/report.csv" FUNCTIONS | awk -F'\t' '$NF !~ /^\[kernel/ { s += $2 } END { printf "%.4f", s }')
	# inside() spins for 0.3 s of wall time; the CPU it gets depends on what else runs,
	# but it is all the program does in user mode while resumed
	check "$mode: inside() has most of the user-mode samples (${inside:-0} s of $user s; $n samples in all)" \
		ge "${inside:-0}" "$("$PYTHON" -c "print(0.8 * $user)")"
	# paused: the start, outside() and outside_again(), 0.3 s of wall time each; resumed:
	# inside()'s 0.3 s (async requests take effect a poll later: 0.1 s of slack)
	pd=$(key "$S" "Pause Duration" | awk '{print $1}')
	dur=$(key "$S" "Profile Duration" | awk '{print $1}')
	slack=0.002; [ $mode = async ] && slack=0.1 # strict: the 3 decimals' rounding
	check "$mode: Pause Duration covers outside() and outside_again() ($pd s >= 0.6 - $slack)" \
		ge "$pd" "$("$PYTHON" -c "print(0.6 - $slack)")"
	check "$mode: ... and not inside() ($pd s <= profile $dur s - 0.3 + $slack)" \
		ge "$("$PYTHON" -c "print($dur - 0.3 + $slack)")" "$pd"
	check "$mode: pauses.csv has the start-paused and the API interval" \
		bash -c "grep -q '^all,.*,start-paused$' '$S/pauses.csv' && grep -Eq '^[0-9]+,.*,api(-strict)?$' '$S/pauses.csv'"
	inpause=$(key "$S" "Samples In Pauses" 2>/dev/null | awk '{print $1}')
	check "$mode: the kernel stopped sampling during pauses (${inpause:-0} samples in 0.6 s)" [ "${inpause:-0}" -le 40 ]
done
check "strict calls were acknowledged" bash -c "! grep -q 'not acknowledged' '$SCRATCH/err'"

# --- 3: tasks and events
"$UPROF" collect -o "$SCRATCH/t" "$TGT/tasks" >/dev/null 2>&1
S=$(session_in "$SCRATCH/t")
"$UPROF" report -i "$S" --detail --cutoff 0 >/dev/null 2>&1
check "report has the hottest-tasks section" grep -q 'TASKS (Sort Event - CPU_TIME)"$' "$S/report.csv"
check "task header as uProf's" grep -q '^DOMAIN,TASK,TASK COUNT,ELAPSED TIME(seconds),"CPU_TIME" (seconds)$' "$S/report.csv"
IFS=$'\t' read -r c e u <<<"$(task "$S" DomA Twice)"
check "a task run twice counts 2 ($c)" [ "$c" = 2 ]
check "and sums its elapsed time: two 0.05 s spins ($e)" ge "$e" 0.10
IFS=$'\t' read -r oc oe ou <<<"$(task "$S" DomA Outer)"
IFS=$'\t' read -r c e u <<<"$(task "$S" DomA Inner)"
check "nested: inner elapsed holds its 0.05 s spin ($e)" ge "$e" 0.05
check "nested: outer elapsed includes the inner task and its own spin ($oe >= $e + 0.05)" \
	ge "$oe" "$("$PYTHON" -c "print($e + 0.05)")"
check "nested: outer CPU_TIME includes the inner task's ($ou >= $u)" ge "$ou" "$u"
IFS=$'\t' read -r c e1 u <<<"$(task "$S" DomA Over1)"
IFS=$'\t' read -r c e2 u <<<"$(task "$S" DomB Over2)"
check "overlapping across domains: Over1 holds its 0.05 s ($e1)" ge "$e1" 0.05
check "overlapping across domains: Over2 began inside Over1 and spans both spins ($e2 >= 0.10, >= $e1)" \
	ge "$e2" "$("$PYTHON" -c "print(max($e1, 0.10))")"
IFS=$'\t' read -r c e u <<<"$(task "$S" DomB Sleep)"
check "a sleeping task: elapsed at least its 0.15 s usleep ($e)" ge "$e" 0.15
check "a sleeping task: CPU_TIME ~0 ($u)" near "$u" 0 0.01
IFS=$'\t' read -r c e u <<<"$(task "$S" DomB Threaded)"
check "two threads and a forked child: summed to 3 instances ($c)" [ "$c" = 3 ]
# three spins of 0.05 s wall time each, next to whatever else runs: how much of it is CPU
# time is the load's; that it is sampled CPU time, unlike the sleeping task's ~0 (above),
# is the fact
check "a spinning task: sampled CPU_TIME, elapsed at least its 0.05 s ($u of $e)" \
	bash -c "\"$PYTHON\" -c 'import sys; sys.exit(0 if $u >= 0.005 else 1)' && \"$PYTHON\" -c 'import sys; sys.exit(0 if $e >= 0.15 - 1e-9 else 1)'"
IFS=$'\t' read -r c e u <<<"$(task "$S" User Ev)"
check "an event is listed under User ($c)" [ "$c" = 1 ]
IFS=$'\t' read -r c e u <<<"$(task "$S" User Unended)"
check "an unended event: one instance of 0 duration ($c, $e)" bash -c "[ '$c' = 1 ] && [ '$e' = 0.0000 ]"
for gone in Spanning PausedEnd Never; do
	check "task $gone is dropped" [ -z "$(task "$S" DomB $gone)" ]
done
main_pid=$(csvq "$S/report.csv" PROCESSES | head -1 | sed 's/.*PID:\([0-9]*\).*/\1/')
child_pid=$(csvq "$S/report.csv" PROCESSES | sed 's/.*PID:\([0-9]*\).*/\1/' | grep -vx "$main_pid" | head -1)
IFS=$'\t' read -r c e u <<<"$(task "$S" DomB Threaded "TASK SUMMARY" "PROFILE REPORT FOR PROCESS - tasks (PID:$main_pid)")"
check "--detail: 2 Threaded instances in the parent ($c)" [ "$c" = 2 ]
IFS=$'\t' read -r c e u <<<"$(task "$S" DomB Child "TASK SUMMARY" "PROFILE REPORT FOR PROCESS - tasks (PID:$child_pid)")"
check "--detail: the Child task in the child process ($c)" [ "$c" = 1 ]
"$UPROF" report -i "$S" --detail --group-by thread --cutoff 0 >/dev/null 2>&1
n=$(grep -A3 '^TASK SUMMARY' "$S/report.csv" | grep -c '"DomB","Threaded",1,')
check "--group-by thread: Threaded once on each of its three threads ($n)" [ "$n" -eq 3 ]

# --- 4: 1e6 tasks from 8 threads: nothing lost, or the loss counted exactly
"$UPROF" collect -o "$SCRATCH/s" "$TGT/stress" >/dev/null 2>&1
S=$(session_in "$SCRATCH/s")
"$UPROF" report -i "$S" >/dev/null 2>&1
rec=$(key "$S" "Task Records"); lost=$(key "$S" "Lost Task Records")
echo "# stress: $rec records kept, $lost lost"
check "1e6 begin/end pairs: records kept + lost = 2e6 exactly ($rec + $lost)" [ $((rec + lost)) -eq 2000000 ]
if [ "$lost" -eq 0 ]; then
	IFS=$'\t' read -r c e u <<<"$(task "$S" Stress Pair)"
	check "no loss: 1e6 instances ($c)" [ "$c" = 1000000 ]
fi

# --- 5: a hostile target scribbling over its control page
for i in 1 2; do
	timeout 60 "$UPROF" collect -o "$SCRATCH/h$i" "$TGT/hostile" 300 >/dev/null 2>"$SCRATCH/err"
	rc=$?
	check "hostile target: uprof neither crashed nor hung (exit $rc)" [ "$rc" -lt 124 ]
	check "hostile target: no sanitizer report" bash -c "! grep -q Sanitizer '$SCRATCH/err'"
	S=$(session_in "$SCRATCH/h$i")
	timeout 60 "$UPROF" report -i "$S" >/dev/null 2>"$SCRATCH/err"
	check "hostile target: report works (exit $?)" [ -s "$S/report.csv" ]
done
# no page may outlive its process (this script has /dev/shm to itself: own_dev_shm)
stale_pages() {
	for p in /dev/shm/uprof.*; do
		[ -e "$p" ] || continue
		kill -0 "${p##*.}" 2>/dev/null || echo "$p"
	done
}
check "no control page outlives its process" [ -z "$(stale_pages)" ]

# --- 6: without uprof, static, compiled out, disabled, exported symbols
check "the instrumented target runs without uprof" bash -c "'$TGT/tasks' >/dev/null"
check "and leaves no control page behind" [ -z "$(stale_pages)" ]
check "the statically linked target runs" bash -c "'$TGT/tasks_static' >/dev/null"
"$UPROF" collect -o "$SCRATCH/st" "$TGT/tasks_static" >/dev/null 2>&1
S=$(session_in "$SCRATCH/st"); "$UPROF" report -i "$S" --cutoff 0 >/dev/null 2>&1
check "static library: tasks are reported" [ -n "$(task "$S" DomA Twice)" ]
check "-DAMDUPROF_DISABLE_INSTRUMENT_API: no reference to the library" \
	bash -c "! nm '$TGT/tasks_disabled' | grep -qi 'amd\|AMDTask'"
AMDUPROF_INSTRUMENT_ENABLE=0 "$UPROF" collect -o "$SCRATCH/off" "$TGT/tasks" >/dev/null 2>&1
S=$(session_in "$SCRATCH/off")
check "AMDUPROF_INSTRUMENT_ENABLE=0: no task records" bash -c "[ ! -d '$S/instrument' ]"
LIB=$PWD/$BUILD/lib/libAMDProfileController.so
exported=$(nm -D --defined-only "$LIB" | awk '$2=="T"{print $3}' | sed 's/@.*//' | LC_ALL=C sort | tr '\n' ' ')
want="AMDEventEnd AMDEventStart AMDTaskBegin AMDTaskEnd __itt_api_fini __itt_api_init amdDomainCreate amdEventCreate amdProfilePauseImpl amdProfileResumeImpl amdProfileStrictPauseImpl amdProfileStrictResumeImpl amdStringHandleCreate ompt_start_tool "
data=$(nm -D --defined-only "$LIB" | awk '$2=="B"||$2=="D"{print $3}' | sed 's/@.*//' | tr '\n' ' ')
check "the only exported data is the gate the header tests ($data)" [ "$data" = "amdProfileControllerGate " ]
check "the .so exports exactly the documented API (and the ITT collector's and OMPT tool's entry points)" [ "$exported" = "$want" ]
text=$(size -A "$LIB" | awk '$1==".text"{print $2}')
# 8 KiB for the API, the page and the ITT collector, 8 KiB more for the OMPT tool (ompt.c),
# 4 KiB more for its target offload and device-tracing part (ompt_target.c), 2 KiB more for
# loops (ompt_loops.c), nesting (ompt_nest.c), waits by type and windows (fork, exit()),
# 512 bytes more for the per-thread lanes (control page 2.6)
check "the library's .text stays small ($text bytes <= 23040)" [ "$text" -le 23040 ]
check "symbols are versioned" bash -c "nm -D '$LIB' | grep -q 'AMDTaskBegin@@AMDPROFILECONTROLLER_1.0'"
check "the header compiles as C++" bash -c "echo '#include <AMDProfileController.h>
int main(){ amdDomainHandle d = amdDomainCreate(\"x\"); amdTaskBegin(d,0,0,amdStringHandleCreate(\"y\")); amdTaskEnd(d); return !amdProfileResume(); }' | g++ -x c++ -Iinclude -fsyntax-only -"
exit 0
