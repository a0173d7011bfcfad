#!/usr/bin/env bash
# OpenMP region and lock rows named after the function each construct is written in, one
# row per construct. tests/targets/omp_names.c and its C++ twin omp_names.cpp have
# constructs in a function (solve, grid::Solver::run) and in main, beside inline helpers
# of a header (omp_names.h) declared on later lines than those functions: clang moves a
# parallel region's body into a function of the unit (".omp_outlined."), and a critical
# section in it was named after the header's helper declared last before its line. Each
# build (clang + LLVM libomp; gcc + libgomp through --openmp-impl omplib) must give
# exactly the rows the source has: each named <function>$omp$<construct>:1@<file>:<its
# pragma's line>, with the instances, threads, tasks and acquires the program makes
# (clang 14 and clang 19 with their runtimes, gcc with libomp standing in). Then
# tests/targets/omp_target_kinds.c (clang-19, offload to the host device): a target enter
# data, a target update and a target exit data on consecutive lines and a target teams
# below them are four rows with four kinds, each with its own line, count and bytes; a
# target data region after them is its begin and end rows, and its target teams and
# target update theirs.
. "$(dirname "$0")/lib/common.sh"

ompq() { "$PYTHON" "$HERE/ompq.py" "$@"; }
skipped=0
skip() { skipped=$((skipped + 1)); ok "# SKIP $*"; }
# line_of FILE PATTERN [N]: the line of the Nth line matching PATTERN
line_of() { grep -n -- "$2" "$1" | sed -n "${3:-1}p" | cut -d: -f1; }
# rows REPORT TITLE: the first cells of the rows of the table whose title begins with TITLE
rows() { csvq "$1" "$2" | cut -f1; }
# trapped FUNC_LINE CONSTRUCT_LINE: the header declares a helper on a line in
# (FUNC_LINE, CONSTRUCT_LINE], the trap the old namer fell in
trapped() {
	local h
	for h in $(grep -n '^static inline' tests/targets/omp_names.h | cut -d: -f1); do
		[ "$h" -gt "$1" ] && [ "$h" -le "$2" ] && return 0
	done
	return 1
}

N=1000
# names SRC BIN FUNCDEF FUNC LOOPKIND [collect options]: run BIN under collect and check
# its rows; FUNCDEF is a pattern of the line that defines the function, FUNC its name as
# report gives it
names() {
	local src=$1 bin=$2 def=$3 fn=$4 loopkind=$5 tag
	shift 5
	tag=$(basename "$bin")
	local base fl ml p1 c1 p2 c2 S R
	base=$(basename "$src")
	fl=$(line_of "$src" "$def")
	ml=$(line_of "$src" '^int main(')
	p1=$(line_of "$src" '^#pragma omp parallel num_threads(2)' 1)
	c1=$(line_of "$src" '^#pragma omp critical' 1)
	p2=$(line_of "$src" '^#pragma omp parallel num_threads(2)' 2)
	c2=$(line_of "$src" '^#pragma omp critical' 2)
	check "$tag: the trap is set: a header helper declared after $fn's line ($fl) and by its critical's ($c1), another after main's ($ml) and by its critical's ($c2)" \
		bash -c "$(declare -f trapped); trapped $fl $c1 && trapped $ml $c2"
	KMP_BLOCKTIME=0 "$UPROF" collect --trace openmp "$@" -o "$SCRATCH/$tag" "$bin" $N \
		>"$SCRATCH/$tag.out" 2>"$SCRATCH/$tag.err"
	check "$tag: collect exits 0, the program's answers right ($(cat "$SCRATCH/$tag.out"))" \
		[ $? -eq 0 ]
	S=$(session_in "$SCRATCH/$tag")
	"$UPROF" report -i "$S" >/dev/null 2>&1
	R=$S/report.csv
	local RA="$fn\$omp\$$loopkind:1@$base:$p1" RB="main\$omp\$parallel:1@$base:$p2"
	local LA="$fn\$omp\$critical:1@$base:$c1" LB="main\$omp\$critical:1@$base:$c2"
	local want got
	want=$(printf '%s\n' "$RA" "$RB" | sort)
	got=$(rows "$R" "OpenMP PARALLEL-REGION METRIC" | sort)
	echo "# $tag regions: $(echo "$got" | tr '\n' ' ')"
	check "$tag: the two regions, each named after its own function on its pragma's line" \
		[ "$got" = "$want" ]
	want=$(printf '%s\n' "$LA" "$LB" | sort)
	got=$(rows "$R" "OpenMP LOCK METRIC" | sort)
	echo "# $tag lock sites: $(echo "$got" | tr '\n' ' ')"
	check "$tag: the two critical sections, each named after its own function on its pragma's line" \
		[ "$got" = "$want" ]
	check "$tag: $fn's region: 1 instance, 2 threads, the single's 4 tasks" \
		[ "$(ompq "$R" region "$RA" Instances) $(ompq "$R" region "$RA" "Thread Count") $(ompq "$R" region "$RA" "Tasks Created")" = "1 2 4" ]
	check "$tag: main's region: 1 instance, 2 threads, no task" \
		[ "$(ompq "$R" region "$RB" Instances) $(ompq "$R" region "$RB" "Thread Count") $(ompq "$R" region "$RB" "Tasks Created")" = "1 2 0" ]
	check "$tag: each critical section acquired once by each of the 2 threads" \
		[ "$(ompq "$R" lock "$LA" Acquires) $(ompq "$R" lock "$LA" Threads) $(ompq "$R" lock "$LB" Acquires) $(ompq "$R" lock "$LB" Threads)" = "2 2 2 2" ]
	if [ "$loopkind" = parallel_for ]; then
		check "$tag: $fn's loop: $N iterations" [ "$(ompq "$R" region "$RA" "Loop Iterations")" = $N ]
	fi
}

