#!/usr/bin/env bash
# Issue 32, Must show 3 (filter): a tool of API 1.2 with filter_sample drops one
# function's samples from the base report (report reads the session twice): report.csv
# then has every other function's samples as before, the dropped ones said in its header
# and on the terminal, the same achieved rate (the samples were collected); the tool's own
# sample callback and the exports see the kept samples only. A filter that fails drops
# nothing; a tool declaring API 1.1 that sets the slot is refused.
. "$(dirname "$0")/lib/common.sh"

T=$TGT/tools/dropfn.so
"$UPROF" collect -g -o "$SCRATCH/g" "$TGT/callgraph_fp" 1000 >/dev/null 2>&1
S=$(session_in "$SCRATCH/g")
"$UPROF" report -i "$S" >/dev/null 2>&1
cp "$S/report.csv" "$SCRATCH/base.csv"
n=$(csvq "$SCRATCH/base.csv" --key Samples)
leaf=$(csvq "$SCRATCH/base.csv" "HOTTEST FUNCTIONS (" | awk -F'\t' '$1 == "chain_leaf" { printf "%.0f", $2 * 1000 }')
"$UPROF" report -i "$S" --tool "$T,function=chain_leaf" --export sqlite >/dev/null 2>"$SCRATCH/err"
check "report with the filter exits 0" [ $? -eq 0 ]
check "chain_leaf had samples to drop ($leaf of $n)" [ "${leaf:-0}" -gt 0 ]
check "Samples: the base report's less chain_leaf's ($n - $leaf)" \
	[ "$(csvq "$S/report.csv" --key Samples)" = "$((n - leaf))" ]
check "report.csv says how many the tools dropped" \
	[ "$(csvq "$S/report.csv" --key "Samples Dropped By Tools")" = "$leaf not reported (--tool filter)" ]
check "the terminal says it too" grep -q "^Dropped by the tools' sample filters: $leaf samples not reported" "$SCRATCH/err"
# (its callers' stacks may still pass through it: a sample in a function it calls is kept)
check "chain_leaf has no samples of its own in report.csv" \
	bash -c "! '$PYTHON' '$HERE/csvq.py' '$S/report.csv' 'HOTTEST FUNCTIONS (' | grep -q '^chain_leaf'"
"$PYTHON" "$HERE/csvq.py" "$SCRATCH/base.csv" "HOTTEST FUNCTIONS (" | sort >"$SCRATCH/a"
"$PYTHON" "$HERE/csvq.py" "$S/report.csv" "HOTTEST FUNCTIONS (" | sort >"$SCRATCH/b"
# (a top-N table: with chain_leaf gone, a function the base report cut off may come in,
# with no row there to hold it against: each function both show, the same row)
check_sh "every function left keeps its samples ($(wc -l <"$SCRATCH/b") rows, each as in the base report)" \
	'[ -s "$SCRATCH/b" ] && awk -F"\t" "NR == FNR { a[\$1] = \$0; next } (\$1 in a) && a[\$1] != \$0 { bad = 1 } END { exit bad }" "$SCRATCH/a" "$SCRATCH/b"'
check "the achieved rate is the collection's, dropped samples counted" \
	[ "$(csvq "$S/report.csv" --key "Achieved Rate" 2>/dev/null || echo a)" = "$(csvq "$SCRATCH/base.csv" --key "Achieved Rate" 2>/dev/null || echo a)" ]
check "the tool's sample callback saw the kept samples only ($((n - leaf)), none of chain_leaf)" \
	[ "$(csvq "$S/report.csv" "KEPT SAMPLES (Tool - dropfn)" | tr '\t' ,)" = "$((n - leaf)),0" ]
check "the SQLite export has the kept samples only" \
	[ "$(sqlite3 "$S/report.db" "select count(*) from samples_view where id > 0 and symbol = 'chain_leaf'"),$(sqlite3 "$S/report.db" 'select count(*) from samples where id > 0')" = "0,$((n - leaf))" ]
# a filter naming no sampled function drops nothing: report.csv as without it
"$UPROF" report -i "$S" --tool "$T,function=no_such_function" >/dev/null 2>&1
check "a filter that drops nothing leaves the base report as it was" \
	bash -c "diff <(grep -v '^Report Command' '$SCRATCH/base.csv') <(sed '/(Tool - dropfn)/,\$d' '$S/report.csv' | grep -v '^Report Command' | sed '\$d') >/dev/null"
expect_fail 1 "a tool declaring API 1.1 with filter_sample set is refused" \
	"tool .*dropfn11.so: refused: reserved slot 0 of its descriptor is not zero \(its tool API 1.1 reserves it" \
	"$UPROF" info --tool "$TGT/tools/dropfn11.so"

echo "1..$_n"
