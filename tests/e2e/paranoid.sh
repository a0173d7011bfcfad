#!/usr/bin/env bash
# An unprivileged user at kernel.perf_event_paranoid=2 gets a user-only profile (issue 12,
# item 9 / Must show 5): every event, the tracking event too, with exclude_kernel and
# exclude_hv, and one warning; launched and with -p. At 3 (where the kernel takes 3 as
# "no profiling for users"), or with -a at 2: one line saying what to change.
#
# This file changes the sysctl, the only one that does: it sets it, runs, and puts the
# old value back in its EXIT trap. tests/run-all.sh (make check) runs it alone (its
# run-alone line), so no other file of the same suite runs meanwhile. Another
# suite running on the same machine at the same time (a second checkout's make check)
# would see the change; the suite's own profiling runs as root, which the sysctl does not
# bind, so only unprivileged profiling beside it could be affected.
# run-alone: it changes kernel.perf_event_paranoid, which every process on the machine reads
. "$(dirname "$0")/lib/common.sh"
# its collect -a must say one line: control pages that another suite on this machine left
# in /dev/shm (a squatting test's, another user's) would each add a warning
own_dev_shm "$0" "$@"

if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null ||
	[ ! -w /proc/sys/kernel/perf_event_paranoid ]; then
	ok "# SKIP paranoid needs root, setpriv and a writable kernel.perf_event_paranoid"
	exit 0
fi
OLD=$(cat /proc/sys/kernel/perf_event_paranoid)
restore() {
	echo "$OLD" >/proc/sys/kernel/perf_event_paranoid
	rm -rf "$SCRATCH"
}
trap restore EXIT
USER_=(setpriv --reuid=65534 --regid=65534 --clear-groups)
chmod 755 "$SCRATCH"
mkdir -p "$SCRATCH/u/l" "$SCRATCH/u/p" "$SCRATCH/u/3" && chown -R 65534:65534 "$SCRATCH/u"
# the user's build-id cache is its own (common.sh's, in root's scratch, is not writable
# by it: collect would rightly warn that it could not copy into it)
export PERF_BUILDID_DIR="$SCRATCH/u/.debug"
# attrs FILE: "N M": the perf_event_attr records at the head of a pipe-mode samples.data,
# and how many of them have exclude_kernel and exclude_hv set (bits 5 and 6 of the flags
# word at offset 40 of the attr; PERF_RECORD_HEADER_ATTR is type 64)
attrs() {
	"$PYTHON" - "$1" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
pos, n, m = 16, 0, 0
while pos + 8 <= len(d):
    typ, misc, size = struct.unpack_from("<IHH", d, pos)
    if typ != 64 or size < 8 + 48:
        break
    flags = struct.unpack_from("<Q", d, pos + 8 + 40)[0]
    n += 1
    m += (flags >> 5) & 1 and (flags >> 6) & 1
    pos += size
print(n, m)
PY
}
echo "# paranoid: user-only profiles for an unprivileged user (was $OLD)"

echo 2 >/proc/sys/kernel/perf_event_paranoid
check "the sysctl is 2 now" [ "$(cat /proc/sys/kernel/perf_event_paranoid)" = 2 ]

# ---- launched ----
"${USER_[@]}" "$UPROF" collect -o "$SCRATCH/u/l" "$TGT/demo" 300 >/dev/null 2>"$SCRATCH/l.err"
rc=$?
check "launched: collect exits 0 as uid 65534 ($rc: $(head -1 "$SCRATCH/l.err"))" [ "$rc" -eq 0 ]
check "launched: one warning, and it says user code only" \
	bash -c "[ \$(grep -c 'warning' '$SCRATCH/l.err') -eq 1 ] && grep -q 'warning: kernel samples not allowed .*sampling user code only' '$SCRATCH/l.err'"
S=$(session_in "$SCRATCH/u/l")
ne=$(grep -c '^exclude_kernel = ' "$S/session.ini")
nk=$(grep -c '^exclude_kernel = 1' "$S/session.ini")
check "launched: every event in session.ini excludes the kernel ($nk of $ne)" \
	bash -c "[ $ne -ge 1 ] && [ $ne -eq $nk ]"
