#!/usr/bin/env bash
# uprof compare / diff (issue 16, Must show 3), on tests/targets/compare_two: two runs of a
# program whose tunable() does twice the work in the second (loop iterations, CPU time:
# a loaded machine stretches both runs alike) and whose steady() does the same.
#   - tunable is the first function, with a ratio of ~2 (1.6-2.5), steady ~1 (0.7-1.4);
#   - the CSV's deltas are B - A and its ratios B / A of its own columns, the program is
#     compared by name (the runs' pids differ), no Note when the runs sampled alike;
#   - a run at another timer interval gets a Note line; diff is compare; bad calls are
#     refused in one line.
. "$(dirname "$0")/lib/common.sh"

run_collect() { # DIR ARGS...: one session under DIR
	local d=$1; shift
	timeout 120 "$UPROF" collect -o "$SCRATCH/$d" "$@" >"$SCRATCH/collect-$d.out" 2>&1
}
run_collect a "$TGT/compare_two"
check "collect of the baseline run exits 0" [ $? -eq 0 ]
run_collect b "$TGT/compare_two" slow
check "collect of the run with tunable() made 2x slower exits 0" [ $? -eq 0 ]
A=$(session_in "$SCRATCH/a")
B=$(session_in "$SCRATCH/b")

timeout 120 "$UPROF" compare "$A" "$B" -o "$SCRATCH/c.csv" >"$SCRATCH/c.out" 2>"$SCRATCH/c.err"
check "compare exits 0, nothing on stderr" [ $? -eq 0 -a ! -s "$SCRATCH/c.err" ]
cat "$SCRATCH/c.out" | sed 's/^/# /' | head -12
# cq PY: evaluate over rows (dicts of the CSV's table) and hdr (its header lines)
cq() {
	"$PYTHON" - "$SCRATCH/c.csv" "$1" <<'PY'
import csv, sys
lines = open(sys.argv[1]).read().split("\n")
blank = lines.index("")
hdr = lines[:blank]
rows = list(csv.DictReader(lines[blank + 1:]))
for r in rows:
    for k in ("BASELINE", "WITH", "DELTA"):
        r[k] = float(r[k])
    r["RATIO"] = float("inf") if r["RATIO"] == "new" else float(r["RATIO"])
print(eval(sys.argv[2]))
PY
}
funcs="[r for r in rows if r['KIND'] == 'FUNCTION']"
first=$(cq "$funcs[0]['NAME']")
check "the first function is tunable, the one made slower ($first)" [ "$first" = tunable ]
rt=$(cq "round([r for r in $funcs if r['NAME'] == 'tunable'][0]['RATIO'], 3)")
rs=$(cq "round([r for r in $funcs if r['NAME'] == 'steady'][0]['RATIO'], 3)")
echo "# tunable ratio $rt, steady ratio $rs"
check "tunable's ratio is ~2 (1.6-2.5): $rt" "$PYTHON" -c "import sys; sys.exit(0 if 1.6 <= $rt <= 2.5 else 1)"
check "steady's ratio is ~1 (0.7-1.4): $rs" "$PYTHON" -c "import sys; sys.exit(0 if 0.7 <= $rs <= 1.4 else 1)"
check "the terminal table's first function row is tunable" \
	bash -c "grep -m1 '^function' '$SCRATCH/c.out' | grep -q ' tunable (compare_two)$'"
check "every delta is WITH - BASELINE, every ratio WITH / BASELINE (3 decimals)" \
	[ "$(cq "all(abs(r['DELTA'] - (r['WITH'] - r['BASELINE'])) < 2e-6 and (r['RATIO'] == float('inf') if r['BASELINE'] == 0 else abs(r['RATIO'] - r['WITH'] / r['BASELINE']) < 6e-4) for r in rows)")" = True ]
check "rows are ordered by the largest absolute change" \
	[ "$(cq "all(abs(rows[i]['DELTA']) >= abs(rows[i + 1]['DELTA']) for i in range(len(rows) - 1))")" = True ]
