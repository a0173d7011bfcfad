# Shared by tests/e2e/omp_llvm_equiv*.sh: run one build of an omp_equiv_* target under
# collect --trace openmp, report it, and check report.csv cells exactly.
# shellcheck shell=bash
ompq() { "$PYTHON" "$HERE/ompq.py" "$@"; }
skipped=0
skip() { skipped=$((skipped + 1)); ok "# SKIP $*"; }

# is WANT GOT: exact equality, both said when not
is() {
	[ "$1" = "$2" ] && return 0
	echo "#   got '$2', want '$1'"
	return 1
}

# cells NAME COLUMN...: the region row's cells (the first row whose name contains NAME)
# in $R, space-separated, "empty" for an empty cell; "none" each where there is no row
cells() { ompq "$R" cells region "$@"; }

# locks NAME COLUMN...: the same of a LOCK METRIC row ("none": a site that never acquired)
locks() { ompq "$R" cells lock "$@"; }

# threads NAME COLUMN: the column summed over the region's threads in $R
threads() { ompq "$R" threadsum "$1" "$2" 2>/dev/null || echo none; }

# line_of SRC TEXT [N]: the line of the Nth line of SRC containing TEXT (fixed string)
line_of() { grep -nF -- "$2" "$1" | sed -n "${3:-1}p" | cut -d: -f1; }

# equiv_run NAME BUILD [collect options...]: collect and report the target BUILD (a file
# under $TGT) into $SCRATCH/NAME; sets R to its report.csv and OUT to the program's
# stdout; checks that the program's own counts held and that nothing was lost
equiv_run() {
	local name=$1 build=$2 S
	shift 2
	"$UPROF" collect --trace openmp "$@" -o "$SCRATCH/$name" "$TGT/$build" \
		>"$SCRATCH/$name.out" 2>"$SCRATCH/$name.err"
	check "$name: collect exits 0 ($(tail -1 "$SCRATCH/$name.err"))" [ $? -eq 0 ]
	OUT=$SCRATCH/$name.out
	check "$name: the program's own counts are those it was built for" \
		grep -q ': all counts as built$' "$OUT"
	S=$(session_in "$SCRATCH/$name")
	"$UPROF" report -i "$S" >/dev/null 2>"$SCRATCH/$name.rerr"
	R=$S/report.csv
	check "$name: report written" [ -s "$R" ]
	check "$name: no records lost" bash -c "! grep -q '^Records Lost' '$R'"
	echo "# $name regions: $(ompq "$R" regions | tr '\n' ' ')"
}
