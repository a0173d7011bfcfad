#!/usr/bin/env bash
# uprof profile = collect + report (issue 16, Must show 2, first half): its report.csv is
# the one report writes for the same session (every line but the Report Command, which
# names the command that ran); collect's and report's options both reach their command;
# the program's exit status passes through; options neither has, and -i, are refused.
. "$(dirname "$0")/lib/common.sh"

timeout 120 "$UPROF" profile -o "$SCRATCH/p" --timer-interval 2 --cutoff 3 --detail \
	"$TGT/compare_two" x 30 >"$SCRATCH/p.out" 2>"$SCRATCH/p.err"
check "profile exits 0" [ $? -eq 0 ]
S=$(session_in "$SCRATCH/p")
check "profile wrote a session and its report.csv" [ -n "$S" -a -s "$S/report.csv" ]
cp "$S/report.csv" "$SCRATCH/profile.csv"
timeout 120 "$UPROF" report -i "$S" --cutoff 3 --detail >"$SCRATCH/r.out" 2>&1
check "report of profile's session exits 0" [ $? -eq 0 ]
diff <(grep -v '^Report Command:' "$SCRATCH/profile.csv") \
	<(grep -v '^Report Command:' "$S/report.csv") >"$SCRATCH/diff" 2>&1
check "profile's report.csv equals report's on the same session (but Report Command)" \
	[ ! -s "$SCRATCH/diff" ]
head -5 "$SCRATCH/diff" | sed 's/^/# /'
check "collect's --timer-interval 2 reached collect (session.ini's period is 2 ms)" \
	grep -qx 'period = 2000000' "$S/session.ini"
check "report's --cutoff 3 reached report (its section titles say 3)" \
	grep -q '^"3 HOTTEST FUNCTIONS' "$SCRATCH/profile.csv"
check "report's --detail reached report (a per-process section)" \
	grep -q 'PROFILE REPORT FOR PROCESS' "$SCRATCH/profile.csv"
check "collect's lines on stderr, the session path among them" \
	grep -qx "Generated data files path: $S" "$SCRATCH/p.err"
check "the report's table on stdout" grep -q 'tunable' "$SCRATCH/p.out"

timeout 60 "$UPROF" profile -o "$SCRATCH/q" -- sh -c 'exit 3' >/dev/null 2>&1
rc=$?
check "the program's exit status (3) is profile's ($rc), and its session is reported" \
	[ $rc = 3 -a -s "$(session_in "$SCRATCH/q")/report.csv" ]
expect_fail 2 "an option neither command has is refused" "unknown option '--nope'" \
	"$UPROF" profile --nope /bin/true
expect_fail 2 "report's -i is refused: profile reports its own session" "profile reports the session it" \
	"$UPROF" profile -i "$S" /bin/true
expect_fail 2 "an option's missing value is said" "'--cutoff' needs a value" \
	"$UPROF" profile --cutoff
expect_fail 2 "a bad report value is refused by report's parser, before any run" \
	"^uprof report: --cutoff 'x' is not" "$UPROF" profile -o "$SCRATCH/r" --cutoff x /bin/true
check "... and nothing was collected" [ ! -e "$SCRATCH/r" ]
expect_fail 2 "a bad collect value is refused by collect's parser" "^uprof collect: .*-d" \
	"$UPROF" profile -o "$SCRATCH/r" -d x /bin/true
check "help profile prints profile --help" bash -c "[ \"\$('$UPROF' help profile)\" = \"\$('$UPROF' profile --help)\" ]"
echo "1..$_n"
