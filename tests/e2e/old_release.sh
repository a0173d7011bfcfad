#!/usr/bin/env bash
# A session written by uprof 0.1.0 (tests/fixtures/release-0.1.0) still reports exactly as
# 0.1.0 reported it: report.csv, the folded stacks, the Perfetto trace, the flame graph and
# the terminal summary. Only the lines that name this run (the report command, the data
# folder, the reporting uprof's version) may differ.
. "$(dirname "$0")/lib/common.sh"

echo "# old_release: a 0.1.0 session reports identically"
FIX=$PWD/tests/fixtures/release-0.1.0
BIN_DIR=/tmp/uprof-fixture-r1 # the path the fixture's MMAP2 records name
mkdir -p "$BIN_DIR"
# concurrent runs (several checkouts) write the same bytes; rename makes it atomic
xz -dc "$FIX/tasks.xz" >"$SCRATCH/tasks" && chmod 755 "$SCRATCH/tasks"
cmp -s "$SCRATCH/tasks" "$BIN_DIR/tasks" || { cp "$SCRATCH/tasks" "$BIN_DIR/.tasks.$$" &&
	mv -f "$BIN_DIR/.tasks.$$" "$BIN_DIR/tasks"; }
check "the fixture's binary is in place" cmp -s "$SCRATCH/tasks" "$BIN_DIR/tasks"

cd "$SCRATCH" || exit 1
cp -r "$FIX/session" sess && chmod -R u+rwX,go-rwx sess
mkdir exp
TZ=UTC LC_ALL=C "$UPROF" report -i sess --detail -g --cutoff 0 --kallsyms "$FIX/kallsyms" \
	--report-output exp/report.csv --export all --export-dir exp >exp/terminal.raw 2>&1
rc=$?
check "report of the 0.1.0 session exits 0 ($rc)" [ "$rc" -eq 0 ]
norm() { sed -E -e 's/^Report Command:,.*/Report Command:,X/' -e 's/^Data Folder:,.*/Data Folder:,X/' \
	-e 's/^"uprof \(Version:[^)]*\)"/"uprof (Version:X)"/' "$1"; }
# A change on purpose (issue 27): fp stacks that stop short of an entry point end in an
# [ends early] mark, 4 of this session's. The old answer is kept: each file is 0.1.0's once
# the mark is taken out (its caller rows in report.csv, the frame in stacks, its rectangles'
# titles in the flame graph; trace.json's stack frame ids, which the new frame shifts).
unmark() { sed -e 's/;\[ends early\]//; s/\[ends early\];//' "$1"; }
check "report.csv is 0.1.0's, [ends early] aside" \
	cmp -s <(norm "$FIX/expected/report.csv") <(norm exp/report.csv | grep -v '^"\[ends early\]",caller,')
diff <(norm "$FIX/expected/report.csv") <(norm exp/report.csv | grep -v '^"\[ends early\]",caller,') | head -20 | sed 's/^/# /'
check "stacks.folded is 0.1.0's, [ends early] aside" \
	cmp -s <(sort "$FIX/expected/stacks.folded") <(unmark exp/stacks.folded | sort)
check "the 4 stacks that end early are marked" [ "$(grep -c '^tasks;\[ends early\];' exp/stacks.folded)" = 4 ]
titles() { grep -o '<title>[^<]*</title>' "$1" | grep -v '^<title>\[ends early\] ' | sort; }
check "flamegraph.svg is 0.1.0's, [ends early] aside" \
	cmp -s <(titles "$FIX/expected/flamegraph.svg") <(titles exp/flamegraph.svg)
# the trace names its session's path and the tool's version in otherData
tnorm() { sed -E -e 's/"session":"[^"]*"/"session":"X"/' -e 's/"tool":"uprof [^"]*"/"tool":"X"/' \
	-e 's/"sf":"[0-9]+",//' -e 's/;\[ends early\]//; s/\[ends early\];//' "$1" | sed '/"stackFrames"/,$d'; }
check "trace.json is 0.1.0's, [ends early] aside" cmp -s <(tnorm "$FIX/expected/trace.json") <(tnorm exp/trace.json)
# the summary may move between stdout and stderr; its lines and their order may not
# change (both streams into one file: what a terminal shows, as report flushes its table)
# (--export all writes the exports that came after 0.1.0 too: their lines are not 0.1.0's)
grep -v -E '^Generated (report|HTML report|SQLite database|pprof profile|wall-clock folded stacks|wall-clock flame graph) file' exp/terminal.raw \
	>exp/terminal.txt
check "the terminal summary is 0.1.0's" cmp -s "$FIX/expected/terminal.txt" exp/terminal.txt
diff "$FIX/expected/terminal.txt" exp/terminal.txt | head -10 | sed 's/^/# /'
