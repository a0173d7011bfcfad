#!/usr/bin/env bash
# Issue 11 items 1 and 11: uprof's own lines never go to the profiled program's stdout
# (collect gzip -c F > F.gz round-trips; collect ... | cat is the program's output alone);
# report's table is on stdout and its status lines on stderr (report | grep fn works,
# report 2>/dev/null shows the table, --stdout gives the CSV alone); collect tells the
# program where its library is (AMDUPROF_LIB), so the README's Python command works from
# a fresh checkout, and from an installation.
. "$(dirname "$0")/lib/common.sh"

echo "# streams: collect leaves stdout to the program, report's table on stdout"

# --- collect: gzip -c FILE > FILE.gz under collect is gzip's file, byte for byte
IN=/etc/services
[ -r "$IN" ] || { seq 1 200000 >"$SCRATCH/in.txt"; IN=$SCRATCH/in.txt; }
"$UPROF" collect -o "$SCRATCH/gz" gzip -c "$IN" >"$SCRATCH/in.gz" 2>"$SCRATCH/gz.err"
rc=$?
check "collect gzip -c exits 0 ($rc)" [ "$rc" -eq 0 ]
check "gzip -t accepts the file written under collect" gzip -t "$SCRATCH/in.gz"
check "zcat gives the input back" cmp -s "$IN" <(zcat "$SCRATCH/in.gz")
gzip -c "$IN" >"$SCRATCH/bare.gz"
check "the file is the one gzip writes on its own" cmp -s "$SCRATCH/bare.gz" "$SCRATCH/in.gz"
check "collect's last line, the session path, is on stderr" \
	grep -qx "Generated data files path: $(session_in "$SCRATCH/gz")" <(tail -1 "$SCRATCH/gz.err")

# --- collect ... | cat: exactly the program's output (a lot of it, through a pipe that
# fills), with the program's stderr line left on stderr
prog() { awk 'BEGIN { for (i = 0; i < 200000; i++) print "line", i, i * i; print "to stderr" > "/dev/stderr" }'; }
export -f prog
"$UPROF" collect -o "$SCRATCH/cat" bash -c prog 2>"$SCRATCH/cat.err" | cat >"$SCRATCH/cat.out"
bash -c prog 2>/dev/null | cat >"$SCRATCH/bare.out"
check "collect ... | cat is the bare program's output ($(wc -l <"$SCRATCH/cat.out") lines)" \
	cmp -s "$SCRATCH/bare.out" "$SCRATCH/cat.out"
check "... and the program's stderr still reaches stderr" grep -qx "to stderr" "$SCRATCH/cat.err"
check "a program that prints nothing: nothing on stdout" \
	[ "$("$UPROF" collect -o "$SCRATCH/true" /bin/true 2>/dev/null | wc -c)" -eq 0 ]

# --- report: the table on stdout, the status on stderr
"$UPROF" collect -o "$SCRATCH/demo" "$TGT/demo" 400 >/dev/null 2>&1
S=$(session_in "$SCRATCH/demo")
"$UPROF" report -i "$S" >"$SCRATCH/r.out" 2>"$SCRATCH/r.err"
check "report exits 0" [ $? -eq 0 ]
row_re='^ +[0-9]+\.[0-9]{4} +[0-9]+\.[0-9]{2}%  .+ [^ ]+$'
nf=$(csvq "$S/report.csv" FUNCTIONS | wc -l)
check "stdout is the table: the header, then one row per hot function (min(10, $nf))" \
	bash -c "head -1 '$SCRATCH/r.out' | grep -qE '^ CPU_TIME\(s\) +%  FUNCTION +MODULE$' &&
		[ \$(tail -n +2 '$SCRATCH/r.out' | grep -cE '$row_re') = \$(( $nf < 10 ? $nf : 10 )) ] &&
		[ \$(wc -l <'$SCRATCH/r.out') = \$(( ($nf < 10 ? $nf : 10) + 1 )) ]"
check "stderr has the status lines and no table line" \
	bash -c "grep -q '^Generated report file: $S/report.csv\$' '$SCRATCH/r.err' &&
		grep -q '^Session complete: ' '$SCRATCH/r.err' && ! grep -qE 'FUNCTION|$row_re' '$SCRATCH/r.err'"
top=$(csvq "$S/report.csv" FUNCTIONS | head -1 | cut -f1)
check "report | grep finds the hot function ($top)" \
	bash -c "'$UPROF' report -i '$S' 2>/dev/null | grep -qE '%  $top +demo\$'"
"$UPROF" report -i "$S" 2>/dev/null >"$SCRATCH/r2.out"
check "report 2>/dev/null shows the table (as stdout had it)" \
	bash -c "grep -q '^ CPU_TIME(s) ' '$SCRATCH/r2.out' && cmp -s '$SCRATCH/r.out' '$SCRATCH/r2.out'"

