#!/usr/bin/env bash
# scripts/soak.sh [-n CLEAN] [-H HOGGED] [-s] [-r REPO] -- does the suite pass every time?
#
# Runs `make check` on fresh clones of REPO's HEAD (default: this checkout), one after
# another: CLEAN runs as they are, HOGGED runs with two CPU hogs (`yes >/dev/null`) beside
# them, and with -s one `make check SANITIZE=1`. Prints one line per run (commit, exit,
# seconds, load average at the end, the suite's summary line and the files that failed)
# and keeps each log under $SOAK_DIR (default /tmp/uprof-soak). Exit 0 only when every
# run passed. This is the check issue 10 asks for ("5 of 5, 3 of 3 beside two hogs,
# SANITIZE=1"); on 2 idle CPUs a clean run takes ~17 min, a SANITIZE one ~60; beside two
# hogs (and a niced build or two) ~70.
# SOAK_MAKE_ARGS is added to every make (e.g. "T=cli" to try the script itself).
#
# -f FUZZDIR: the hogs are the fuzz targets of FUZZDIR/build/fuzz (a built checkout), so the
# hogged runs are also issue 12's fuzz campaign. Each of the two hog slots takes the next
# target off the queue (SOAK_FUZZ_TARGETS, default every target there) and runs it for
# SOAK_FUZZ_SECONDS (default 1800) at normal priority; a slot with nothing left runs `yes`.
# Each fuzzer's log is $SOAK_DIR/fuzz/<target>.log; a target cut short by the end of the
# soak is run again from the start by the next soak, so only logs ending in libFuzzer's
# "Done N runs in S second(s)" line count. Findings go to $SOAK_DIR/fuzz/<target>-crash-*.
set -u
CLEAN=5 HOGGED=3 SAN=0 FUZZDIR=
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
while getopts "n:H:sr:f:" o; do
	case $o in
	n) CLEAN=$OPTARG ;;
	H) HOGGED=$OPTARG ;;
	s) SAN=1 ;;
	r) REPO=$OPTARG ;;
	f) FUZZDIR=$(cd "$OPTARG" && pwd) || exit 2 ;;
	*) echo "usage: $0 [-n CLEAN] [-H HOGGED] [-s] [-r REPO] [-f FUZZDIR]" >&2; exit 2 ;;
	esac
done
D=${SOAK_DIR:-/tmp/uprof-soak}
mkdir -p "$D"
failed=0 hogs=()
# a hog is a process group of its own (setsid), so stopping it stops its fuzzer too
stop_hogs() {
	local h
	for h in "${hogs[@]}"; do kill -- -"$h" 2>/dev/null || kill "$h" 2>/dev/null; done
	hogs=()
}
trap stop_hogs EXIT

if [ -n "$FUZZDIR" ]; then
	mkdir -p "$D/fuzz"
	: >"$D/fuzz/queue"
	for t in ${SOAK_FUZZ_TARGETS:-$(cd "$FUZZDIR/build/fuzz" && ls fuzz_* | sort)}; do
		[ -f "$D/fuzz/$t.done" ] || echo "$t" >>"$D/fuzz/queue"
	done
fi

# the corpus directory a target reads: fuzz_taskmatch shares tasks_reader's
fuzz_corpus() {
	case $1 in
	fuzz_taskmatch) echo "$FUZZDIR/fuzz/corpus/tasks_reader" ;;
	*) echo "$FUZZDIR/fuzz/corpus/${1#fuzz_}" ;;
	esac
}

# one hog slot: fuzz targets off the queue until it is empty, then `yes`
fuzz_slot() {
	local t len
	while :; do
		t=$(flock "$D/fuzz/queue" sh -c 'head -1 "$1"; sed -i 1d "$1"' _ "$D/fuzz/queue")
		[ -n "$t" ] || exec yes >/dev/null
		case $t in fuzz_samples_reader | fuzz_leafstack | fuzz_callchain) len=65536 ;; *) len=8192 ;; esac
		rm -rf "$D/fuzz/$t.work"
		mkdir -p "$D/fuzz/$t.work"
		(cd "$D/fuzz/$t.work" && UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
			"$FUZZDIR/build/fuzz/$t" -max_total_time="${SOAK_FUZZ_SECONDS:-1800}" \
			-max_len=$len -rss_limit_mb=2048 -timeout=20 -print_final_stats=1 \
			-artifact_prefix="$D/fuzz/$t-" . "$(fuzz_corpus "$t")" >"$D/fuzz/$t.log" 2>&1)
		grep -q '^Done [0-9]* runs in' "$D/fuzz/$t.log" && touch "$D/fuzz/$t.done"
	done
}

start_hogs() {
	local i
	for i in 1 2; do
		if [ -n "$FUZZDIR" ]; then
			setsid bash -c "$(declare -f fuzz_slot fuzz_corpus); D='$D' FUZZDIR='$FUZZDIR' fuzz_slot" &
		else
			setsid yes >/dev/null &
		fi
		hogs+=($!)
	done
}

one() { # label, make arguments...
	local l=$1 c rc s
	shift
	rm -rf "$D/$l"
	git clone -q "$REPO" "$D/$l" || return 1
	c=$(git -C "$D/$l" rev-parse --short HEAD)
	s=$SECONDS
	# shellcheck disable=SC2086
	(cd "$D/$l" && make check "$@" ${SOAK_MAKE_ARGS:-} >"$D/$l.log" 2>&1)
	rc=$?
	printf '%-8s %s exit=%d %4ds load=%s :: %s %s\n' "$l" "$c" "$rc" $((SECONDS - s)) \
		"$(cut -d' ' -f1-3 /proc/loadavg)" \
		"$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$D/$l.log" | tail -1)" \
		"$(grep -E '^== .*(failed|timed out)' "$D/$l.log" | tr '\n' ' ')"
	[ "$rc" -eq 0 ] && rm -rf "$D/$l"
	[ "$rc" -eq 0 ] || failed=$((failed + 1))
}

for i in $(seq 1 "$CLEAN"); do one "clean$i"; done
# the hogs run through all the hogged runs, so a fuzzer is not cut off between two of them
[ "$HOGGED" -gt 0 ] && start_hogs
for i in $(seq 1 "$HOGGED"); do one "hogged$i"; done
stop_hogs
[ "$SAN" = 1 ] && one san SANITIZE=1
echo "soak: $failed of $((CLEAN + HOGGED + SAN)) runs failed (logs in $D)"
[ "$failed" -eq 0 ]
