#!/usr/bin/env bash
# docs/DESIGN.md §4: a session directory is mode 0700 and every file in it 0600 whatever the
# umask (samples.data holds copies of the target's stack and registers); report.csv and
# exports written into it too.
. "$(dirname "$0")/lib/common.sh"

echo "# session_modes: 0700 directories, 0600 files, whatever the umask"
# modes_ok S: every directory under S 0700, every file 0600; the odd ones are printed
modes_ok() {
	local bad
	[ -d "$1" ] || return 1
	bad=$(find "$1" \( \( -type d ! -perm 0700 \) -o \( -type f ! -perm 0600 \) \) -printf '%m %p\n')
	[ -z "$bad" ] || { echo "# wrong modes: $bad"; return 1; }
}
for mask in 022 000; do
	(umask $mask && "$UPROF" collect -g -o "$SCRATCH/m$mask" "$TGT/tasks" >/dev/null 2>&1)
	S=$(session_in "$SCRATCH/m$mask")
	(umask $mask && "$UPROF" report -i "$S" --export folded >/dev/null 2>&1)
	check "umask $mask: session.ini, vdso.so, report.csv and the export are there" \
		bash -c "ls '$S/session.ini' '$S/vdso.so' '$S/report.csv' '$S'/*.folded >/dev/null"
	check "umask $mask: instrument/ has the tasks file" bash -c "ls '$S'/instrument/*.tasks >/dev/null"
	check "umask $mask: every directory 0700, every file 0600" modes_ok "$S"
done
(umask 000 && "$UPROF" collect --start-paused -o "$SCRATCH/p" "$TGT/pause" async >/dev/null 2>&1)
S=$(session_in "$SCRATCH/p")
check "umask 000, --start-paused: pauses.csv is there" [ -f "$S/pauses.csv" ]
check "umask 000, --start-paused: every directory 0700, every file 0600" modes_ok "$S"
(umask 000 && "$UPROF" report -i "$S" --export perfetto --export-dir "$SCRATCH/ex" >/dev/null 2>&1)
check "--export-dir made 0700, its export 0600" modes_ok "$SCRATCH/ex"
