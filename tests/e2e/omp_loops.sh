#!/usr/bin/env bash
# Worksharing loops told right (tests/targets/omp_loops.c, 2 threads, each region run R
# times): a region with a static loop of 100 iterations and a dynamic loop of 50 shows
# Loop Iterations 150 x R (their sum, not their average), and Schedule Type "Mixed" where
# the runtime names schedules; the OpenMP LOOP METRIC table has one row per loop
# construct, named like the regions and placed on its pragma's line, under its region,
# with the schedule the runtime named, "-" for the chunk (OMPT gives none), R instances
# and the iterations the program counted; a taskloop of N iterations is a row of its own
# with N x R; two regions on adjacent lines are two rows. Every count is the program's
# own (it prints what each loop ran). Builds: clang 14 + LLVM 14 libomp (its OMPT says
# no schedule: "Unknown"), clang 19 + LLVM 19's runtime (static, dynamic, guided named),
# gcc traced through --openmp-impl omplib on both runtimes (gcc lowers a static loop
# inline: the runtime never sees it, so it has no row and is not in the region's sum).
. "$(dirname "$0")/lib/common.sh"

skipped=0
skip() { skipped=$((skipped + 1)); ok "# SKIP $*"; }
SRC=tests/targets/omp_loops.c
B=$(basename "$SRC")
line_of() { grep -n -- "$1" "$SRC" | sed -n "${2:-1}p" | cut -d: -f1; }
# the pragma lines: the regions (in mixed, guided, tasks, adjacent), the loops in mixed
PM=$(line_of '^#pragma omp parallel num_threads(2)' 1)
PG=$(line_of '^#pragma omp parallel for schedule(guided)')
PT=$(line_of '^#pragma omp parallel num_threads(2)' 2)
PA1=$(line_of '^#pragma omp parallel num_threads(2)' 3)
PA2=$(line_of '^#pragma omp parallel num_threads(2)' 4)
LS=$(line_of '^#pragma omp for schedule(static)')
LD=$(line_of '^#pragma omp for schedule(dynamic, 5)')
check_sh "the source is as this test reads it: adjacent regions 2 lines apart ($PA1, $PA2), loops after their region ($PM < $LS < $LD)" \
	'[ -n "$PA2" ] && [ $((PA2 - PA1)) -eq 2 ] && [ "$PM" -lt "$LS" ] && [ "$LS" -lt "$LD" ]'
R=3
N=40
L19=$PWD/$BUILD/llvm19/usr/lib/llvm-19/lib/libomp.so.5

