#!/usr/bin/env bash
# Issue 32: uprof translate --export sqlite,pprof writes into the session the very database
# and profile that `uprof report --export sqlite,pprof` writes for it (the same rows: the
# dumps of both report.db equal, the profiles' bytes equal), after translating and when
# there is nothing left to translate; an export that is a report's is refused (exit 2).
. "$(dirname "$0")/lib/common.sh"

"$UPROF" collect --call-graph dwarf -o "$SCRATCH/d" "$TGT/callgraph_fp" 500 >/dev/null 2>&1
S=$(session_in "$SCRATCH/d")
"$UPROF" translate -q -i "$S" --export sqlite,pprof >"$SCRATCH/out" 2>"$SCRATCH/err"
rc=$?
check "translate --export sqlite,pprof exits 0 ($(head -c 300 "$SCRATCH/err"))" [ $rc -eq 0 ]
check "it names both files" bash -c "grep -q '^Generated SQLite database file: $S/report.db$' '$SCRATCH/out' && grep -q '^Generated pprof profile file: $S/profile.pb.gz$' '$SCRATCH/out'"
check "report.db is the session's files' mode (0600)" [ "$(stat -c %a "$S/report.db")" = 600 ]
sqlite3 "$S/report.db" .dump >"$SCRATCH/translate.sql"
cp "$S/profile.pb.gz" "$SCRATCH/translate.pb.gz"
"$UPROF" report -i "$S" --export sqlite,pprof >/dev/null 2>&1
sqlite3 "$S/report.db" .dump >"$SCRATCH/report.sql"
samples=$(sqlite3 "$S/report.db" "select count(*) from samples")
check "the same database as report --export sqlite ($(wc -l <"$SCRATCH/report.sql") lines of dump, $samples samples)" \
	bash -c "[ ${samples:-0} -gt 0 ] && cmp -s '$SCRATCH/translate.sql' '$SCRATCH/report.sql'"
check "the same profile as report --export pprof" cmp -s "$SCRATCH/translate.pb.gz" "$S/profile.pb.gz"
rm -f "$S/report.db"
"$UPROF" translate -q -i "$S" --export sqlite >"$SCRATCH/out2" 2>&1
rc=$?
check "translated already: nothing to translate, the database still written (exit $rc)" \
	bash -c "[ $rc = 0 ] && grep -q 'nothing to do' '$SCRATCH/out2' && sqlite3 '$S/report.db' .dump | cmp -s - '$SCRATCH/report.sql'"
expect_fail 2 "translate --export html is refused" \
	"--export 'html': translate exports sqlite and pprof \(uprof report --export writes the others\)" \
	"$UPROF" translate -i "$S" --export sqlite,html

echo "1..$_n"
