#!/usr/bin/env bash
# Task names a target may give (a comma, quotes, line breaks, bytes that are not UTF-8,
# over 1024 bytes) and a control page whose 64 KiB string table fills up: report.csv
# stays parseable as UTF-8 CSV, dropped names are counted, and the task around them
# keeps its own begin and end. Also: the instrumented program leaves no control page
# behind when run without uprof, and tasks from 200 threads (many per-thread tallies).
. "$(dirname "$0")/lib/common.sh"

echo "# instrument_names: odd and dropped task names"
"$TGT/odd_names" >/dev/null &
pid=$!
wait $pid
check "without uprof: runs, no /dev/shm/uprof.$pid" [ ! -e "/dev/shm/uprof.$pid" ]

"$UPROF" collect -o "$SCRATCH/o" "$TGT/odd_names" >/dev/null 2>&1
S=$(session_in "$SCRATCH/o")
"$UPROF" report -i "$S" >/dev/null 2>"$SCRATCH/err"
check "report works" [ -s "$S/report.csv" ]
check "one warning for the comma" [ "$(grep -c '^warning: .*comma' "$SCRATCH/err")" = 1 ]
check "one warning for the dropped names" [ "$(grep -c '^warning: .*did not fit' "$SCRATCH/err")" = 1 ]
dropped=$(csvq "$S/report.csv" --key "Task Names Dropped")
check "report.csv counts the dropped names ($dropped)" [ "${dropped%% *}" -gt 0 ]
check "report.csv is UTF-8 CSV (python csv, strict decoding)" "$PYTHON" -c "
import csv, sys
with open(sys.argv[1], newline='', encoding='utf-8') as f:
    rows = list(csv.reader(f))
names = [r[1] for r in rows if len(r) > 2 and r[0] == 'Names']
assert 'a \"quoted\" name' in names and 'two lines' in names, names[:8]
assert any(n.startswith('not utf-8: \ufffd') for n in names), names[:8]
assert not any(',' in n for n in names)
" "$S/report.csv"
IFS=$'\t' read -r count elapsed _ <<<"$(csvq "$S/report.csv" "HOTTEST TASKS" | awk -F'\t' '$2 == "Outer" {print $3 "\t" $4}')"
check "Outer: one instance ($count)" [ "$count" = 1 ]
check "Outer: not closed early by a dropped or refused task's end ($elapsed s)" \
	"$PYTHON" -c "import sys; sys.exit(0 if float(sys.argv[1]) >= 0.045 else 1)" "${elapsed:-0}"

"$UPROF" collect -o "$SCRATCH/t" "$TGT/stress" 10 200 >/dev/null 2>&1
S=$(session_in "$SCRATCH/t")
"$UPROF" report -i "$S" --detail >/dev/null 2>"$SCRATCH/err"
rc=$?
check "200 threads: report works (exit $rc)" [ "$rc" = 0 ]
check "200 threads: no sanitizer report" bash -c "! grep -q Sanitizer '$SCRATCH/err'"
count=$(csvq "$S/report.csv" "HOTTEST TASKS" | awk -F'\t' '$2 == "Pair" {print $3}')
check "200 threads: 2000 Pair instances ($count)" [ "$count" = 2000 ]
