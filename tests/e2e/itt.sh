#!/usr/bin/env bash
# Issue 6 must-shows 1 and 3: libAMDProfileController.so as an Intel ITT collector.
# 1. itt_harness plays two ITT static parts of our own (lazy dlopen, __itt_global with an
#    api_list of pointer slots, domains made before init, two globals in one process):
#    every bound call reaches the report. 3. An OpenMP program (clang + LLVM libomp) under
#    uprof: libomp's own ITT part loads the collector; its thread names reach the
#    per-thread report and nothing crashes.
. "$(dirname "$0")/lib/common.sh"

LIB=$PWD/$BUILD/lib/libAMDProfileController.so
unset INTEL_LIBITTNOTIFY64 INTEL_ITTNOTIFY_GROUPS

# task DOMAIN NAME: "count<TAB>elapsed<TAB>cpu" of a row of the hottest-tasks section
task() {
	csvq "$1/report.csv" "ALL TASKS" | awk -F'\t' -v d="$2" -v n="$3" '$1==d && $2==n {print $3"\t"$4"\t"$5; exit}'
}
threads() { csvq "$1/report.csv" "ALL THREADS" | cut -f1; }

# --- without uprof and without a collector: every call is a no-op
out=$("$TGT/itt_harness" 2>&1)
check "harness without a collector runs (state collector_absent)" grep -q "done, 0 failed" <<<"$out"

# --- uprof collect sets INTEL_LIBITTNOTIFY64 unless the user did
v=$("$UPROF" collect -o "$SCRATCH/env" /usr/bin/printenv INTEL_LIBITTNOTIFY64 2>/dev/null | head -1)
check "collect sets INTEL_LIBITTNOTIFY64 to our library ($v)" [ "$v" -ef "$LIB" ]
v=$(INTEL_LIBITTNOTIFY64=/opt/other/libcollector.so "$UPROF" collect -o "$SCRATCH/env2" \
	/usr/bin/printenv INTEL_LIBITTNOTIFY64 2>/dev/null | head -1)
check "collect keeps the user's INTEL_LIBITTNOTIFY64 ($v)" [ "$v" = /opt/other/libcollector.so ]

# --- must-show 1: the harness under uprof
"$UPROF" collect -o "$SCRATCH/h" "$TGT/itt_harness" >"$SCRATCH/out" 2>"$SCRATCH/err"
check "collect exits 0" [ $? -eq 0 ]
check "the harness's own ABI checks passed" grep -q "harness: done, 0 failed" "$SCRATCH/out"
check "lazy: nothing loaded by create calls, loaded by the first task_begin" \
	bash -c "grep -q 'ok: the collector is not loaded by create calls' '$SCRATCH/out' &&
		 grep -q 'ok: first task_begin loaded the collector' '$SCRATCH/out'"
check "two globals: each __itt_api_init filled its own table" \
	bash -c "grep -q 'ok: part a: every table entry' '$SCRATCH/out' &&
		 grep -q 'ok: part b: its own __itt_api_init filled its table' '$SCRATCH/out'"
ba=$(sed -n 's/^harness: part a bound \([0-9]*\) entries/\1/p' "$SCRATCH/out")
bb=$(sed -n 's/^harness: part b bound \([0-9]*\) entries/\1/p' "$SCRATCH/out")
check "part a: 15 of 16 entries bound (all but sync_create) ($ba)" [ "${ba:-0}" -eq 15 ]
check "part b: 11 of 12 entries bound ($bb)" [ "${bb:-0}" -eq 11 ]
check "no sanitizer or crash report" bash -c "! grep -qi 'sanitizer\|segmentation' '$SCRATCH/err'"
S=$(session_in "$SCRATCH/h")
"$UPROF" report -i "$S" --detail --cutoff 0 >/dev/null 2>&1
check "report written" [ -s "$S/report.csv" ]
# DOMAIN TASK COUNT ELAPSED: each task holds a spin of ELAPSED s of wall time, so it lasts
# at least that (its 4 decimals less half a unit), and no longer than the profile (how much
# longer than the spin a loaded machine made it is no fact)
dur=$(csvq "$S/report.csv" --key "Profile Duration" | awk '{print $1}')
while read -r d n c e what; do
	IFS=$'\t' read -r gc ge gu <<<"$(task "$S" "$d" "$n")"
	check "$what: $d/$n count $c (${gc:-none})" [ "${gc:-0}" = "$c" ]
	check "$what: $d/$n elapsed at least its $e s spin, within the profile's $dur s (${ge:-none})" \
		"$PYTHON" -c "import sys; sys.exit(0 if $e - 0.00005 <= ${ge:-0} <= $dur else 1)"
