# shellcheck shell=bash
# --trace os e2e tests' shared steps (after lib/common.sh): one collect of a target that
# writes its own facts, skipped where OS tracing cannot run, and its report.

# os_collect TARGET: collect --trace os of TARGET, which writes its facts to
# $SCRATCH/os.facts (stdout $SCRATCH/os.out, collect's stderr $SCRATCH/os.err); the test
# ends as a SKIP where tracefs or the permission is missing; S is the session.
os_collect() {
	local rc
	"$UPROF" collect --trace os -o "$SCRATCH/os" "$1" "$SCRATCH/os.facts" \
		>"$SCRATCH/os.out" 2>"$SCRATCH/os.err"
	rc=$?
	if [ $rc -ne 0 ] && grep -q 'tracefs\|not readable\|permission' "$SCRATCH/os.err"; then
		ok "# SKIP OS tracing not possible here: $(head -c 300 "$SCRATCH/os.err")"
		exit 0
	fi
	check "collect --trace os exits 0 ($(tail -c 300 "$SCRATCH/os.err" | tr "\n" " "))" [ $rc -eq 0 ]
	S=$(session_in "$SCRATCH/os")
}

# os_report [ARGS...]: report of $S with ARGS (stderr $SCRATCH/report.err), checked to exit 0
os_report() {
	local rc
	"$UPROF" report -i "$S" "$@" >/dev/null 2>"$SCRATCH/report.err"
	rc=$?
	check "report${*:+ $*} exits 0 ($(tail -c 300 "$SCRATCH/report.err" | tr "\n" " "))" [ $rc -eq 0 ]
}

# os_fact KEY: the number the target wrote as "KEY N" into $SCRATCH/os.facts
os_fact() { sed -n "s/^$1 \([0-9]*\)$/\1/p" "$SCRATCH/os.facts"; }
