# Shared helpers for the end-to-end tests: TAP-style output, a scratch dir, running
# uprof, and reading report.csv sections through csvq.py.
set -u
: "${UPROF:?set UPROF to the uprof binary}"
BUILD=${BUILD:-build}
TGT=$PWD/$BUILD/targets
[ -d "$TGT" ] || TGT=$PWD/build/targets
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# python resolved once (run-all.sh does it too): the system's /usr/bin/python3 when there is
# one, not the first python3 on PATH, which may be a version manager's shim (pyenv's costs
# ~1.9 s a start against ~0.25 s, and these scripts start python hundreds of times)
if [ -z "${PYTHON:-}" ]; then
	if [ -x /usr/bin/python3 ]; then PYTHON=/usr/bin/python3; else PYTHON=$(command -v python3 || echo python3); fi
fi
export PYTHON
SCRATCH=$(mktemp -d /tmp/uprof-e2e.XXXXXX)
trap 'rm -rf "$SCRATCH"' EXIT
# uprof's build-id cache (collect fills it, report reads it; perf's ~/.debug otherwise) in
# the scratch dir: no test's binaries land in the user's cache, and no test finds copies
# another run left there (perf itself does not read this variable: it keeps ~/.debug)
export PERF_BUILDID_DIR=$SCRATCH/.debug
_n=0

ok() { _n=$((_n + 1)); echo "ok $_n - $*"; }
not_ok() { _n=$((_n + 1)); echo "not ok $_n - $*"; }
# check "description" command...: ok if the command succeeds
check() {
	local desc=$1; shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}