# values are report's: tunable's in each run is its CPU_TIME in that run's report.csv
for s in a b; do
	S=$(session_in "$SCRATCH/$s")
	timeout 120 "$UPROF" report -i "$S" >/dev/null 2>&1
	v=$(csvq "$S/report.csv" FUNCTIONS | awk -F'\t' '$1 == "tunable" {print $2; exit}')
	col=$([ $s = a ] && echo BASELINE || echo WITH)
	c=$(cq "[r for r in $funcs if r['NAME'] == 'tunable'][0]['$col']")
	check "tunable's $col value is its CPU_TIME in report.csv of run $s ($c, $v)" near "$c" "${v:-x}" 0.0005
done
check "the program is compared by name, once (its pids differ between runs)" \
	[ "$(cq "[r['NAME'] for r in rows if r['KIND'] == 'PROGRAM']")" = "['compare_two']" ]
check "runs sampled alike: no Note line" [ "$(cq "len([h for h in hdr if h.startswith('Note:')])")" = 0 ]

# another timer interval: said in a Note, on the terminal and in the CSV
run_collect c --timer-interval 2 "$TGT/compare_two"
C=$(session_in "$SCRATCH/c")
timeout 120 "$UPROF" diff "$A" "$C" -o "$SCRATCH/c.csv" >"$SCRATCH/d.out" 2>&1
check "diff (compare's alias) exits 0" [ $? -eq 0 ]
check "a run at 2 ms against one at 1 ms: a Note names both intervals" \
	grep -q '^Note: .*different intervals: 1000000 in the baseline, 2000000 in the other' "$SCRATCH/d.out"
check "... and the CSV has it" grep -q '^Note:,".*different intervals' "$SCRATCH/c.csv"
"$UPROF" compare "$A" "$B" -o - >"$SCRATCH/e.out" 2>&1
check "-o - writes the CSV to stdout and no table" \
	bash -c "head -1 '$SCRATCH/e.out' | grep -qx COMPARISON && ! grep -q '^KIND  ' '$SCRATCH/e.out'"

# a rebuilt program at the same path (another build id): said in a Note naming it
mkdir -p "$SCRATCH/bin"
cp "$TGT/compare_two" "$SCRATCH/bin/compare_two"
run_collect ba "$SCRATCH/bin/compare_two" x 20
# compiled here, not by make: the rebuild between the two runs is what this checks
gcc -O2 -g -Wl,--build-id -DREBUILT=1 -o "$SCRATCH/bin/compare_two" tests/targets/compare_two.c
run_collect bb "$SCRATCH/bin/compare_two" x 20
ida=$(readelf -n "$SCRATCH/bin/compare_two" | awk '/Build ID/ {print $3}')
timeout 120 "$UPROF" compare "$(session_in "$SCRATCH/ba")" "$(session_in "$SCRATCH/bb")" >"$SCRATCH/bid.out" 2>&1
check "a program rebuilt between the runs: a Note names it and its new build id ($ida)" \
	grep -q "^Note: $SCRATCH/bin/compare_two is another build in the other session (build id $ida, baseline [0-9a-f]*)" "$SCRATCH/bid.out"
check "... only that one" [ "$(grep -c '^Note:' "$SCRATCH/bid.out")" = 1 ]
check "runs of one build: no Note" bash -c "! grep -q '^Note:' '$SCRATCH/c.out'"

expect_fail 2 "one session is refused" "give two session directories" "$UPROF" compare "$A"
expect_fail 2 "three sessions are refused" "compare takes two sessions" "$UPROF" compare "$A" "$B" "$C"
expect_fail 1 "a directory that is not a session is refused" "" "$UPROF" compare "$A" "$SCRATCH"
expect_fail 2 "--cutoff takes a count" "--cutoff 'x'" "$UPROF" compare --cutoff x "$A" "$B"
check "--baseline/--with (uProf's spelling) name the same sessions" \
	bash -c "'$UPROF' compare --baseline '$A' --with '$B' | diff -q - <(grep -v '^Generated' '$SCRATCH/c.out') >/dev/null"
echo "1..$_n"
