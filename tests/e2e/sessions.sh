#!/usr/bin/env bash
# Sessions outliving their surroundings: the profiled binary rebuilt, moved or deleted
# after collection, the session copied elsewhere, report run twice, odd --report-output
# paths, a read-only session, a disk that fills up while collecting, sessions with no
# samples, and collects racing into one -o directory.
. "$(dirname "$0")/lib/common.sh"

echo "# sessions: robustness of collect and report around the session directory"
APP=$SCRATCH/app
cp "$TGT/demo" "$APP"
# (no copy in the build-id cache: here nothing may name the file's samples once it changed)
"$UPROF" collect --no-buildid-cache -o "$SCRATCH/o" "$APP" 200 >/dev/null 2>&1
S=$(session_in "$SCRATCH/o")
check "collect of a copy of demo" [ -f "$S/session.ini" ]

"$UPROF" report -i "$S" >/dev/null 2>"$SCRATCH/err1"
cp "$S/report.csv" "$SCRATCH/first.csv"
"$UPROF" report -i "$S" >/dev/null 2>&1
check "report twice: the same report.csv" cmp -s "$SCRATCH/first.csv" "$S/report.csv"
check "no warnings while the binary is there" bash -c "! grep -q warning '$SCRATCH/err1'"
top=$(csvq "$S/report.csv" FUNCTIONS | head -1 | cut -f1)
check "heavy_work is the top function ($top)" [ "$top" = heavy_work ]

# a session copied to a path with a space and non-ASCII letters reports the same
C="$SCRATCH/copy dir ü"
mkdir -p "$C" && cp -r "$S" "$C/"
CS=$(session_in "$C")
"$UPROF" report -i "$CS" >/dev/null 2>&1
check "copied session: same functions" \
	cmp -s <(csvq "$CS/report.csv" FUNCTIONS) <(csvq "$S/report.csv" FUNCTIONS)
check "copied session: Data Folder is the new path" \
	grep -qF "Data Folder:,\"$CS\"" "$CS/report.csv"

# the binary replaced by another one (a new file: another build id and inode): its
# samples must not take the new file's symbols
cp "$TGT/crash" "$APP.new" && mv "$APP.new" "$APP"
"$UPROF" report -i "$S" >/dev/null 2>"$SCRATCH/err"
check "replaced binary: one warning line" [ "$(grep -c '^warning: .*replaced since collection' "$SCRATCH/err")" = 1 ]
check "replaced binary: named in report.csv" grep -qF "Module Changed:,\"$APP\"" "$S/report.csv"
top=$(csvq "$S/report.csv" FUNCTIONS | head -1 | cut -f1)
check "replaced binary: samples left unsymbolized ($top)" [ "${top#app!0x}" != "$top" ]

# the binary gone
rm -f "$APP"
"$UPROF" report -i "$S" >/dev/null 2>"$SCRATCH/err"
check "deleted binary: one warning line" [ "$(grep -c '^warning: .*gone since collection' "$SCRATCH/err")" = 1 ]
check "deleted binary: named in report.csv" grep -qF "Module Missing:,\"$APP\"" "$S/report.csv"
cp "$TGT/demo" "$APP"

# --report-output
touch "$SCRATCH/afile"
expect_fail 2 "--report-output ''" "needs a path" "$UPROF" report -i "$S" --report-output ""
expect_fail 1 "--report-output an existing file" "is not a directory" \
	"$UPROF" report -i "$S" --report-output "$SCRATCH/afile"
expect_fail 1 "--report-output a missing directory" "no such directory" \
	"$UPROF" report -i "$S" --report-output "$SCRATCH/no dir/"
mkdir -p "$SCRATCH/out dir"
"$UPROF" report -i "$S" --report-output "$SCRATCH/out dir/" >/dev/null 2>"$SCRATCH/err"
check "--report-output DIR/ writes DIR/report.csv" [ -s "$SCRATCH/out dir/report.csv" ]
check "--report-output DIR/: no '//' in the path shown" bash -c "! grep -q '//' '$SCRATCH/err'"
"$UPROF" report -i "$S" --report-output "$SCRATCH/out dir/ünï cödé.csv" >/dev/null 2>&1
check "--report-output a .csv name with spaces and UTF-8" [ -s "$SCRATCH/out dir/ünï cödé.csv" ]