# loops TAG BIN NAMED STATIC [collect options]: collect BIN, check its rows. NAMED: the
# runtime names schedules (LLVM 19); STATIC: the static loop reaches the runtime (clang)
loops() {
	local tag=$1 bin=$2 named=$3 static=$4 out S R_ got want sched
	shift 4
	KMP_BLOCKTIME=0 "$UPROF" collect --trace openmp "$@" -o "$SCRATCH/$tag" "$bin" $R $N \
		>"$SCRATCH/$tag.out" 2>"$SCRATCH/$tag.err"
	check "$tag: collect exits 0, the program's counts right ($(cat "$SCRATCH/$tag.out"))" [ $? -eq 0 ]
	out=$(cat "$SCRATCH/$tag.out")
	# what the program counted, loop by loop
	local ns nd ng nt
	ns=$(echo "$out" | sed -n 's/.*static=\([0-9]*\).*/\1/p')
	nd=$(echo "$out" | sed -n 's/.*dynamic=\([0-9]*\).*/\1/p')
	ng=$(echo "$out" | sed -n 's/.*guided=\([0-9]*\).*/\1/p')
	nt=$(echo "$out" | sed -n 's/.*taskloop=\([0-9]*\).*/\1/p')
	S=$(session_in "$SCRATCH/$tag")
	"$UPROF" report -i "$S" >/dev/null 2>"$SCRATCH/$tag.rerr"
	R_=$S/report.csv
	local U=Unknown SS=Static SD=Dynamic SG=Guided SM=Unknown
	[ "$named" = 1 ] || { SS=$U; SD=$U; SG=$U; }
	[ "$named" = 1 ] && SM=Mixed
	[ "$static" = 1 ] || SM=$SD # gcc: the dynamic loop is the only one the runtime sees
	# the region rows: name, Schedule Type, Instances, Loop Iterations
	want=$(printf '%s\n' "adjacent\$omp\$parallel:1@$B:$PA1  $R " \
		"adjacent\$omp\$parallel:2@$B:$PA2  $R " \
		"guided\$omp\$parallel_for:1@$B:$PG $SG $R $ng" \
		"mixed\$omp\$parallel_for:1@$B:$PM $SM $R $([ "$static" = 1 ] && echo $((ns + nd)) || echo "$nd")" \
		"tasks\$omp\$parallel:1@$B:$PT  $R $nt")
	got=$(csvq "$R_" "OpenMP PARALLEL-REGION METRIC" | awk -F'\t' '{print $1, $9, $10, $18}')
	echo "# $tag regions:"; echo "$got" | sed 's/^/#   /'
	local sum="the program's $ns + $nd"
	[ "$static" = 1 ] || sum="the dynamic loop's $nd: the static one never reaches the runtime"
	check "$tag: five regions, the adjacent two apart; mixed's iterations the sum of its loops' ($sum), guided's $ng, the taskloop's $nt" \
		[ "$got" = "$want" ]
	# the loop rows: name, region, schedule, chunk, instances, iterations
	want=$(printf '%s\n' \
		"guided\$omp\$for:1@$B:$PG guided\$omp\$parallel_for:1@$B:$PG $SG - $R $ng" \
		$([ "$static" = 1 ] && echo "mixed\$omp\$for:1@$B:$LS|mixed\$omp\$parallel_for:1@$B:$PM|$SS|-|$R|$ns") \
		"mixed\$omp\$for:$([ "$static" = 1 ] && echo 2 || echo 1)@$B:$LD mixed\$omp\$parallel_for:1@$B:$PM $SD - $R $nd" \
		"tasks\$omp\$taskloop:1@$B:$PT tasks\$omp\$parallel:1@$B:$PT Taskloop - $R $nt" | tr '|' ' ')
	got=$(csvq "$R_" "OpenMP LOOP METRIC" | tr '\t' ' ')
	echo "# $tag loops:"; echo "$got" | sed 's/^/#   /'
	check "$tag: one row per loop construct under its region, on its pragma's line, each with the program's iterations" \
		[ "$got" = "$want" ]
}

if [ ! -x "$TGT/omp_loops" ]; then
	skip "clang or LLVM libomp missing: omp_loops not built (clang 14 build)"
else
	loops clang14 "$TGT/omp_loops" 0 1
fi
if ! command -v clang-19 >/dev/null || [ ! -x "$TGT/omp_loops19" ]; then
	skip "clang-19 or LLVM 19's runtime missing: omp_loops19 not built (schedules named)"
else
	loops clang19 "$TGT/omp_loops19" 1 1
fi
if [ ! -x "$TGT/omp_loops_gcc" ] || ! ls /usr/lib/llvm-*/lib/libomp.so.5 >/dev/null 2>&1; then
	skip "gcc or LLVM libomp missing (omp_loops_gcc through --openmp-impl omplib)"
else
	loops gcc "$TGT/omp_loops_gcc" 0 0 --openmp-impl omplib
fi
if [ ! -x "$TGT/omp_loops_gcc" ] || [ ! -r "$L19" ]; then
	skip "gcc or LLVM 19's runtime missing (omp_loops_gcc on LLVM 19's libomp)"
else
	UPROF_LIBOMP=$L19 loops gcc19 "$TGT/omp_loops_gcc" 1 0 --openmp-impl omplib
fi

echo "# skipped: $skipped"
echo "1..$_n"