# both streams into one file keep the terminal's order: status, empty line, table, exports
"$UPROF" report -i "$S" --export folded >"$SCRATCH/both" 2>&1
check "2>&1: status lines, an empty line, the table, then the export" "$PYTHON" - "$SCRATCH/both" <<'EOF'
import re, sys
lines = open(sys.argv[1]).read().split("\n")[:-1]
blank = lines.index("")
assert lines[0].startswith("Generated report file: ") and lines[1].startswith("Session complete: ")
assert re.match(r"^ CPU_TIME\(s\) +%  FUNCTION +MODULE$", lines[blank + 1]), lines[blank + 1]
assert all(re.match(r"^ +[0-9.]+ +[0-9.]+%  ", l) for l in lines[blank + 2:-1]), lines
assert lines[-1].startswith("Generated folded stacks file: "), lines[-1]
EOF

# the files come before the terminal: a reader of stdout that is gone at once (| true, so
# the table's write gets SIGPIPE) costs no export
rm -f "$S/stacks.folded" "$S/report.csv"
"$UPROF" report -i "$S" --export folded 2>/dev/null | true
check "report --export folded | true: report.csv and stacks.folded are written" \
	bash -c "[ -s '$S/report.csv' ] && [ -s '$S/stacks.folded' ]"

# --stdout: stdout is the CSV alone (report.csv's bytes but for the command line), the
# table goes to stderr
"$UPROF" report -i "$S" >/dev/null 2>&1
"$UPROF" report -i "$S" --stdout >"$SCRATCH/s.csv" 2>"$SCRATCH/s.err"
norm() { sed -e 's/^Report Command:,.*/Report Command:,X/' "$1"; }
check "--stdout: stdout is the CSV, the same as report.csv" cmp -s <(norm "$S/report.csv") <(norm "$SCRATCH/s.csv")
check "--stdout: the table goes to stderr" \
	bash -c "grep -qE '^ CPU_TIME\(s\) +%  FUNCTION +MODULE$' '$SCRATCH/s.err' && grep -qE '%  $top +demo\$' '$SCRATCH/s.err'"

# --- collect passes its library's location: beside its executable, unless the user set it
LIB=$PWD/$BUILD/lib/libAMDProfileController.so
v=$(env -u AMDUPROF_LIB "$UPROF" collect -o "$SCRATCH/env" /usr/bin/printenv AMDUPROF_LIB 2>/dev/null)
check "collect sets AMDUPROF_LIB to the library of its tree ($v)" [ "$v" -ef "$LIB" ]
v=$(AMDUPROF_LIB=/opt/mine/lib.so "$UPROF" collect -o "$SCRATCH/env" /usr/bin/printenv AMDUPROF_LIB 2>/dev/null)
check "collect keeps the user's AMDUPROF_LIB ($v)" [ "$v" = /opt/mine/lib.so ]
# an installed layout: <prefix>/bin/uprof finds <prefix>/lib/
mkdir -p "$SCRATCH/prefix/bin" "$SCRATCH/prefix/lib"
cp "$UPROF" "$SCRATCH/prefix/bin/uprof" && cp "$LIB" "$SCRATCH/prefix/lib/"
v=$(env -u AMDUPROF_LIB -u INTEL_LIBITTNOTIFY64 UPROF_CONFIG_DIR=$PWD/configs \
	"$SCRATCH/prefix/bin/uprof" collect -o "$SCRATCH/env" /usr/bin/printenv AMDUPROF_LIB INTEL_LIBITTNOTIFY64 2>/dev/null | sort -u)
check "installed: both variables name <prefix>/lib's library ($v)" \
	[ "$v" -ef "$SCRATCH/prefix/lib/libAMDProfileController.so" ]

# --- the README's Python command from the top of the tree, nothing else set
PY=$(command -v "$PYTHON")
if [ -z "$PY" ]; then
	ok "# SKIP python3 is not installed"
elif [ -n "$(cd / && "$PY" -c 'import ctypes.util; print(ctypes.util.find_library("AMDProfileController") or "")')" ]; then
	ok "# SKIP libAMDProfileController is on the linker's path: it would be found without uprof"
else
	env -u AMDUPROF_LIB PYTHONPATH=python "$UPROF" collect --start-paused -o "$SCRATCH/py" \
		"$PY" examples/python/tasks.py >"$SCRATCH/py.out" 2>"$SCRATCH/py.err"
	check "PYTHONPATH=python uprof collect --start-paused python3 tasks.py: exit 0, ran to its end" \
		grep -qx 'tasks.py: done' "$SCRATCH/py.out"
	check "... the module found the library (no warning)" bash -c "! grep -q '^amd_instrument:' '$SCRATCH/py.err'"
	P=$(session_in "$SCRATCH/py")
	"$UPROF" report -i "$P" --cutoff 0 >/dev/null 2>&1
	t=$(csvq "$P/report.csv" "ALL TASKS")
	check "... its tasks are reported: Load/read x1, Model/fit x3, Model/score x1" \
		bash -c "awk -F'\t' '(\$1\"/\"\$2\"/\"\$3) ~ /^(Load\/read\/1|Model\/fit\/3|Model\/score\/1)\$/' <<<'$t' | wc -l | grep -qx 3"
	check "... and not Load/cleanup, after the pause" bash -c "! grep -qP '^Load\tcleanup\t' <<<'$t'"
	check "... the start-up work before the resume is a pause" grep -q ',start-paused$' "$P/pauses.csv"
fi
exit 0