ANSWER='^squares=332833500 expected=332833500 tasks=20 expected=20 odds=4 expected=4 top='
if [ ! -x "$TGT/omp_names" ] || [ ! -x "$TGT/omp_names_cxx" ]; then
	skip "clang, clang++ or LLVM libomp missing: omp_names not built (clang builds)"
else
	names tests/targets/omp_names.c "$TGT/omp_names" '^__attribute__((noinline)) static double solve(' \
		solve parallel_for
	names tests/targets/omp_names.cpp "$TGT/omp_names_cxx" '^__attribute__((noinline)) double Solver::run(' \
		'grid::Solver::run(long*) const' parallel_for
	check "clang: both programs computed the known answers" \
		bash -c "grep -q '$ANSWER' '$SCRATCH/omp_names.out' && grep -q '$ANSWER' '$SCRATCH/omp_names_cxx.out'"
fi
# clang 19 names its outlined functions after their function ("solve.omp_outlined")
if ! command -v clang-19 >/dev/null || [ ! -x "$TGT/omp_names19" ] || [ ! -x "$TGT/omp_names19_cxx" ]; then
	skip "clang-19 or LLVM 19's runtime missing: omp_names19 not built (clang 19 builds)"
else
	names tests/targets/omp_names.c "$TGT/omp_names19" '^__attribute__((noinline)) static double solve(' \
		solve parallel_for
	names tests/targets/omp_names.cpp "$TGT/omp_names19_cxx" '^__attribute__((noinline)) double Solver::run(' \
		'grid::Solver::run(long*) const' parallel_for
	check "clang 19: both programs computed the known answers" \
		bash -c "grep -q '$ANSWER' '$SCRATCH/omp_names19.out' && grep -q '$ANSWER' '$SCRATCH/omp_names19_cxx.out'"
fi
# gcc lowers a static loop inline: no worksharing event, the region is a "parallel"
if [ ! -x "$TGT/omp_names_gcc" ] || [ ! -x "$TGT/omp_names_gxx" ] ||
	! ls /usr/lib/llvm-*/lib/libomp.so.5 >/dev/null 2>&1; then
	skip "gcc, g++ or LLVM libomp missing (gcc builds through --openmp-impl omplib)"
else
	names tests/targets/omp_names.c "$TGT/omp_names_gcc" '^__attribute__((noinline)) static double solve(' \
		solve parallel --openmp-impl omplib
	names tests/targets/omp_names.cpp "$TGT/omp_names_gxx" '^__attribute__((noinline)) double Solver::run(' \
		'grid::Solver::run(long*) const' parallel --openmp-impl omplib
	check "gcc: both programs computed the known answers" \
		bash -c "grep -q '$ANSWER' '$SCRATCH/omp_names_gcc.out' && grep -q '$ANSWER' '$SCRATCH/omp_names_gxx.out'"
fi
# regions on nearby lines whose calls gcc -O2 gives one line: a row each, on its pragma
SRC=tests/targets/omp_sites.c
if [ ! -x "$TGT/omp_sites_gcc" ] || ! ls /usr/lib/llvm-*/lib/libomp.so.5 >/dev/null 2>&1; then
	skip "gcc or LLVM libomp missing (omp_sites_gcc)"
