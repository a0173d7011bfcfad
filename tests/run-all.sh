#!/usr/bin/env bash
# Run every unit test binary given as argument and every tests/e2e/*.sh script.
# Each prints TAP-style "ok"/"not ok" lines; this counts them. An "ok"/"not ok" line with
# a "# SKIP" directive counts as skipped, not passed (cmocka writes "not ok N # SKIP").
# A program that exits non-zero without a "not ok", prints no result at all, or runs past
# its time limit counts as one failure. Last line: "N passed, N failed, N skipped".
#
#   T="name[,name...]"    run only these files: a unit binary (test_session) or an e2e
#                         script (cli or cli.sh); comma or space separated
#   UPROF_TEST_TIMEOUT=S  seconds each file may run (default: 300 unit, 900 e2e)
set -u
BUILD=${BUILD:-build}
export UPROF=${UPROF:-$PWD/$BUILD/bin/uprof}
export BUILD
# python resolved once for every file: the system's, not a version manager's shim on PATH
# (tests/e2e/lib/common.sh says why)
if [ -z "${PYTHON:-}" ]; then
	if [ -x /usr/bin/python3 ]; then PYTHON=/usr/bin/python3; else PYTHON=$(command -v python3 || echo python3); fi
fi
export PYTHON
T=${T:-}
pass=0 fail=0 skip=0
failed_names=()
out=$(mktemp /tmp/uprof-run-all.XXXXXX)
trap 'rm -f "$out"' EXIT

# Every process a test file starts inherits this variable; after the file ends, any that
# still carries it (one that left the process group timeout kills, or outlived its parent)
# is killed, so no test leaves anything running into the next.
stragglers() {
	grep -lzxF "UPROF_TEST_RUN=$1" /proc/[0-9]*/environ 2>/dev/null |
		sed -n 's|^/proc/\([0-9]*\)/environ$|\1|p' | grep -vxF "$$"
}

run_one() {
	local name=$1 limit=$2; shift 2
	local rc p f s start tag left timed_out=
	tag="$$.$name"
	start=$SECONDS
	# timeout (not --foreground) runs the file in its own process group and signals the
	# whole group: TERM at the limit, KILL 10 s later if anything is still there.
	# Output goes to a file, not a pipe: a straggler holding the pipe cannot hang the run.
	UPROF_TEST_RUN=$tag timeout -k 10 "$limit" "$@" >"$out" 2>&1 </dev/null
	rc=$?
	if { [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; } && [ $((SECONDS - start)) -ge "$limit" ]; then
		timed_out=1
	fi
	left=$(stragglers "$tag")
	# shellcheck disable=SC2086
	[ -n "$left" ] && kill -KILL $left 2>/dev/null
	s=$(grep -ciE '^(not )?ok\b.*#[[:space:]]*skip' "$out")
	p=$(grep -E '^ok\b' "$out" | grep -civE '#[[:space:]]*skip')
	f=$(grep -E '^not ok\b' "$out" | grep -civE '#[[:space:]]*skip')
	local why=""
	if [ -n "$timed_out" ]; then
		f=$((f + 1)) why="timed out after ${limit} s"
	elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1 why="exit $rc"
	elif [ $((p + f + s)) -eq 0 ]; then
		f=1 why="no test results"
	elif [ "$rc" -ne 0 ]; then
		why="exit $rc"
	fi
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
	local line="== $name: $p passed"
	[ "$f" -ne 0 ] && line+=", $f failed"
	[ "$s" -ne 0 ] && line+=", $s skipped"
	[ -n "$why" ] && line+=" ($why)"
	line+=" [$((SECONDS - start)) s]" # where the suite's time goes
	echo "$line"
	[ -n "$left" ] && echo "   killed what it left running: pids $(echo $left)"
	if [ "$f" -ne 0 ]; then
		failed_names+=("$name${timed_out:+ (timed out)}")
		grep -vE '^ok\b' "$out" | tail -40
	elif [ "$s" -ne 0 ]; then
		grep -iE '^(not )?ok\b.*#[[:space:]]*skip' "$out"
	fi
}

# The files to run: every unit binary and e2e script, or those T names.
units=("$@")
e2es=()
for sc in tests/e2e/*.sh; do [ -e "$sc" ] && e2es+=("$sc"); done
if [ -n "$T" ]; then
	want_u=() want_e=() unknown=()
	for n in ${T//,/ }; do
		found=
		for u in "${units[@]}"; do
			[ "$(basename "$u")" = "$n" ] && want_u+=("$u") found=1
		done
		for sc in "${e2es[@]}"; do
			b=$(basename "$sc")
			{ [ "$b" = "$n" ] || [ "$b" = "$n.sh" ]; } && want_e+=("$sc") found=1
		done
		[ -n "$found" ] || unknown+=("$n")
	done
	if [ ${#unknown[@]} -gt 0 ] || [ $((${#want_u[@]} + ${#want_e[@]})) -eq 0 ]; then
		echo "run-all.sh: no test file named: ${unknown[*]:-(none given)}" >&2
		echo "unit tests: $(for u in "${units[@]}"; do basename "$u"; done | tr '\n' ' ')" >&2
		echo "e2e tests:  $(for sc in "${e2es[@]}"; do basename "$sc" .sh; done | tr '\n' ' ')" >&2
		exit 2
	fi
	units=(${want_u[@]+"${want_u[@]}"}) e2es=(${want_e[@]+"${want_e[@]}"})
fi

for t in ${units[@]+"${units[@]}"}; do
	CMOCKA_MESSAGE_OUTPUT=TAP run_one "$(basename "$t")" "${UPROF_TEST_TIMEOUT:-300}" "$t"
done
for sc in ${e2es[@]+"${e2es[@]}"}; do
	run_one "$(basename "$sc")" "${UPROF_TEST_TIMEOUT:-900}" bash "$sc"
done
[ ${#failed_names[@]} -gt 0 ] && echo "failed: ${failed_names[*]}"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
