#!/usr/bin/env bash
# Nested OpenMP teams and host teams (collect --trace openmp), held against what the program
# measured of itself on the same run (tests/targets/omp_nested.c): outer 2 x inner 2 and
# outer 4 x inner 2, with OMP_MAX_ACTIVE_LEVELS=2 and without it (libomp then runs the inner
# regions serialized: teams of 1), clang (LLVM libomp) and gcc (libgomp's ABI on libomp,
# --openmp-impl omplib) builds, and under two CPU hogs. Each region's work, nested time and
# idle within 10 % of the program's own wall-time figures (both sides stretch alike under
# load), its Thread Count the team size the program saw, its instances, parent and level
# exact; the OVERVIEW's Work Time the program's work counted once (no region's work twice).
# The program's region elapsed times are between the events uprof's are: its own OMPT tool
# (tests/targets/omp_nested_stamps.c), chained behind uprof's through OMP_TOOL_LIBRARIES,
# stamps parallel_begin and parallel_end and counts the live threads; its clock around the
# pragma also held the runtime's work outside them and time the thread lost its CPU there,
# which beside two CPU hogs made the 2x2 outer idle 1.795 s against uprof's 1.494 s.
# A host teams construct is a teams row on its own pragma, its parallel a row below it, and
# no "unknown" row. Waiting threads sleep (KMP_BLOCKTIME=0), so work is what runs.
. "$(dirname "$0")/lib/common.sh"

ompq() { "$PYTHON" "$HERE/ompq.py" "$@"; }
skipped=0
skip() { skipped=$((skipped + 1)); ok "# SKIP $*"; }
SRC=tests/targets/omp_nested.c
line_of() { grep -n "$1" "$SRC" | head -1 | cut -d: -f1; }
# within A B: A (s) within 10 % of B (ms), + 2 ms for the program's own timing outside the
# task (its clock reads, the atomic add)
within() { "$PYTHON" -c "import sys; a,b=float(sys.argv[1]),float(sys.argv[2])/1e3; sys.exit(0 if abs(a-b) <= 0.10*b + 0.002 else 1)" "$@"; }
# the program's value of KEY on its "nest" line
val() { sed -n "s/^nest.* $1=\([0-9.]*\).*/\1/p" "$2"; }
# all_stamped OUT: the stamps tool timed each of the program's region instances
all_stamped() {
	local on in st
	on=$(val outer_n "$1") in=$(val inner_n "$1") st=$(val stamped "$1")
	[ -n "$on" ] && [ -n "$in" ] && [ "$st" = "$((on + in))" ]
}
team_str() { if [ "$1" = "$2" ]; then echo "$2"; else echo "$2 ($1-$2)"; fi; }
HAVE_LIBOMP=$(ls /usr/lib/llvm-*/lib/libomp.so.5 2>/dev/null | head -1)
STAMPS=$TGT/libomp_nested_stamps.so
# the program's own OMPT tool behind uprof's, and where the program finds it
export OMP_TOOL_LIBRARIES=$STAMPS OMP_NESTED_STAMPS=$STAMPS
LO=$(line_of '^#pragma omp parallel num_threads(outer)')
LI=$(line_of '^#pragma omp parallel num_threads(inner)')
OUTER="nest\$omp\$parallel:1@omp_nested.c:$LO"
INNER="nest\$omp\$parallel:2@omp_nested.c:$LI"

