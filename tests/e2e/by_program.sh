#!/usr/bin/env bash
# Issue 11 item 6: the view by program. A program that starts others by exec, as make
# does: three processes of one program are one PROGRAMS row with the sum of their
# samples; programs keep the names they were run by (a symlink's own name, for the one
# collect launched too; a name the kernel cut to 15 bytes, whole); two binaries of one
# name stay two rows, told apart by path; --group-by program splits --detail by it.
. "$(dirname "$0")/lib/common.sh"

echo "# by_program: processes of one program summed, names as invoked"
B=$SCRATCH/bin
mkdir -p "$B" "$SCRATCH/a" "$SCRATCH/b"
ln -s "$TGT/forker" "$B/forklink"
ln -s "$TGT/spin_ms" "$B/spinlink"
cp "$TGT/spin_ms" "$B/spin_with_a_long_name"
cp "$TGT/spin_ms" "$SCRATCH/a/twin"
cp "$TGT/spin_ms" "$SCRATCH/b/twin"
PATH=$B:$TGT:$PATH "$UPROF" collect -o "$SCRATCH/out" forklink 60 spin_ms spin_ms spin_ms \
	spinlink spin_with_a_long_name "$SCRATCH/a/twin" "$SCRATCH/b/twin" >/dev/null 2>"$SCRATCH/err"
check "collect of forker (run by a symlink) exits 0" [ $? -eq 0 ]
S=$(session_in "$SCRATCH/out")
"$UPROF" report -i "$S" --cutoff 0 >"$SCRATCH/table" 2>"$SCRATCH/rerr"
check "report exits 0" [ $? -eq 0 ]
R=$S/report.csv
csvq "$R" "PROGRAMS" >"$SCRATCH/progs"
csvq "$R" "PROCESSES" >"$SCRATCH/procs"
sed 's/^/# /' "$SCRATCH/progs"
prog() { awk -F'\t' -v n="$1" -v c="$2" '$1==n{print $c}' "$SCRATCH/progs"; }

check "six programs: forklink spin_ms spinlink spin_with_a_long_name twin twin" \
	[ "$(cut -f1 "$SCRATCH/progs" | sort | tr '\n' ' ')" = "forklink spin_ms spin_with_a_long_name spinlink twin twin " ]
check "spin_ms: one row for its three processes ($(prog spin_ms 2))" [ "$(prog spin_ms 2)" = 3 ]
sum=$(awk -F'\t' '/^spin_ms \(PID:/{s+=$2} END{printf "%.4f", s}' "$SCRATCH/procs")
check "spin_ms: CPU_TIME is the sum of its processes' ($(prog spin_ms 3) = $sum)" \
	[ "$(prog spin_ms 3)" = "$sum" ]
check "spin_ms: three processes of that name in PROCESSES" \
	[ "$(grep -c '^spin_ms (PID:' "$SCRATCH/procs")" -eq 3 ]
check "spin_ms: its path is the program's file" [ "$(prog spin_ms 4)" = "$TGT/spin_ms" ]
check "a symlinked program shows by the symlink's name, with its target's path" \
	[ "$(prog spinlink 2)" = 1 -a "$(prog spinlink 4)" = "$TGT/spin_ms" ]
check "... and so does its process (spinlink (PID:n))" grep -q '^spinlink (PID:' "$SCRATCH/procs"
check "the program collect launched by a symlink keeps the symlink's name" \
	[ "$(prog forklink 2)" = 1 -a "$(prog forklink 4)" = "$TGT/forker" ]
check "... its process too (forklink (PID:n))" grep -q '^forklink (PID:' "$SCRATCH/procs"
check "... and Target Path is the file run" [ "$(csvq "$R" --key "Target Path")" = "$TGT/forker" ]
check "a name over 15 bytes is whole in PROGRAMS" [ "$(prog spin_with_a_long_name 2)" = 1 ]
check "... and the kernel's 15 in PROCESSES" grep -q '^spin_with_a_lon (PID:' "$SCRATCH/procs"
check "two binaries named twin: two rows, by path" \
	[ "$(prog twin 4 | sort | tr '\n' ' ')" = "$SCRATCH/a/twin $SCRATCH/b/twin " ]