"${USER_[@]}" "$UPROF" report -i "$S" >/dev/null 2>&1
check "launched: the report says user mode only" \
	grep -q 'Event Used:,".*user mode only' "$S/report.csv"
n=$(csvq "$S/report.csv" --key Samples)
top=$(csvq "$S/report.csv" "FUNCTIONS" | head -1 | cut -f1)
check "launched: the program's code is sampled and named ($n samples, top $top)" \
	bash -c "[ '${n:-0}' -gt 0 ] && [ '$top' = heavy_work ]"
mods=$(csvq "$S/report.csv" MODULES | cut -f1 | tr '\n' ' ')
check "launched: no kernel module among the hottest modules ($mods)" \
	bash -c "[ -n '$mods' ] && [[ '$mods' != *kallsyms* ]]"
read -r nev nuo <<<"$(attrs "$S/samples.data")"
check "launched: samples.data's attrs, the tracking event too, exclude kernel and hv ($nuo of $nev)" \
	bash -c "[ '${nev:-0}' -ge 2 ] && [ '$nev' -eq '$nuo' ]"

# ---- attached (-p) to the user's own process ----
"${USER_[@]}" bash -c "'$TGT/demo' 4000 >/dev/null & p=\$!; sleep 0.3; '$UPROF' collect -o '$SCRATCH/u/p' -p \$p -d 0.5; rc=\$?; kill \$p; exit \$rc" \
	>/dev/null 2>"$SCRATCH/p.err"
rc=$?
check "-p: collect exits 0 as uid 65534 ($rc: $(head -1 "$SCRATCH/p.err"))" [ "$rc" -eq 0 ]
check "-p: one warning, user code only" \
	bash -c "[ \$(grep -c 'warning' '$SCRATCH/p.err') -eq 1 ] && grep -q 'sampling user code only' '$SCRATCH/p.err'"
S=$(session_in "$SCRATCH/u/p")
"${USER_[@]}" "$UPROF" report -i "$S" >/dev/null 2>&1
n=$(csvq "$S/report.csv" --key Samples)
check "-p: samples, user mode only ($n)" \
	bash -c "[ '${n:-0}' -gt 0 ] && grep -q 'Event Used:,\".*user mode only' '$S/report.csv'"

# ---- -a at 2: per-CPU events need 0 ----
expect_fail 1 "-a at paranoid 2: one line with what to change" \
	"perf_event_paranoid is 2 and profiling every CPU .* needs 0 or lower; 'sysctl kernel.perf_event_paranoid=0' or run as root" \
	"${USER_[@]}" "$UPROF" collect -o "$SCRATCH/u" -a -d 0.2

# ---- 3: nothing for users (where the kernel knows 3) ----
echo 3 >/proc/sys/kernel/perf_event_paranoid
if [ "$(cat /proc/sys/kernel/perf_event_paranoid)" != 3 ]; then
	ok "# SKIP this kernel does not take kernel.perf_event_paranoid=3"
else
	"${USER_[@]}" "$UPROF" collect -o "$SCRATCH/u/3" "$TGT/demo" 100 >/dev/null 2>"$SCRATCH/3.err"
	rc=$?
	if [ "$rc" -eq 0 ]; then
		ok "# SKIP this kernel takes 3 as 2 (user-only profiling still allowed)"
	else
		check "3: exit 1 and one line with what to change ($(cat "$SCRATCH/3.err"))" \
			bash -c "[ $rc -eq 1 ] && [ \$(grep -c . '$SCRATCH/3.err') -eq 1 ] && grep -q \"perf_event_paranoid is 3 and profiling needs 2 or lower; 'sysctl kernel.perf_event_paranoid=2' or run as root\" '$SCRATCH/3.err'"
	fi
fi
restore
trap - EXIT
check "the sysctl is back to $OLD" [ "$(cat /proc/sys/kernel/perf_event_paranoid)" = "$OLD" ]