else
	KMP_BLOCKTIME=0 "$UPROF" collect --trace openmp --openmp-impl omplib -o "$SCRATCH/sites" \
		"$TGT/omp_sites_gcc" >"$SCRATCH/sites.out" 2>/dev/null
	check "omp_sites_gcc: collect exits 0, the program's sums right ($(cat "$SCRATCH/sites.out"))" \
		[ $? -eq 0 ]
	S=$(session_in "$SCRATCH/sites")
	"$UPROF" report -i "$S" >/dev/null 2>&1
	R=$S/report.csv
	want=
	for l in $(grep -n '^#pragma omp parallel' "$SRC" | cut -d: -f1); do
		want="$want main@omp_sites.c:$l 1"
	done
	# function, place and instances of each row (the construct's label, parallel_for or
	# parallel, is the runtime's loop events' to say)
	got=
	for r in $(rows "$R" "OpenMP PARALLEL-REGION METRIC"); do
		got="$got ${r%%\$omp\$*}@${r##*@} $(ompq "$R" region "$r" Instances)"
	done
	echo "# omp_sites_gcc regions:$got"
	check "omp_sites_gcc: four regions, each its own row on its pragma's line, one instance each" \
		[ "$got" = "$want" ]
fi

# --- target directives on consecutive lines: one row each, its own kind and line
SRC=tests/targets/omp_target_kinds.c
if ! command -v clang-19 >/dev/null; then
	skip "clang-19 is not installed: no target program"
elif [ ! -x "$TGT/omp_target_kinds" ]; then
	skip "omp_target_kinds not built: LLVM 19's OpenMP runtime could not be unpacked (scripts/llvm19-omp.sh)"
else
	R3=3
	"$UPROF" collect --trace openmp -o "$SCRATCH/tk" "$TGT/omp_target_kinds" $R3 \
		>"$SCRATCH/tk.out" 2>"$SCRATCH/tk.err"
	check "omp_target_kinds under collect exits 0" [ $? -eq 0 ]
	S=$(session_in "$SCRATCH/tk")
	"$UPROF" report -i "$S" >/dev/null 2>&1
	R=$S/report.csv
	le=$(line_of "$SRC" '^#pragma omp target enter data')
	lu=$(line_of "$SRC" '^#pragma omp target update')
	lx=$(line_of "$SRC" '^#pragma omp target exit data')
	lt=$(line_of "$SRC" '^#pragma omp target teams')
	ld=$(line_of "$SRC" '^#pragma omp target data')
	li=$(line_of "$SRC" '^#pragma omp target teams' 2)
	lv=$(line_of "$SRC" '^#pragma omp target update' 2)
	check "the three data directives are on consecutive lines ($le $lu $lx), the target teams next ($lt)" \
		[ $((le + 1)) = "$lu" -a $((lu + 1)) = "$lx" -a $((lx + 1)) = "$lt" ]
	# name, kind, count, kernel submits, bytes to and from the device: a[] is 512 doubles
	# (4096 bytes) a round; the update copies it to the device, the exit data back, and
	# the target teams copies it and the reduction's sum (8 bytes) both ways. In the data
	# region (begun by an enter, ended by an exit, both on its pragma's line), a[] is
	# copied in at its begin and out at its end; the target teams in it copies only the
	# sum, the update a[] back
	B=$((R3 * 4096)) S8=$((R3 * 8))
	want=$(printf '%s\n' \
		"main\$omp\$target:1@omp_target_kinds.c:$le target enter data $R3 0 0 0" \
		"main\$omp\$target:2@omp_target_kinds.c:$lu target update $R3 0 $B 0" \
		"main\$omp\$target:3@omp_target_kinds.c:$lx target exit data $R3 0 0 $B" \
		"main\$omp\$target:4@omp_target_kinds.c:$lt target $R3 $R3 $((B + S8)) $((B + S8))" \
		"main\$omp\$target:5@omp_target_kinds.c:$ld target enter data $R3 0 $B 0" \
		"main\$omp\$target:6@omp_target_kinds.c:$ld target exit data $R3 0 0 $B" \
		"main\$omp\$target:7@omp_target_kinds.c:$li target $R3 $R3 $S8 $S8" \
		"main\$omp\$target:8@omp_target_kinds.c:$lv target update $R3 0 0 $B")
	got=$(csvq "$R" "OpenMP TARGET REGIONS" | awk -F'\t' '{print $1, $2, $4, $7, $10, $11}')
	echo "# target rows: $(echo "$got" | tr '\n' ';')"
	check "eight target rows: each directive its own, with its kind, line, $R3 instances and its bytes" \
		[ "$got" = "$want" ]
	# the parallel regions of the two target teams run in the offloaded functions
	# ("__omp_offloading_<ids>_main_l<line>..."): named after main, on the targets' lines
	want=$(printf '%s\n' "main\$omp\$parallel_for:1@omp_target_kinds.c:$lt" \
		"main\$omp\$parallel_for:2@omp_target_kinds.c:$li")
	got=$(rows "$R" "OpenMP PARALLEL-REGION METRIC" | grep -F "@omp_target_kinds.c:" | sort)
	echo "# offloaded regions: $(echo "$got" | tr '\n' ' ')"
	check "the target teams' parallel regions: named after main, on their pragmas' lines" \
		[ "$got" = "$want" ]
fi

echo "# skipped: $skipped"
echo "1..$_n"
