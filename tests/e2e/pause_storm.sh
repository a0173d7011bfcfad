#!/usr/bin/env bash
# A pause storm (issue 12, item 5 / Must show 3; docs/DESIGN.md §5 last bullet): a target makes
# 3 x 300,000 amdProfilePause/Resume pairs back to back, far more than its page's pause
# ring (1024 records) holds, with quiet work and a 100 ms real pause after each storm.
# Dropped records must become "unknown" rows of pauses.csv, never pauses: every paused row
# lies inside one of the target's real pauses (it brackets each with CLOCK_MONOTONIC
# readings before the pause call and after the resume), every real pause is a row or
# meets an unknown one, the report states the unknown intervals with their samples, and
# samples are dropped only in real pauses (paused_work keeps samples only where the state
# is unknown). A control run of 10 pairs per storm (no drop) has exactly one row per
# pause. Facts of the run, never how fast the machine is.
. "$(dirname "$0")/lib/common.sh"

echo "# pause_storm: a pause ring overflowing"

# check_rows SESSION LOG: the rows of pauses.csv against the target's brackets; prints
# "known N unknown U covered C pauses P" and fails on a row outside every real pause or
# a real pause neither a row nor in an unknown row
check_rows() {
	"$PYTHON" - "$1/pauses.csv" "$2" <<'PY'
import struct, sys
SLACK = 2000  # ns: the library's TSC stamps converted to CLOCK_MONOTONIC
rows = [l.split(",") for l in open(sys.argv[1]).read().split("\n")[1:] if l]
known = sorted((int(r[1]), int(r[2])) for r in rows if r[3] != "unknown")
unknown = sorted((int(r[1]), int(r[2])) for r in rows if r[3] == "unknown")
d = open(sys.argv[2], "rb").read()
n = len(d) // 16
v = struct.unpack("<%dq" % (2 * n), d)
br = [(v[2 * i] - SLACK, v[2 * i + 1] + SLACK) for i in range(n)]  # in call order
bad = 0
# every paused row inside one bracket (brackets are in time order and do not overlap)
j = 0
for a, b in known:
    while j < n and br[j][1] < b:
        j += 1
    if j == n or not (br[j][0] <= a and b <= br[j][1]):
        bad += 1
        if bad <= 3:
            print("# paused row [%d, %d] is in no real pause" % (a, b))
# every real pause holds a paused row or meets an unknown one
k = u = covered = 0
for a, b in br:
    while k < len(known) and known[k][1] < a:
        k += 1
    while u < len(unknown) and unknown[u][1] < a:
        u += 1
    if (k < len(known) and known[k][0] <= b) or (u < len(unknown) and unknown[u][0] <= b):
        covered += 1
print("known %d unknown %d covered %d pauses %d bad %d" % (len(known), len(unknown), covered, n, bad))
sys.exit(0 if bad == 0 and covered == n else 1)
PY
}
# fn_samples SESSION FUNCTION: samples of FUNCTION in the hottest functions (CPU_TIME / 1 ms)
fn_samples() {
	csvq "$1/report.csv" "HOTTEST FUNCTIONS" | awk -F'\t' -v f="$2" '$1 == f { printf "%d\n", $2 * 1000 + 0.5; found = 1 } END { if (!found) print 0 }'
}

# ---- 1. the control: 10 pairs a storm, nothing dropped ----
mkdir -p "$SCRATCH/c"
"$UPROF" collect -o "$SCRATCH/c" "$TGT/pause_storm" "$SCRATCH/c.log" 3 10 100 >"$SCRATCH/c.out" 2>"$SCRATCH/c.err"
check "control: collect exits 0" [ $? -eq 0 ]
S=$(session_in "$SCRATCH/c")
check "control: the target made 33 pauses" grep -qx "pauses 33" "$SCRATCH/c.out"
check "control: no pause record dropped, no unknown row" \
	bash -c "! grep -q unknown '$S/pauses.csv' && grep -qx 'lost_pause_records = 0' '$S/session.ini'"
