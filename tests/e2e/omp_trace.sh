#!/usr/bin/env bash
# OpenMP in trace.json (report --export perfetto) of a --trace openmp session. A program with
# known waits (tests/targets/omp_trace.c: N regions of T threads, in region r thread r % T
# works while the others wait at an explicit barrier, each thread measuring its own wait):
# with --openmp-scope full every team thread's track has exactly N region slices (named
# with the region's row, one per team member and region) and N explicit-barrier waits,
# each inside its region slice and within 10 % of the wait the thread measured of itself;
# every OpenMP slice nests properly on its track; the samples taken in work() lie inside
# their thread's region slices (one clock). With basic scope: the region slices, no wait,
# and otherData says why. An offload program (tests/targets/omp_offload.c) gets a device
# track whose target, data-op and submit slices match its N regions and bytes exactly.
. "$(dirname "$0")/lib/common.sh"

skipped=0
skip() { skipped=$((skipped + 1)); ok "# SKIP $*"; }
fact() { sed -n "s/^$1=//p" "$2"; }
SRC=tests/targets/omp_trace.c
N=6
T=3

if [ ! -x "$TGT/omp_trace" ]; then
	skip "clang or LLVM libomp missing: omp_trace not built (region and wait slices)"
else
	line=$(grep -n '^#pragma omp parallel' "$SRC" | head -1 | cut -d: -f1)
	SITE="main\$omp\$parallel:1@omp_trace.c:$line"
	# waiting threads sleep (KMP_BLOCKTIME=0): a wait is the time asleep in the barrier
	KMP_BLOCKTIME=0 "$UPROF" collect --trace openmp --openmp-scope full -o "$SCRATCH/f" \
		"$TGT/omp_trace" $N $T 20 >"$SCRATCH/out" 2>"$SCRATCH/err"
	check "collect --openmp-scope full exits 0" [ $? -eq 0 ]
	check "the program had its $T threads in every team" grep -qx "team=$T" "$SCRATCH/out"
	S=$(session_in "$SCRATCH/f")
	"$UPROF" report -i "$S" --export perfetto >/dev/null 2>"$SCRATCH/rerr"
	check "report --export perfetto exits 0" [ $? -eq 0 ]
	J=$S/trace.json
	check "trace.json parses as JSON" "$PYTHON" -c "import json,sys; json.load(open(sys.argv[1]))" "$J"
	"$PYTHON" "$HERE/omptrace.py" threads "$J" "$SITE" "$SCRATCH/out" >"$SCRATCH/facts"
	sed 's/^/# /' "$SCRATCH/facts"
	F=$SCRATCH/facts
	check "$T thread tracks have region slices of $SITE ($(fact threads "$F"))" \
		[ "$(fact threads "$F")" = $T ]
	check "exactly $N region slices per team thread ($(fact regions_per_thread "$F"))" \
		[ "$(fact regions_per_thread "$F")" = $N ]
	check "one slice per (region, team member): $((N * T)) ($(fact member_slots "$F"), $(fact member_repeats "$F") repeated)" \
		[ "$(fact member_slots "$F")" = $((N * T)) -a "$(fact member_repeats "$F")" = 0 ]
	check "exactly $N explicit-barrier wait slices per thread ($(fact waits_per_thread "$F"))" \
		[ "$(fact waits_per_thread "$F")" = $N ]
	check "every wait lies inside its region slice on the same track ($(fact waits_outside_regions "$F") outside)" \
		[ "$(fact waits_outside_regions "$F")" = 0 ]
	check "every OpenMP slice nests properly on its track ($(fact misnested "$F") do not)" \
		[ "$(fact misnested "$F")" = 0 ]
	check "each of the $((N * T)) waits within 10 % of what its thread measured ($(fact waits_off "$F") off of $(fact waits_compared "$F"); worst: $(fact worst "$F"))" \
		[ "$(fact waits_compared "$F")" = $((N * T)) -a "$(fact waits_off "$F")" = 0 ]
	check "samples and slices on one clock: work()'s samples lie in their thread's regions ($(fact work_samples_outside "$F") of $(fact work_samples "$F") outside)" \
		[ "$(fact work_samples "$F")" -gt 0 -a "$(fact work_samples_outside "$F")" = 0 ]
	check "otherData says the waits were recorded" \
		bash -c "[ \"\$(sed -n 's/^waits_said=//p' '$F')\" = 'recorded (--openmp-scope full)' ]"
	check "otherData says explicit tasks are not shown, and why" \
		grep -q '^tasks_said=not shown: the tool counts explicit tasks' "$F"

	# --- --time-filter clips the slices as it clips task instances: the middle third of
	# the regions' time, every OpenMP slice inside it, still nested
	read -r from to <<<"$("$PYTHON" - "$J" <<'PY'