# read-only file systems and full disks need a mount of our own (root)
MNT=$SCRATCH/mnt
mkdir -p "$MNT"
if mount -t tmpfs -o size=200k tmpfs "$MNT" 2>/dev/null; then
	trap 'umount "$MNT" 2>/dev/null; rm -rf "$SCRATCH"' EXIT
	cp -r "$S" "$MNT/" && mount -o remount,ro "$MNT"
	expect_fail 1 "report into a read-only session" "cannot write .*Read-only" \
		"$UPROF" report -i "$(session_in "$MNT")"
	umount "$MNT"
	mount -t tmpfs -o size=200k tmpfs "$MNT"
	# dwarf stacks fill 200k in a few dozen samples; -b ends the target with it
	timeout 60 "$UPROF" collect -b --call-graph dwarf:8192 -o "$MNT" "$TGT/demo" 2000 \
		>/dev/null 2>"$SCRATCH/err"
	rc=$?
	F=$(session_in "$MNT")
	check "disk full: collect exits 1 ($rc)" [ "$rc" = 1 ]
	check "disk full: says so" grep -q "No space left on device" "$SCRATCH/err"
	check "disk full: session.ini has its final state" grep -q "status = interrupted" "$F/session.ini"
	check "disk full: pauses.csv written" [ -f "$F/pauses.csv" ]
	"$UPROF" report -i "$F" --report-output "$SCRATCH/full.csv" >/dev/null 2>&1
	n=$(csvq "$SCRATCH/full.csv" --key Samples)
	check "disk full: the samples so far are reported ($n)" [ "${n:-0}" -gt 0 ]
	umount "$MNT"
else
	ok "# SKIP read-only and full file systems need root (mount)"
fi

# no samples: a program that uses far less CPU time than one timer period (an hour: the
# cpu-clock timer counts the target's CPU time, so no load can make it fire), and one that
# is never resumed. (A 1 ms program at the default period gets 0 to 3 samples, in whatever
# the loader runs first.)
"$UPROF" collect --timer-interval 3600000 -o "$SCRATCH/z" /bin/true >/dev/null 2>&1
Z=$(session_in "$SCRATCH/z")
"$UPROF" report -i "$Z" >"$SCRATCH/out" 2>"$SCRATCH/err"
check "0 samples: report works" [ -s "$Z/report.csv" ]
check "0 samples: none recorded ($(csvq "$Z/report.csv" --key Samples))" \
	[ "$(csvq "$Z/report.csv" --key Samples)" = 0 ]
check "0 samples: no NaN or inf" bash -c "! grep -qiE 'nan|inf\\b' '$Z/report.csv' '$SCRATCH/out' '$SCRATCH/err'"
rate=$(csvq "$Z/report.csv" --key "Achieved Sampling Rate")
check "0 samples of known CPU time: rate 0, not unknown ($rate)" [ "${rate%% *}" = 0.0 ]
"$UPROF" collect --start-paused -o "$SCRATCH/p" "$TGT/demo" 100 >/dev/null 2>&1
P=$(session_in "$SCRATCH/p")
"$UPROF" report -i "$P" >"$SCRATCH/out" 2>"$SCRATCH/err"
check "never resumed: no NaN or inf" bash -c "! grep -qiE 'nan|inf\\b' '$P/report.csv' '$SCRATCH/out' '$SCRATCH/err'"
rate=$(csvq "$P/report.csv" --key "Achieved Sampling Rate")
check "never resumed: rate says paused ($rate)" [ "$rate" = "none (paused for the whole run)" ]

# collects racing into one directory get a session each
for i in 1 2 3; do "$UPROF" collect -o "$SCRATCH/race" "$TGT/demo" 100 >/dev/null 2>&1 & done
wait
check "3 collects at once: 3 sessions" [ "$(ls -d "$SCRATCH/race"/uprof-* | wc -l)" = 3 ]
good=0
for s in "$SCRATCH/race"/uprof-*; do
	"$UPROF" report -i "$s" >/dev/null 2>&1 && grep -q "status = complete" "$s/session.ini" &&
		good=$((good + 1))
done
check "3 collects at once: each complete and reported" [ "$good" = 3 ]