# nest TAG BIN LEVELS "O I [R [K]]" [collect options]: one run of "omp_nested nest O I R K"
# and its checks (LEVELS "-": unset)
nest() {
	local tag=$1 bin=$2 levels=$3 args out R S key
	read -r -a args <<<"$4"
	shift 4
	key=${tag// /_}
	out=$SCRATCH/$key.out
	if [ "$levels" = - ]; then
		env -u OMP_MAX_ACTIVE_LEVELS -u OMP_NESTED KMP_BLOCKTIME=0 "$UPROF" collect --trace openmp "$@" \
			-o "$SCRATCH/$key" "$bin" nest "${args[@]}" >"$out" 2>"$SCRATCH/$key.err"
	else
		OMP_MAX_ACTIVE_LEVELS=$levels KMP_BLOCKTIME=0 "$UPROF" collect --trace openmp "$@" \
			-o "$SCRATCH/$key" "$bin" nest "${args[@]}" >"$out" 2>"$SCRATCH/$key.err"
	fi
	check "$tag: collect exits 0 and the program reported ($(head -c 400 "$out"))" \
		grep -q '^nest outer_n=' "$out"
	check "$tag: every region instance timed by the stamps tool ($(val stamped "$out") of $(val outer_n "$out") + $(val inner_n "$out"))" \
		all_stamped "$out"
	S=$(session_in "$SCRATCH/$key")
	"$UPROF" report -i "$S" >/dev/null 2>&1
	R=$S/report.csv
	check "$tag: report written" [ -s "$R" ]
	echo "# $tag regions: $(ompq "$R" regions | tr '\n' ' ')"
	check "$tag: two region rows, the outer and the inner ($OUTER, $INNER)" \
		[ "$(ompq "$R" regions | tr '\n' ' ')" = "$OUTER $INNER " ]
	check "$tag: outer instances as the program counted ($(val outer_n "$out"))" \
		[ "$(ompq "$R" region "$OUTER" Instances)" = "$(val outer_n "$out")" ]
	check "$tag: inner instances as the program counted ($(val inner_n "$out"))" \
		[ "$(ompq "$R" region "$INNER" Instances)" = "$(val inner_n "$out")" ]
	local ot it
	ot=$(team_str "$(val outer_tmin "$out")" "$(val outer_tmax "$out")")
	it=$(team_str "$(val inner_tmin "$out")" "$(val inner_tmax "$out")")
	check "$tag: outer Thread Count is its team size ($(ompq "$R" region "$OUTER" "Thread Count"), the program's $ot)" \
		[ "$(ompq "$R" region "$OUTER" "Thread Count")" = "$ot" ]
	check "$tag: inner Thread Count is its team size ($(ompq "$R" region "$INNER" "Thread Count"), the program's $it)" \
		[ "$(ompq "$R" region "$INNER" "Thread Count")" = "$it" ]
	check "$tag: the inner region's parent is the outer, level 2; the outer level 1, no parent" \
		[ "$(ompq "$R" region "$INNER" "Parent Region")|$(ompq "$R" region "$INNER" "Nest Level")|$(ompq "$R" region "$OUTER" "Parent Region")|$(ompq "$R" region "$OUTER" "Nest Level")" = "nest\$omp\$parallel:1@omp_nested.c:$LO|2||1" ]
	local ow iw on oi ii
	ow=$(ompq "$R" total "$OUTER" "Avg Work Time")
	iw=$(ompq "$R" total "$INNER" "Avg Work Time")
	on=$(ompq "$R" total "$OUTER" "Avg Nested Time")
	oi=$(ompq "$R" total "$OUTER" "Avg Idle Time")
	ii=$(ompq "$R" total "$INNER" "Avg Idle Time")
	check "$tag: outer work (its members' own, not the inner's) within 10 % of the program's ($ow s, $(val outer_work "$out") ms)" \
		within "$ow" "$(val outer_work "$out")"
	check "$tag: inner work within 10 % of the program's ($iw s, $(val inner_work "$out") ms)" \
		within "$iw" "$(val inner_work "$out")"
	check "$tag: the outer's nested time is the inner regions' elapsed within 10 % ($on s, $(val outer_nested "$out") ms)" \
		within "$on" "$(val outer_nested "$out")"
	# idle: the threads in no team of the region at any level (the program's formula); none
	# when the inner teams are serialized (each outer member is its own inner team)
	check "$tag: outer idle within 10 % of the threads in none of its teams ($oi s, $(val outer_idle "$out") ms; elapsed $(val outer_el "$out") ms)" \
		"$PYTHON" -c "import sys; a,b,el=$oi,$(val outer_idle "$out")/1e3,$(val outer_el "$out")/1e3; sys.exit(0 if abs(a-b) <= 0.10*max(b, 0.05*el) + 0.002 else 1)"
	check "$tag: inner idle within 10 % of the program's ($ii s, $(val inner_idle "$out") ms)" \
		within "$ii" "$(val inner_idle "$out")"
	# CPU time per region (timer samples in its tasks, the timer on the thread's CPU
	# time): the outer's own, the inner's theirs, as the program's CPU clock measured
	local oc ic
	oc=$(ompq "$R" region "$OUTER" "CPU Time")
	ic=$(ompq "$R" region "$INNER" "CPU Time")
	check "$tag: outer CPU Time is its members' own work's within 10 % + 20 ms ($oc s, $(val outer_cpu "$out") ms)" \
		"$PYTHON" -c "import sys; a,b=$oc,$(val outer_cpu "$out")/1e3; sys.exit(0 if abs(a-b) <= 0.10*b + 0.02 else 1)"
	check "$tag: inner CPU Time within 10 % + 20 ms of the program's ($ic s, $(val inner_cpu "$out") ms)" \
		"$PYTHON" -c "import sys; a,b=$ic,$(val inner_cpu "$out")/1e3; sys.exit(0 if abs(a-b) <= 0.10*b + 0.02 else 1)"
	# each thread-second once: the OVERVIEW's work is the two regions' (wall time, as the
	# program measured it), and the regions' work adds up to it
	local tw pw
	tw=$(ompq "$R" overview ".. Work Time")
	pw=$("$PYTHON" -c "print($(val outer_work "$out") + $(val inner_work "$out"))")
	check "$tag: OVERVIEW Work Time is the program's work, counted once, within 10 % ($tw s, $pw ms)" \
		within "$tw" "$pw"
	check "$tag: OVERVIEW Work Time is the regions' work summed, not more ($tw s, $ow + $iw s)" \
		"$PYTHON" -c "import sys; sys.exit(0 if abs($tw - ($ow + $iw)) <= 0.01 else 1)"
	check "$tag: OVERVIEW CPU Time no more than the program's CPU time in its work + 10 % + 50 ms ($(ompq "$R" overview "CPU Time(seconds)"), $(val cpu "$out") ms)" \
		"$PYTHON" -c "import sys; sys.exit(0 if $(ompq "$R" overview "CPU Time(seconds)") <= $(val cpu "$out")/1e3*1.1 + 0.05 else 1)"
}

builds=()
[ -x "$TGT/omp_nested" ] && [ -f "$STAMPS" ] && builds+=(clang)
[ -x "$TGT/omp_nested_gcc" ] && [ -n "$HAVE_LIBOMP" ] && [ -f "$STAMPS" ] && builds+=(gcc)
{ [ -x "$TGT/omp_nested" ] && [ -f "$STAMPS" ]; } ||
	skip "clang or LLVM libomp missing: omp_nested or its stamps tool not built"
{ [ -x "$TGT/omp_nested_gcc" ] && [ -n "$HAVE_LIBOMP" ] && [ -f "$STAMPS" ]; } ||
	skip "gcc or LLVM libomp missing (the gcc build runs through --openmp-impl omplib)"
for b in "${builds[@]}"; do
	if [ "$b" = clang ]; then bin=$TGT/omp_nested opt=(); else bin=$TGT/omp_nested_gcc opt=(--openmp-impl omplib); fi
	nest "$b 2x2" "$bin" 2 "2 2" "${opt[@]}"
	nest "$b 4x2" "$bin" 2 "4 2" "${opt[@]}"
	nest "$b 2x2 levels unset" "$bin" - "2 2" "${opt[@]}"
	# two CPU hogs: the figures are the program's own on the same run, so they hold
	yes >/dev/null &
	y1=$!
	yes >/dev/null &
	y2=$!
	nest "$b 4x2 two hogs" "$bin" 2 "4 2" "${opt[@]}"
	kill "$y1" "$y2" 2>/dev/null
	wait "$y1" "$y2" 2>/dev/null
done

# 70 inner regions one after the other in each outer member: more than the tool's table
# of a thread's instances (64), which must not lose the outer one still open. The outer
# region's figures only: inner regions of 0.3 ms of work are mostly fork and join, whose
# split is not this test's (libomp keeps the inner teams' threads; natively, libgomp
# makes new ones each time: clang only)
if [ -x "$TGT/omp_nested" ] && [ -f "$STAMPS" ]; then
	OMP_MAX_ACTIVE_LEVELS=2 KMP_BLOCKTIME=0 "$UPROF" collect --trace openmp -o "$SCRATCH/many" \
		"$TGT/omp_nested" nest 2 2 2 70 >"$SCRATCH/many.out" 2>/dev/null
	out=$SCRATCH/many.out
	check "70 inner each: every region instance timed by the stamps tool ($(val stamped "$out") of $(val outer_n "$out") + $(val inner_n "$out"))" \
		all_stamped "$out"
	S=$(session_in "$SCRATCH/many")
	"$UPROF" report -i "$S" >/dev/null 2>&1
	R=$S/report.csv
	check "70 inner each: the outer region's 2 instances kept ($(ompq "$R" region "$OUTER" Instances)), the inner's $(val inner_n "$out")" \
		[ "$(ompq "$R" region "$OUTER" Instances)|$(ompq "$R" region "$INNER" Instances)" = "2|$(val inner_n "$out")" ]
	check "70 inner each: outer elapsed within 10 % of the program's ($(ompq "$R" region "$OUTER" "Total Elapsed Time") s, $(val outer_el "$out") ms)" \
		within "$(ompq "$R" region "$OUTER" "Total Elapsed Time")" "$(val outer_el "$out")"
	check "70 inner each: outer work within 10 % of the program's ($(ompq "$R" total "$OUTER" "Avg Work Time") s, $(val outer_work "$out") ms)" \
		within "$(ompq "$R" total "$OUTER" "Avg Work Time")" "$(val outer_work "$out")"
	check "70 inner each: outer nested time within 10 % of the inner regions' elapsed ($(ompq "$R" total "$OUTER" "Avg Nested Time") s, $(val outer_nested "$out") ms)" \
		within "$(ompq "$R" total "$OUTER" "Avg Nested Time")" "$(val outer_nested "$out")"
	check "70 inner each: outer idle within 10 % of the program's ($(ompq "$R" total "$OUTER" "Avg Idle Time") s, $(val outer_idle "$out") ms)" \
		within "$(ompq "$R" total "$OUTER" "Avg Idle Time")" "$(val outer_idle "$out")"
fi

if [ ! -x "$TGT/omp_nested" ]; then
	skip "clang or LLVM libomp missing: no host teams (vary and teams)"
else
	# team sizes that vary: the largest and the range
	KMP_BLOCKTIME=0 "$UPROF" collect --trace openmp -o "$SCRATCH/vary" "$TGT/omp_nested" vary 8 \
		>"$SCRATCH/vary.out" 2>/dev/null
	S=$(session_in "$SCRATCH/vary")
	"$UPROF" report -i "$S" >/dev/null 2>&1
	R=$S/report.csv
	LV=$(line_of '^#pragma omp parallel num_threads(r % 2')
	V="vary\$omp\$parallel:1@omp_nested.c:$LV"
	check "vary: teams of 2 and 4 give Thread Count '4 (2-4)' ($(ompq "$R" region "$V" "Thread Count"))" \
		[ "$(ompq "$R" region "$V" "Thread Count")" = "4 (2-4)" ]
	check "vary: 8 instances" [ "$(ompq "$R" region "$V" Instances)" = 8 ]

	# host teams: 2 teams of 2 (libomp's teams thread limit is the CPUs otherwise)
	KMP_TEAMS_THREAD_LIMIT=4 KMP_BLOCKTIME=0 "$UPROF" collect --trace openmp -o "$SCRATCH/teams" \
		"$TGT/omp_nested" teams >"$SCRATCH/teams.out" 2>/dev/null
	check "teams: the program ran 2 teams of 2 ($(cat "$SCRATCH/teams.out"))" \
		grep -q '^teams num_teams=2 team0=2 team1=2 ' "$SCRATCH/teams.out"
	S=$(session_in "$SCRATCH/teams")
	"$UPROF" report -i "$S" >/dev/null 2>&1
	R=$S/report.csv
	LT=$(line_of '^#pragma omp teams num_teams(2)')
	LP=$(line_of '^#pragma omp parallel num_threads(2) reduction(+ : sum)')
	T="teams\$omp\$teams:1@omp_nested.c:$LT"
	P="teams\$omp\$parallel:1@omp_nested.c:$LP"
	echo "# teams regions: $(ompq "$R" regions | tr '\n' ' ')"
	check "teams: exactly a teams row at its pragma and the parallel row at its own, no unknown" \
		[ "$(ompq "$R" regions | tr '\n' ' ')" = "$T $P " ]
	check "teams: one teams instance of 2 teams" \
		[ "$(ompq "$R" region "$T" Instances)|$(ompq "$R" region "$T" "Thread Count")" = "1|2" ]
	check "teams: the parallel ran once per team, teams of 2" \
		[ "$(ompq "$R" region "$P" Instances)|$(ompq "$R" region "$P" "Thread Count")" = "2|2" ]
	check "teams: each team's primary ran one task of the teams row, numbered by team" \
		[ "$(ompq "$R" thread "$T" 0 "Implicit Tasks")|$(ompq "$R" thread "$T" 1 "Implicit Tasks")" = "1|1" ]
	check "teams: the parallel's parent is the teams construct, level 2" \
		[ "$(ompq "$R" region "$P" "Parent Region")|$(ompq "$R" region "$P" "Nest Level")" = "$T|2" ]
fi
echo "# skipped: $skipped"
echo "1..$_n"