done <<'EOF'
IttEarly Before 1 0.05 domain+string made by the static part before init
IttDom After 1 0.05 handles made by the collector
IttDom Outer 1 0.08 nested outer
IttDom Inner 1 0.04 nested inner
IttDom itt_fn_task 1 0.03 task_begin_fn named by the function
IttDom Overlapped 1 0.03 task_begin/end_overlapped
IttDom Frame 1 0.03 frame_begin/end_v3
User IttEvent 1 0.03 event_create/start/end (namelen honoured)
OmpLike Region 1 0.05 the second static part's early domain
Stranger Foreign 1 0.02 a static-part-layout domain nobody registered
EOF
check "the task begun while paused (__itt_pause) is absent" [ -z "$(task "$S" IttDom Paused)" ]
f=$(csvq "$S/report.csv" "ALL FUNCTIONS" | cut -f1)
check "paused_work() has no samples" bash -c "! grep -qx paused_work <<<'$f'"
check "named_thread_work() has samples" grep -qx named_thread_work <<<"$f"
check "pauses.csv: one interval made through ITT" grep -Eq '^[0-9]+,[0-9]+,[0-9]+,itt$' "$S/pauses.csv"
# the pause holds paused_work's 0.15 s spin and lies in the window the harness measured
# around the two calls (how much longer than 0.15 s it lasted is the machine's load)
pd=$(csvq "$S/report.csv" --key "Pause Duration" | awk '{print $1}')
read -r w0 w1 <<<"$(sed -n 's/^harness: pause window //p' "$SCRATCH/out")"
read -r p0 p1 <<<"$(awk -F, '$4 == "itt" {print $2, $3}' "$S/pauses.csv")"
check "pause (part a) to resume (part b): over paused_work's 0.15 s, inside the harness's window ($pd s; $p0..$p1 in $w0..$w1)" \
	"$PYTHON" -c "import sys; sys.exit(0 if ${w0:-1} <= ${p0:-0} and ${p0:-0} + 150000000 <= ${p1:-0} <= ${w1:-0} and abs($pd - (${p1:-0} - ${p0:-0}) / 1e9) <= 0.0006 else 1)"
t=$(threads "$S")
check "__itt_thread_set_name names the thread in the per-thread report" \
	grep -q '^itt harness worker #1 (PID:[0-9]*)$' <<<"$t"
"$UPROF" report -i "$S" --detail --group-by thread --cutoff 0 >/dev/null 2>&1
check "--group-by thread: a section for the named thread" \
	grep -q '^PROFILE REPORT FOR THREAD - itt harness worker #1 (PID:[0-9]*) (TID:[0-9]*)$' "$S/report.csv"

# --- must-show 3: OpenMP with LLVM's libomp
if [ ! -x "$TGT/itt_omp" ]; then
	ok "# SKIP OpenMP: clang or libomp-dev is not installed (scripts/install-deps.sh)"
else
	out=$(INTEL_LIBITTNOTIFY64=$LIB "$TGT/itt_omp" 2>&1)
	check "the OpenMP program runs with the collector and no profiler" grep -q '^itt_omp: 3 threads' <<<"$out"
	"$UPROF" collect -o "$SCRATCH/omp" "$TGT/itt_omp" >"$SCRATCH/out" 2>"$SCRATCH/err"
	check "OpenMP: collect exits 0" [ $? -eq 0 ]
	check "OpenMP: the program exited with status 0" grep -q 'exited with status 0' "$SCRATCH/err"
	check "OpenMP: no crash or sanitizer report" bash -c "! grep -qi 'sanitizer\|segmentation\|signal' '$SCRATCH/err'"
	S=$(session_in "$SCRATCH/omp")
	"$UPROF" report -i "$S" --detail --group-by thread --cutoff 0 >/dev/null 2>"$SCRATCH/err"
	check "OpenMP: report exits 0" [ $? -eq 0 ]
	t=$(threads "$S")
	check "OpenMP: the primary thread is named by libomp" grep -q '^OMP Primary Thread #0 (PID:' <<<"$t"
	n=$(grep -c '^OMP Worker Thread #[0-9]* (PID:' <<<"$t")
	check "OpenMP: both worker threads are named ($n)" [ "$n" -eq 2 ]
	check "OpenMP: per-thread sections carry the names" \
		grep -q '^PROFILE REPORT FOR THREAD - OMP Worker Thread #[0-9]* (PID:[0-9]*) (TID:' "$S/report.csv"
fi

# --- documentation
check "man/uprof-itt.7 renders without warnings" bash -c \
	"[ -z \"\$(groff -man -ww -z man/uprof-itt.7 2>&1)\" ] && [ -z \"\$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l man/uprof-itt.7 2>&1 >/dev/null)\" ]"
exit 0
