#!/usr/bin/env bash
# A session records the architecture it was collected on (session.ini [system] arch);
# report reads sessions of its own architecture only, refusing others with one line, and
# takes a session without the key (written before it existed) as x86_64's.
. "$(dirname "$0")/lib/common.sh"

echo "# session_arch: the architecture in session.ini, and report's check of it"
"$UPROF" collect -o "$SCRATCH/a" "$TGT/demo" 50 >/dev/null 2>&1
S=$(session_in "$SCRATCH/a")
me=$(uname -m)
check "session.ini says arch = $me" grep -qx "arch = $me" "$S/session.ini"
"$UPROF" report -i "$S" >/dev/null 2>&1
check "report reads a session of its own architecture" [ $? -eq 0 ]
cp -r "$S" "$SCRATCH/other"
rm -f "$SCRATCH/other/report.csv"
sed -i "s/^arch = .*/arch = riscv64/" "$SCRATCH/other/session.ini"
expect_fail 1 "a session of another architecture is refused" \
	"is a session of riscv64; this uprof reports $me sessions only" \
	"$UPROF" report -i "$SCRATCH/other"
check "nothing written for it" [ ! -e "$SCRATCH/other/report.csv" ]
if [ "$me" = x86_64 ]; then
	cp -r "$S" "$SCRATCH/old"
	sed -i "/^arch = /d" "$SCRATCH/old/session.ini"
	"$UPROF" report -i "$SCRATCH/old" >/dev/null 2>&1
	check "no arch key (an older session): read as x86_64's" [ $? -eq 0 ]
fi
