# Shared helpers for the end-to-end tests: TAP-style output, a scratch dir, running
# uprof, and reading report.csv sections through csvq.py.
set -u
: "${UPROF:?set UPROF to the uprof binary}"
BUILD=${BUILD:-build}
TGT=$PWD/$BUILD/targets
[ -d "$TGT" ] || TGT=$PWD/build/targets
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SCRATCH=$(mktemp -d /tmp/uprof-e2e.XXXXXX)
trap 'rm -rf "$SCRATCH"' EXIT
_n=0

ok() { _n=$((_n + 1)); echo "ok $_n - $*"; }
not_ok() { _n=$((_n + 1)); echo "not ok $_n - $*"; }
# check "description" command...: ok if the command succeeds
check() {
	local desc=$1; shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}
# The one session directory under $1.
session_in() { ls -d "$1"/uprof-* 2>/dev/null | head -1; }
# csvq FILE SECTION [COLUMN]: rows of the section whose title contains SECTION
csvq() { python3 "$HERE/csvq.py" "$@"; }
# Is |a-b| <= tol (floats)?
near() { python3 -c "import sys; a,b,t=map(float,sys.argv[1:4]); sys.exit(0 if abs(a-b)<=t else 1)" "$@"; }
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