check "control: no word of dropped records" bash -c "! grep -q 'pause/resume record' '$SCRATCH/c.err'"
res=$(check_rows "$S" "$SCRATCH/c.log")
echo "# control: $res"
check "control: one paused row inside each real pause, each pause a row ($res)" \
	bash -c "[[ '$res' == 'known 33 unknown 0 covered 33 pauses 33 bad 0' ]]"

# ---- 2. the storm ----
mkdir -p "$SCRATCH/s"
"$UPROF" collect -o "$SCRATCH/s" "$TGT/pause_storm" "$SCRATCH/s.log" 3 300000 200 >"$SCRATCH/s.out" 2>"$SCRATCH/s.err"
check "storm: collect exits 0" [ $? -eq 0 ]
S=$(session_in "$SCRATCH/s")
"$UPROF" report -i "$S" >/dev/null 2>"$SCRATCH/s.rerr"
check "storm: report reads the session" [ -s "$S/report.csv" ]
lost=$(sed -n 's/^lost_pause_records = //p' "$S/session.ini")
echo "# storm: $lost pause/resume records dropped; $(grep -c unknown "$S/pauses.csv") unknown rows"
check "storm: the target made 900003 pauses" grep -qx "pauses 900003" "$SCRATCH/s.out"
check "storm: records were dropped (session.ini: $lost), at most the 1800006 the target made" \
	"$PYTHON" -c "import sys; sys.exit(0 if 0 < $lost <= 1800006 else 1)"
check "storm: collect says so once, with the count" \
	bash -c "[ \$(grep -c 'pause/resume records were dropped' '$SCRATCH/s.err') -eq 1 ] && grep -q '^uprof collect: warning: $lost pause/resume records' '$SCRATCH/s.err'"
check "storm: pauses.csv has unknown rows" grep -q ',unknown$' "$S/pauses.csv"
res=$(check_rows "$S" "$SCRATCH/s.log")
echo "# storm: $res"
check "storm: every paused row inside a real pause, every real pause a row or unknown ($res)" \
	bash -c "[[ '$res' == *' covered 900003 pauses 900003 bad 0' ]]"
check "storm: session.ini's paused and unknown totals are pauses.csv's" "$PYTHON" - "$S" <<'PY'
import sys
S = sys.argv[1]
ini = dict(l.split(" = ", 1) for l in open(S + "/session.ini").read().split("\n") if " = " in l)
rows = [l.split(",") for l in open(S + "/pauses.csv").read().split("\n")[1:] if l]
p = sum(int(r[2]) - int(r[1]) for r in rows if r[3] != "unknown")
u = sum(int(r[2]) - int(r[1]) for r in rows if r[3] == "unknown")
sys.exit(0 if int(ini["pause_total_ns"]) == p and int(ini["pause_unknown_ns"]) == u and u > 0 else 1)
PY
line=$(csvq "$S/report.csv" --key "Pause State Unknown")
echo "# storm: Pause State Unknown: $line"
nu=$(grep -c ',unknown$' "$S/pauses.csv")
check "storm: report states the $nu unknown intervals and the $lost dropped records" \
	bash -c "[[ '$line' == '$nu interval'*' samples in them kept ($lost pause/resume records dropped by the target)' ]]"
kept_unknown=$(echo "$line" | sed -n 's/.* s, \([0-9]*\) sample.*/\1/p')
quiet=$(fn_samples "$S" quiet_work)
paused=$(fn_samples "$S" paused_work)
echo "# storm: quiet_work $quiet samples, paused_work $paused, $kept_unknown samples in unknown time"
check "storm: quiet_work is sampled ($quiet samples of 600 ms)" [ "$quiet" -gt 50 ]
check "storm: paused_work keeps samples only in unknown time ($paused <= $kept_unknown)" \
	[ "$paused" -le "$kept_unknown" ]
check "storm: no sanitizer report" bash -c "! grep -q 'runtime error\|AddressSanitizer' '$SCRATCH/s.err' '$SCRATCH/s.rerr'"
