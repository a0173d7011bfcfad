#!/usr/bin/env bash
# Run every unit test binary given as argument and every tests/e2e/*.sh script.
# Each prints TAP-style "ok"/"not ok" lines; this counts them. A program that dies
# without a "not ok" counts as one failure. Last line: "N passed, N failed".
set -u
BUILD=${BUILD:-build}
export UPROF=${UPROF:-$PWD/$BUILD/bin/uprof}
export BUILD
pass=0 fail=0
failed_names=()
run_one() {
	local name=$1; shift
	local out rc p f
	out=$("$@" 2>&1); rc=$?
	p=$(grep -cE '^ok ' <<<"$out")
	f=$(grep -cE '^not ok ' <<<"$out")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
	pass=$((pass + p)); fail=$((fail + f))
	if [ "$f" -ne 0 ]; then
		failed_names+=("$name")
		echo "== $name: $p passed, $f failed (exit $rc)"
		grep -vE '^ok ' <<<"$out" | tail -40
	else
		echo "== $name: $p passed"
	fi
}
for t in "$@"; do
	CMOCKA_MESSAGE_OUTPUT=TAP run_one "$(basename "$t")" "$t"
done
for s in tests/e2e/*.sh; do
	[ -e "$s" ] || continue
	run_one "$(basename "$s")" bash "$s"
done
[ ${#failed_names[@]} -gt 0 ] && echo "failed: ${failed_names[*]}"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