import json, sys
x = [e for e in json.load(open(sys.argv[1]))["traceEvents"] if e.get("cat") == "openmp"]
f = min(e["ts"] for e in x); l = max(e["ts"] + e["dur"] for e in x)
print("%.6f %.6f" % ((f + (l - f) / 3) / 1e6, (f + 2 * (l - f) / 3) / 1e6))
PY
)"
	"$UPROF" report -i "$S" --time-filter "$from:$to" --export perfetto >/dev/null 2>&1
	inwin=$("$PYTHON" - "$J" "$from" "$to" <<'PY'
import json, sys
lo, hi = float(sys.argv[2]) * 1e6, float(sys.argv[3]) * 1e6
x = [e for e in json.load(open(sys.argv[1]))["traceEvents"] if e.get("cat") == "openmp"]
print(len(x), sum(1 for e in x if e["ts"] < lo - 1e-3 or e["ts"] + e["dur"] > hi + 1e-3))
PY
)
	"$PYTHON" "$HERE/omptrace.py" threads "$J" "$SITE" >"$F.window"
	check "--time-filter $from:$to: slices kept, none outside the window ($inwin: kept, outside)" \
		bash -c "set -- $inwin; [ \$1 -gt 0 -a \$2 = 0 ]"
	check "--time-filter: fewer than $N region slices per thread ($(fact regions_per_thread "$F.window")), still nested ($(fact misnested "$F.window") not)" \
		bash -c "[ \"\$(sed -n 's/^misnested=//p' '$F.window')\" = 0 ] && \"$PYTHON\" -c 'import sys; sys.exit(0 if all(int(c) < $N for c in sys.argv[1].split(\",\")) else 1)' \"\$(sed -n 's/^regions_per_thread=//p' '$F.window')\""

	# --- basic scope: region slices, no waits, and otherData says so
	KMP_BLOCKTIME=0 "$UPROF" collect --trace openmp -o "$SCRATCH/b" "$TGT/omp_trace" $N $T 5 \
		>"$SCRATCH/out" 2>"$SCRATCH/err"
	check "collect (basic scope) exits 0" [ $? -eq 0 ]
	S=$(session_in "$SCRATCH/b")
	"$UPROF" report -i "$S" --export perfetto >/dev/null 2>&1
	"$PYTHON" "$HERE/omptrace.py" threads "$S/trace.json" "$SITE" >"$F"
	sed 's/^/# /' "$F"
	check "basic: exactly $N region slices on each of $T threads ($(fact regions_per_thread "$F") on $(fact threads "$F"))" \
		[ "$(fact threads "$F")" = $T -a "$(fact regions_per_thread "$F")" = $N ]
	check "basic: no wait slice ($(fact wait_slices "$F"), $(fact waits_per_thread "$F") per thread)" \
		[ "$(fact wait_slices "$F")" = 0 -a "$(fact waits_per_thread "$F")" = 0 ]
	check "basic: otherData says waits are not recorded under --openmp-scope basic" \
		grep -q '^waits_said=not recorded: --openmp-scope basic records none' "$F"
fi

# --- target offload: a device track (LLVM 19's runtime runs the regions on the host device)
if ! command -v clang-19 >/dev/null || [ ! -x "$TGT/omp_offload" ]; then
	skip "omp_offload not built (clang-19 or LLVM 19's OpenMP runtime missing): no device track"
else
	ND=4
	"$UPROF" collect --trace openmp -o "$SCRATCH/o" "$TGT/omp_offload" $ND >"$SCRATCH/out" 2>&1
	check "collect of the offload program exits 0" [ $? -eq 0 ]
	S=$(session_in "$SCRATCH/o")
	"$UPROF" report -i "$S" --export perfetto >/dev/null 2>&1
	"$PYTHON" "$HERE/omptrace.py" devices "$S/trace.json" >"$F"
	sed 's/^/# /' "$F"
	check "a track 'OpenMP device 0' ($(fact device_tracks "$F"))" \
		[ "$(fact device_tracks "$F")" = "OpenMP device 0" ]
	check "$ND target slices, $ND kernel submits ($(fact targets "$F"), $(fact submits "$F"))" \
		[ "$(fact targets "$F")" = $ND -a "$(fact submits "$F")" = $ND ]
	# each region maps 1000 doubles to the device, 1000 back and 250 both ways
	check "bytes to the device exact: $ND x 10000 ($(fact to_bytes "$F"))" \
		[ "$(fact to_bytes "$F")" = $((ND * 10000)) ]
	check "bytes from the device exact: $ND x 10000 ($(fact from_bytes "$F"))" \
		[ "$(fact from_bytes "$F")" = $((ND * 10000)) ]
	check "data ops and submits lie inside their target slices ($(fact outside_targets "$F") outside)" \
		[ "$(fact outside_targets "$F")" = 0 ]
	check "the device track nests properly ($(fact misnested "$F") do not)" \
		[ "$(fact misnested "$F")" = 0 ]
fi
echo "# skipped: $skipped"
echo "1..$_n"
