#!/usr/bin/env bash
# Issue 6 must-show 2: python/amd_instrument.py under uprof collect --start-paused: group 1
# and group 2 tasks with the right counts and elapsed times, paused work absent. Also: the
# module fails soft (one warning, no-ops) without the library, and finds the library next
# to itself in an installed layout (<prefix>/lib/python -> <prefix>/lib).
. "$(dirname "$0")/lib/common.sh"

LIB=$PWD/$BUILD/lib/libAMDProfileController.so
PY=$("$PYTHON" -c 'import sys; print(sys.executable)' 2>/dev/null)
if [ -z "$PY" ]; then
	ok "# SKIP python3 is not installed"
	exit 0
fi
task() {
	csvq "$1/report.csv" "${4:-ALL TASKS}" ${5:+--after "$5"} | awk -F'\t' -v d="$2" -v n="$3" '$1==d && $2==n {print $3"\t"$4"\t"$5; exit}'
}

# --- must-show 2
PYTHONPATH=$PWD/python AMDUPROF_LIB=$LIB "$UPROF" collect --start-paused -o "$SCRATCH/p" \
	"$PY" tests/targets/py_tasks.py >"$SCRATCH/out" 2>"$SCRATCH/err"
check "collect exits 0" [ $? -eq 0 ]
check "the script ran to its end" grep -q '^py_tasks: done$' "$SCRATCH/out"
check "bad calls were warned about, once per kind" \
	bash -c "[ \$(grep -c 'amd_start_task needs' '$SCRATCH/err') -eq 1 ] && [ \$(grep -c 'may not contain a comma' '$SCRATCH/err') -eq 1 ]"
S=$(session_in "$SCRATCH/p")
"$UPROF" report -i "$S" --detail --cutoff 0 >/dev/null 2>&1
check "report written" [ -s "$S/report.csv" ]
while read -r d n c e what; do
	IFS=$'\t' read -r gc ge gu <<<"$(task "$S" "$d" "$n")"
	check "$what: $d/$n count $c (${gc:-none})" [ "${gc:-0}" = "$c" ]
	check "$what: $d/$n elapsed ~$e s (${ge:-none})" near "${ge:-9}" "$e" 0.03
done <<'EOF'
PyDom Group1 1 0.10 group 1 amd_start_task/amd_end_task
PyDom Loop 3 0.09 group 1 three times
PyDom Nest 1 0.08 group 1 nested outer
PyDom Inner 1 0.04 group 1 nested inner
PyDom2 Group2 1 0.10 group 2 domain_create/task_begin/task_end
PyDom2 Strict 1 0.05 group 2 between strict resume and strict pause
EOF
check "the task begun and ended while paused is absent" [ -z "$(task "$S" PyDom Paused)" ]
tasks=$(csvq "$S/report.csv" "ALL TASKS")
check "bad calls made no task" bash -c "! grep -q 'NoSeparator\|NoDomain\|NeverBegun\|Comma' <<<'$tasks'"
pid=$(csvq "$S/report.csv" PROCESSES | head -1 | sed 's/.*PID:\([0-9]*\).*/\1/')
IFS=$'\t' read -r c e u <<<"$(task "$S" PyDom Loop "TASK SUMMARY" "PROFILE REPORT FOR PROCESS")"
check "--detail: the process's task summary has PyDom/Loop x3 ($c)" [ "$c" = 3 ]
check "pauses.csv: start-paused, group 1 and strict intervals" \
	bash -c "grep -q ',start-paused$' '$S/pauses.csv' && grep -q '^$pid,.*,api$' '$S/pauses.csv' && grep -q '^$pid,.*,api-strict$' '$S/pauses.csv'"
pd=$(csvq "$S/report.csv" --key "Pause Duration" | awk '{print $1}')
# paused: interpreter start + 0.2 s, the 0.2 s paused_work, the 0.1 s after the strict pause
check "Pause Duration covers the paused work (>= 0.5 s: $pd)" "$PYTHON" -c "import sys; sys.exit(0 if float('$pd') >= 0.5 else 1)"
# all the script's zlib work is paused (0.4 s); the same work unpaused is sampled in libz
mods=$(csvq "$S/report.csv" "ALL MODULES" | cut -f1)
check "paused work is absent: no sample in libz" bash -c "! grep -q '/libz\.so' <<<'$mods'"
PYTHONPATH=$PWD/python AMDUPROF_LIB=$LIB "$UPROF" collect -o "$SCRATCH/c" \
	"$PY" tests/targets/py_tasks.py control >/dev/null 2>&1
C=$(session_in "$SCRATCH/c")
"$UPROF" report -i "$C" --cutoff 0 >/dev/null 2>&1
mods=$(csvq "$C/report.csv" "ALL MODULES" | cut -f1)
check "(control: the same zlib work unpaused is sampled in libz)" grep -q '/libz\.so' <<<"$mods"
cpu=$(csvq "$S/report.csv" "ALL PROCESSES" | head -1 | cut -f2)
# resumed work is ~0.42 s of wall time; with the paused work (0.5 s) it would be ~0.9 s
check "only resumed work was sampled (CPU_TIME $cpu <= 0.6 s)" \
	"$PYTHON" -c "import sys; sys.exit(0 if 0 < float('${cpu:-0}') <= 0.6 else 1)"

# --- fails soft without the library: one warning, then no-ops
mkdir -p "$SCRATCH/alone"
cp python/amd_instrument.py "$SCRATCH/alone/"
if [ -n "$("$PY" -c 'import ctypes.util; print(ctypes.util.find_library("AMDProfileController") or "")')" ]; then
	ok "# SKIP fail-soft: libAMDProfileController is installed on the linker's path"
else
	out=$(cd "$SCRATCH/alone" && AMDUPROF_LIB=/nonexistent/lib.so "$PY" -c '
import amd_instrument as a
a.amd_start_task("D::T"); a.amd_end_task("D")
d = a.domain_create("D"); a.task_begin(d, "T"); a.task_end(d)
assert a.amd_profile_resume() and a.amd_profile_pause()
assert a.amd_profile_strict_resume() and a.amd_profile_strict_pause()
print("no-ops fine")' 2>&1)
	check "without the library every call is a no-op" grep -q '^no-ops fine$' <<<"$out"
	check "and there is exactly one warning" [ "$(grep -c '^amd_instrument: .*not found' <<<"$out")" -eq 1 ]
fi

# --- installed layout: <prefix>/lib/python/amd_instrument.py finds <prefix>/lib/<lib>
mkdir -p "$SCRATCH/prefix/lib/python"
cp python/amd_instrument.py "$SCRATCH/prefix/lib/python/"
cp "$LIB" "$SCRATCH/prefix/lib/"
out=$(cd / && PYTHONPATH=$SCRATCH/prefix/lib/python "$PY" -c '
import amd_instrument as a; print(a._lib._name if a._lib else "none")' 2>&1)
check "installed layout: the module loads ../libAMDProfileController.so ($out)" \
	[ "$out" -ef "$SCRATCH/prefix/lib/libAMDProfileController.so" ]
exit 0