# check_sh DESC 'EXPR': a check whose condition is a shell expression with && or | in it,
# evaluated here (in single quotes: its variables are read when it runs). "check D [ a ]
# && [ b ]" would check [ a ] alone and run [ b ] after, its result lost.
check_sh() {
	local desc=$1
	if eval "$2"; then ok "$desc"; else not_ok "$desc"; fi
}
# The one session directory under $1.
session_in() { ls -d "$1"/uprof-* 2>/dev/null | head -1; }
# csvq FILE SECTION [COLUMN]: rows of the section whose title contains SECTION
csvq() { "$PYTHON" "$HERE/csvq.py" "$@"; }
# Is |a-b| <= tol (floats)?
# timer_missed REPORT_CSV: the share of its periods the session's timer missed, from the
# report's own rates (1 - achieved/requested; 0 when it kept up). A host that takes the
# VM's CPU away, unseen as steal, holds the timer's interrupt past whole periods and the
# kernel skips them (hrtimer_forward_now): the samples then hold that much less than the
# threads' own CPU clocks say, unevenly between threads (a suite run: 6 % of a region's
# CPU time, 9 % of one thread's and 0 of the other's). A check of sampled CPU time against
# the program's own widens its margin by this, measured in the same run.
timer_missed() {
	"$PYTHON" - "$1" <<'PY'
import csv, sys
k = {}
for row in csv.reader(open(sys.argv[1], errors="replace")):
    if len(row) >= 2 and row[0] in ("Requested Sampling Rate:", "Achieved Sampling Rate:"):
        k.setdefault(row[0], float(row[1].split()[0]))
want, got = k.get("Requested Sampling Rate:", 0), k.get("Achieved Sampling Rate:", 0)
print(f"{max(0.0, 1 - got / want) if want > 0 and got > 0 else 0:.4f}")
PY
}
near() { "$PYTHON" -c "import sys; a,b,t=map(float,sys.argv[1:4]); sys.exit(0 if abs(a-b)<=t else 1)" "$@"; }
# expect_fail CODE "description" PATTERN cmd...: exit CODE (or any non-zero for "any"),
# exactly one line on stderr, matching PATTERN, no sanitizer report
expect_fail() {
	local want=$1 desc=$2 pat=$3; shift 3
	"$@" >"$SCRATCH/out" 2>"$SCRATCH/err"
	local rc=$? lines
	lines=$(grep -c . "$SCRATCH/err")
	if { [ "$want" = any ] && [ "$rc" -ne 0 ] && [ "$rc" -lt 128 ]; } || [ "$rc" = "$want" ]; then
		if [ "$lines" -eq 1 ] && grep -qE -- "$pat" "$SCRATCH/err"; then
			ok "$desc (exit $rc): $(cat "$SCRATCH/err")"
			return
		fi
	fi
	not_ok "$desc: exit $rc, stderr: $(head -c 600 "$SCRATCH/err")"
}
# rate_checks SESSION PERIOD_MS WHAT: the achieved rate from facts of the run, not from how
# fast the machine was. It is the session's own samples over its own target CPU time (to
# 0.1 Hz); the timer fires once per period of the CPU time it runs in, and what collect
# counts beyond that (exec, a start reading taken before sampling is on) only lowers the
# rate, so it is at most the requested one (+10 % for time a guest's clock gives the timer
# but not the task, + 2 samples); and it is over half the requested rate (a rate that
# counted CPU time it did not sample, or a timer of another period, is far below).
rate_checks() {
	local S=$1 ms=$2 what=$3 rate n cpu
	rate=$(csvq "$S/report.csv" --key "Achieved Sampling Rate" | awk '{print $1}')
	n=$(csvq "$S/report.csv" --key Samples)
	cpu=$(sed -n "s/^cpu_ns = //p" "$S/session.ini")
	echo "# $what: $n samples in ${cpu:-?} ns of target CPU time: $rate Hz"
	check "$what: the achieved rate is samples per target CPU second ($n / $cpu ns = $rate Hz)" \
		"$PYTHON" -c "import sys; sys.exit(0 if $cpu > 0 and abs($rate - $n / ($cpu / 1e9)) <= 0.1 else 1)"
	check "$what: at most one sample per $ms ms of target CPU time ($n for $cpu ns)" \
		"$PYTHON" -c "import sys; sys.exit(0 if $n <= $cpu / ($ms * 1e6) * 1.1 + 2 else 1)"
	check "$what: over half the requested $("$PYTHON" -c "print(round(1000 / $ms))") Hz ($rate Hz)" \
		"$PYTHON" -c "import sys; sys.exit(0 if $rate > 1000 / $ms / 2 else 1)"
}
# duration_checks SESSION SECONDS WHAT: -d as facts of the session, not of the machine's
# speed: the reported profile duration is session.ini's end - start (to the ms it prints),
# and collect stopped no earlier than -d after the start (how much later is the load's).
duration_checks() {
	local S=$1 d=$2 what=$3 dur start end
	dur=$(csvq "$S/report.csv" --key "Profile Duration" | awk '{print $1}')
	start=$(sed -n 's/^start_mono_ns = //p' "$S/session.ini")
	end=$(sed -n 's/^end_mono_ns = //p' "$S/session.ini")
	check "$what: the profile duration is the session's end - start ($dur s)" \
		"$PYTHON" -c "import sys; sys.exit(0 if $end > $start and abs($dur - ($end - $start) / 1e9) <= 0.0006 else 1)"
	check "$what: collect stopped no earlier than $d s after the start ($dur s)" \
		"$PYTHON" -c "import sys; sys.exit(0 if ($end - $start) / 1e9 >= $d else 1)"
}
# own_dev_shm "$0" "$@" (first thing in a script): run the script with a /dev/shm of its
# own (a tmpfs in a new mount namespace), so a check that no control page outlives its
# process sees only this script's pages, not those of a suite or a test running beside it.
# Needs root and unshare(1); without them the script runs on the shared /dev/shm and says so.
own_dev_shm() {
	local script=$1
	shift
	[ -n "${UPROF_OWN_DEV_SHM:-}" ] && return 0
	if [ "$(id -u)" -eq 0 ] && unshare -m true 2>/dev/null; then
		rm -rf "$SCRATCH" # exec skips the EXIT trap; the new run makes its own
		exec env UPROF_OWN_DEV_SHM=1 unshare -m bash -c \
			'mount -t tmpfs -o mode=1777 uprof-test-shm /dev/shm && exec bash "$@"' \
			bash "$script" "$@"
	fi
	echo "# /dev/shm is shared with whatever runs beside this test (not root, or no unshare)"
}
