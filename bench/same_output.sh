#!/usr/bin/env bash
# Does a change to report keep its output? Reports the same sessions with two uprof
# binaries and compares every file byte for byte: report.csv (--detail, --cutoff 0), all
# exports, and the terminal summary (stdout and stderr into one file, in a terminal's
# order: which stream a line goes to may differ, its text and place may not). Sessions:
# bench (c)'s (no stacks, kernel samples), a -g and a --call-graph dwarf session of
# tests/targets/callgraph, a task session of tests/targets/tasks, and the 0.1.0 fixture
# (with its own kallsyms).
#   bench/same_output.sh OLD_UPROF NEW_UPROF [C_SESSION]
# C_SESSION: bench (c)'s session directory (collected here when not given).
# Needs `make build/targets/callgraph_fp build/targets/callgraph_nofp build/targets/tasks`.
set -u
OLD=$1 NEW=$2 CSES=${3:-}
cd "$(dirname "$0")/.." || exit 1
T=$(mktemp -d /tmp/same_output.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail=0
session_in() { ls -d "$1"/*/ | head -1; }

if [ -z "$CSES" ]; then
	gcc -O2 -g -pthread bench/workloads/spin.c -o "$T/spin" || exit 1
	"$NEW" collect --timer-interval 0.1 -m 512 -o "$T/c" "$T/spin" 2 100 >/dev/null 2>&1
	CSES=$(session_in "$T/c")
fi
"$NEW" collect -g -o "$T/g" build/targets/callgraph_fp 1000 chain >/dev/null 2>&1
"$NEW" collect --call-graph dwarf -o "$T/d" build/targets/callgraph_nofp 1000 chain >/dev/null 2>&1
"$NEW" collect -o "$T/t" build/targets/tasks >/dev/null 2>&1
FIX=tests/fixtures/release-0.1.0
mkdir -p /tmp/uprof-fixture-r1 # the path the fixture's MMAP2 records name
[ -x /tmp/uprof-fixture-r1/tasks ] || { xz -dc "$FIX/tasks.xz" >/tmp/uprof-fixture-r1/tasks &&
	chmod 755 /tmp/uprof-fixture-r1/tasks; }
cp -r "$FIX/session" "$T/old"

# compare NAME SESSION [report options...]: once without exports (report.csv alone may
# skip work that only exports need), once with --export all
compare() {
	local name=$1 s=$2 which exports=${EXPORTS:-1}
	shift 2
	for which in old new; do
		local bin=$OLD out=$T/out-$name-$which
		[ $which = new ] && bin=$NEW
		mkdir -p "$out"
		TZ=UTC LC_ALL=C "$bin" report -i "$s" --detail --cutoff 0 \
			--report-output "$out/report.csv" "$@" >"$out/terminal" 2>&1
		echo "rc $?" >>"$out/terminal"
		sed -i -e 's/^Report Command:,.*/Report Command:,X/' "$out/report.csv"
		if [ -n "$exports" ]; then
			TZ=UTC LC_ALL=C "$bin" report -i "$s" --detail --cutoff 0 --export all \
				--export-dir "$out" --report-output "$out/report-exp.csv" "$@" \
				>"$out/terminal-exp" 2>&1
			echo "rc $?" >>"$out/terminal-exp"
			sed -i -e 's/^Report Command:,.*/Report Command:,X/' "$out/report-exp.csv"
			sed -i -E -e 's/"session":"[^"]*"/"session":"X"/' "$out/trace.json"
		fi
		sed -i -e "s|$out|OUT|g" "$out"/terminal*
	done
	if diff -r "$T/out-$name-old" "$T/out-$name-new" >"$T/diff" 2>&1; then
		echo "same: $name ($(ls "$T/out-$name-new" | tr '\n' ' '))"
	else
		echo "DIFFERENT: $name"
		head -20 "$T/diff"
		fail=1
	fi
}
compare bench-c "$CSES"
compare bench-c-plain "$CSES" --cutoff 10
compare g "$(session_in "$T/g")"
compare dwarf "$(session_in "$T/d")"
compare tasks "$(session_in "$T/t")"
compare old-release "$T/old" -g --kallsyms "$FIX/kallsyms"
exit $fail