total=$(sed -n 's/^Total CPU_TIME,"\([0-9.]*\) seconds"/\1/p' "$R")
allp=$(awk -F'\t' '{s+=$3} END{printf "%.4f", s}' "$SCRATCH/progs")
check "the programs' CPU_TIME adds up to the total ($allp = $total)" [ "$allp" = "$total" ]
# the terminal: the programs under the functions, on stdout
check "the terminal's table of programs is on stdout" grep -qE '^ +CPU_TIME\(s\) +% +PROGRAM +PROCESSES +PATH$' "$SCRATCH/table"
check "... with spin_ms's three processes" grep -qE "^ +[0-9.]+ +[0-9.]+% +spin_ms +3 +$TGT/spin_ms$" "$SCRATCH/table"

# --group-by program: a block per program with its processes
"$UPROF" report -i "$S" --detail --group-by program --cutoff 0 >/dev/null 2>&1
check "report --detail --group-by program exits 0" [ $? -eq 0 ]
check "a block for spin_ms and its three processes" grep -qx 'PROFILE REPORT FOR PROGRAM - spin_ms (3 processes)' "$R"
n=$(csvq "$R" "PROCESS SUMMARY" --after "PROFILE REPORT FOR PROGRAM - spin_ms" | grep -c '^spin_ms (PID:')
check "its PROCESS SUMMARY lists the three ($n)" [ "$n" -eq 3 ]
f=$(csvq "$R" "FUNCTION SUMMARY" --after "PROFILE REPORT FOR PROGRAM - spin_ms" | head -1 | cut -f1)
check "its hottest function is spin_ms_work ($f)" [ "$f" = spin_ms_work ]

# one program alone: the view would repeat the process table; it is left out unless asked
"$UPROF" collect -o "$SCRATCH/one" "$TGT/spin_ms" 50 >/dev/null 2>&1
S1=$(session_in "$SCRATCH/one")
"$UPROF" report -i "$S1" >"$SCRATCH/table1" 2>/dev/null
check "one program: no PROGRAMS section" bash -c "! grep -q 'PROGRAMS' '$S1/report.csv'"
check "one program: no table of programs on the terminal" bash -c "! grep -q PROGRAM '$SCRATCH/table1'"
"$UPROF" report -i "$S1" --group-by program >"$SCRATCH/table1" 2>/dev/null
check "--group-by program shows it anyway" [ "$(csvq "$S1/report.csv" PROGRAMS | cut -f1,2 | tr '\t' ' ')" = "spin_ms 1" ]
check "... on the terminal too" grep -qE ' spin_ms +1 ' "$SCRATCH/table1"
# collect launched it by a symlink of a long name: the kernel keeps 15 bytes, the
# session's command line has the whole name (the file it links to does not)
ln -s "$TGT/spin_ms" "$B/spin_ms_by_a_long_symlink"
PATH=$B:$PATH "$UPROF" collect -o "$SCRATCH/long" spin_ms_by_a_long_symlink 50 >/dev/null 2>&1
SL=$(session_in "$SCRATCH/long")
"$UPROF" report -i "$SL" --group-by program >/dev/null 2>&1
check "a launched symlink's long name is whole in PROGRAMS" \
	[ "$(csvq "$SL/report.csv" PROGRAMS | cut -f1,4 | tr '\t' ' ')" = "spin_ms_by_a_long_symlink $TGT/spin_ms" ]
check "... and the kernel's 15 bytes in PROCESSES" grep -q '^"spin_ms_by_a_lo (PID:' "$SL/report.csv"
echo "1..$_n"
