#!/usr/bin/env bash
# bench/run.sh [quick] -- side-by-side timing of uprof against perf 6.x.
#
# Every measurement runs both tools (and the bare command where it makes
# sense) in the SAME run, interleaved round by round with a rotating order,
# and reports median and min wall time plus the uprof/perf ratio. Nothing here
# passes or fails: goals are printed next to the numbers ("met"/"MISSED"),
# the exit status is 0 unless a command itself fails.
#
#   a. whole-command wall time on a ~1.5 s single-thread workload
#   b. fixed start+stop cost of a collection (/bin/true)
#   c. report time on ONE samples.data with >= 100k samples
#   d. lost samples / achieved rate when sampling every 0.1 ms on both CPUs
#
# Environment: UPROF (default build/bin/uprof), PERF (default perf),
# RUNS_A / RUNS_B / RUNS_C to override the number of rounds.
# Needs root (or perf_event_paranoid <= 1) for both tools. See bench/README.md.
set -euo pipefail
export LC_ALL=C

MODE=${1:-full}
case $MODE in
full | quick) ;;
*) echo "usage: $0 [quick]" >&2; exit 2 ;;
esac

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
UPROF=${UPROF:-$ROOT/build/bin/uprof}
PERF=${PERF:-perf}
BDIR=$ROOT/build/bench
SPIN=$BDIR/spin

if [[ $MODE == quick ]]; then
	RUNS_A=${RUNS_A:-3} RUNS_B=${RUNS_B:-6} RUNS_C=${RUNS_C:-3}
	TARGET_A_S=0.3   # single-thread workload length for (a) and (d)
	TARGET_C_S=1.0   # per-thread workload length for (c)
	MIN_C_SAMPLES=0
else
	RUNS_A=${RUNS_A:-12} RUNS_B=${RUNS_B:-30} RUNS_C=${RUNS_C:-10}
	TARGET_A_S=1.5
	TARGET_C_S=6.0
	MIN_C_SAMPLES=100000
fi

die() { echo "bench: $*" >&2; exit 1; }
log() { echo "bench: $*" >&2; }

# ---------------------------------------------------------------- setup
command -v "$PERF" >/dev/null || die "perf not found (set PERF=)"
# Another engineer may be relinking uprof right now: wait a little for it.
for _ in $(seq 1 30); do [[ -x $UPROF ]] && "$UPROF" --version >/dev/null 2>&1 && break; sleep 2; done
"$UPROF" --version >/dev/null 2>&1 || die "$UPROF is missing or broken (run make)"

mkdir -p "$BDIR"
gcc -O2 -g -pthread -Wall -Wextra -o "$SPIN" "$ROOT/bench/workloads/spin.c"

TMP=$(mktemp -d /tmp/uprof-bench.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

# Snapshot uprof (and the configs it finds relative to its own path) so a
# concurrent rebuild of build/bin/uprof cannot break or change a run midway.
if [[ -z ${UPROF_NO_SNAPSHOT:-} && -d $(dirname "$UPROF")/../share/uprof ]]; then
	UPROF_BUILT=$(stat -c %y "$UPROF" | cut -d. -f1)
	mkdir -p "$TMP/snap/bin" "$TMP/snap/share"
	cp "$UPROF" "$TMP/snap/bin/uprof"
	cp -r "$(dirname "$UPROF")/../share/uprof" "$TMP/snap/share/"
	UPROF=$TMP/snap/bin/uprof
	"$UPROF" --version >/dev/null 2>&1 || die "snapshot of uprof does not run"
fi

if pgrep -f 'fuzz_' >/dev/null 2>&1; then
	log "WARNING: fuzzers are running (pgrep -f fuzz_); numbers will be noisy"
fi

# ---------------------------------------------------------------- helpers
# timeit VAR cmd...: run cmd (stdout to /dev/null, stderr kept in $TMP/err),
# store the wall time in microseconds in VAR. bash's EPOCHREALTIME costs no fork.
timeit() {
	local __var=$1 t0 t1 rc=0
	shift
	t0=${EPOCHREALTIME/./}
	"$@" >/dev/null 2>"$TMP/err" </dev/null || rc=$?
	t1=${EPOCHREALTIME/./}
	if ((rc != 0)); then
		cat "$TMP/err" >&2
		die "command failed (exit $rc): $*"
	fi
	printf -v "$__var" '%d' $((t1 - t0))
}

# medmin "us us us ...": prints "median min" in seconds.
medmin() {
	tr ' ' '\n' <<<"$1" | grep . | sort -n | awk '
		{ v[NR] = $1 }
		END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		      printf "%.6f %.6f\n", m / 1e6, v[1] / 1e6 }'
}

fdiv() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b > 0) ? a / b : 0 }'; }
fle() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'; }
goal() { if fle "$1" "$2"; then echo "met"; else echo "MISSED"; fi; }

declare -A RES=() NOISY=()
# rounds NAME RUNS LABEL...: for each round run prep_NAME_LABEL (untimed) then
# time run_NAME_LABEL, rotating the label order each round. One warm-up round
# first, not recorded.
rounds() {
	local name=$1 runs=$2 r k l us n
	shift 2
	local labels=("$@")
	n=${#labels[@]}
	for ((r = -1; r < runs; r++)); do
		for ((k = 0; k < n; k++)); do
			l=${labels[$(((r + 1 + k) % n))]}
			"prep_${name}_$l"
			timeit us "run_${name}_$l"
			((r < 0)) || RES[$name.$l]+=" $us"
		done
		# Note (outside the timed part) whether fuzzers ran during this benchmark.
		pgrep -f 'fuzz_' >/dev/null 2>&1 && NOISY[$name]=1
	done
	return 0
}

ini_get() { sed -n "s/^$2 = //p" "$1" | head -n1; }               # file key
csv_get() { sed -n "s/^$2:,\"\\{0,1\\}\\([^\"]*\\)\"\\{0,1\\}$/\\1/p" "$1" | head -n1; } # file label
session_of() { ls -d "$1"/uprof-* 2>/dev/null | head -n1; }
perf_samples() { "$PERF" report --stdio -q -n --sort dso -i "$1" 2>/dev/null | awk '$1 ~ /%$/ { s += $2 } END { print s + 0 }'; }
perf_lost() { "$PERF" report --stdio --sort dso -i "$1" 2>/dev/null | sed -n 's/^# Total Lost Samples: //p' | head -n1; }

# ---------------------------------------------------------------- calibration
# Work is in million iterations of the burnN loop; scale it to the target time.
best=""
for _ in 1 2 3; do
	timeit us "$SPIN" 1 20
	[[ -z $best || $us -lt $best ]] && best=$us
done
W_A=$(awk -v t="$TARGET_A_S" -v us="$best" 'BEGIN { printf "%d", 20 * t * 1e6 / us + 0.5 }')
W_C=$(awk -v t="$TARGET_C_S" -v us="$best" 'BEGIN { printf "%d", 20 * t * 1e6 / us + 0.5 }')
log "calibrated: spin 1 20 = $(fdiv "$best" 1000000) s -> W_A=$W_A (~${TARGET_A_S} s), W_C=$W_C (~${TARGET_C_S} s/thread)"

# ---------------------------------------------------------------- a. wall time
prep_a_bare() { :; }
run_a_bare() { "$SPIN" 1 "$W_A"; }
prep_a_uprof() { rm -rf "$TMP/a-uprof"; }
run_a_uprof() { "$UPROF" collect --timer-interval 1 -o "$TMP/a-uprof" "$SPIN" 1 "$W_A"; }
prep_a_perf() { rm -f "$TMP/a-perf.data"; }
run_a_perf() { "$PERF" record --no-bpf-event -e cpu-clock -F 1000 -o "$TMP/a-perf.data" "$SPIN" 1 "$W_A"; }
log "a. wall time: spin 1 $W_A, $RUNS_A rounds of bare/uprof/perf"
rounds a "$RUNS_A" bare uprof perf
A_UPROF_SAMPLES=$(ini_get "$(session_of "$TMP/a-uprof")/session.ini" samples)
A_PERF_SAMPLES=$(perf_samples "$TMP/a-perf.data")

# ---------------------------------------------------------------- b. /bin/true
TRUE_BIN=/bin/true
prep_b_bare() { :; }
run_b_bare() { "$TRUE_BIN"; }
prep_b_uprof() { rm -rf "$TMP/b-uprof"; }
run_b_uprof() { "$UPROF" collect -o "$TMP/b-uprof" "$TRUE_BIN"; }
prep_b_perf() { rm -f "$TMP/b-perf.data"; }
run_b_perf() { "$PERF" record --no-bpf-event -e cpu-clock -F 1000 -o "$TMP/b-perf.data" "$TRUE_BIN"; }
log "b. start+stop: $TRUE_BIN, $RUNS_B rounds of bare/uprof/perf"
rounds b "$RUNS_B" bare uprof perf

# ---------------------------------------------------------------- c. report
collect_c() {
	rm -rf "$TMP/c"
	"$UPROF" collect --timer-interval 0.1 -m 512 -o "$TMP/c" "$SPIN" 2 "$W_C" >/dev/null 2>"$TMP/err" ||
		{ cat "$TMP/err" >&2; die "collect for (c) failed"; }
	C_SESSION=$(session_of "$TMP/c")
	C_SAMPLES=$(ini_get "$C_SESSION/session.ini" samples)
}
log "c. collecting: uprof collect --timer-interval 0.1 -m 512 spin 2 $W_C"
collect_c
for _ in 1 2; do
	((C_SAMPLES >= MIN_C_SAMPLES)) && break
	W_C=$(awk -v w="$W_C" -v s="$C_SAMPLES" -v m="$MIN_C_SAMPLES" 'BEGIN { printf "%d", w * m * 1.15 / (s > 0 ? s : 1) + 1 }')
	log "c. only $C_SAMPLES samples; recollecting with spin 2 $W_C"
	collect_c
done
C_DATA=$C_SESSION/samples.data
prep_c_uprof() { :; }
run_c_uprof() { "$UPROF" report -i "$C_SESSION"; }
prep_c_perf() { :; }
run_c_perf() { "$PERF" report --stdio -i "$C_DATA"; }
log "c. report: $C_SAMPLES samples ($(du -h "$C_DATA" | cut -f1)), $RUNS_C rounds of uprof/perf"
rounds c "$RUNS_C" uprof perf

# Top functions by both tools from the same file.
# (uprof report prints its table on stdout, its status lines on stderr.)
"$UPROF" report -i "$C_SESSION" 2>/dev/null |
	awk '/%  FUNCTION/ { on = 1; next } on && NF >= 3 && $2 ~ /%$/ { print $3, $2 }' | head -n5 >"$TMP/top.uprof"
"$PERF" report --stdio -q --sort symbol -i "$C_DATA" 2>/dev/null |
	awk '$1 ~ /%$/ { print $3, $1 }' | head -n5 >"$TMP/top.perf"
C_PERF_SAMPLES=$(perf_samples "$C_DATA")
TOP_U=$(head -n2 "$TMP/top.uprof" | cut -d' ' -f1 | sort | tr '\n' ' ')
TOP_P=$(head -n2 "$TMP/top.perf" | cut -d' ' -f1 | sort | tr '\n' ' ')
TOP_DIFF=$(join <(sort "$TMP/top.uprof") <(sort "$TMP/top.perf") |
	awk '{ d = $2 - $3; if (d < 0) d = -d; if (d > m) m = d } END { printf "%.2f", m + 0 }')
[[ $TOP_U == "$TOP_P" ]] && TOP_AGREE="agree (max |diff| ${TOP_DIFF} pct-points)" || TOP_AGREE="DIFFER"

# ---------------------------------------------------------------- d. 0.1 ms
# (c)'s session used -m 512; also one run at the default ring size, and perf
# at the same period for comparison.
log "d. sampling every 0.1 ms, spin 2 $W_A: uprof default -m, and perf -c 100000"
"$UPROF" collect --timer-interval 0.1 -o "$TMP/d" "$SPIN" 2 "$W_A" >/dev/null 2>"$TMP/err" ||
	{ cat "$TMP/err" >&2; die "collect for (d) failed"; }
D_SESSION=$(session_of "$TMP/d")
"$UPROF" report -i "$D_SESSION" >/dev/null 2>&1
"$PERF" record --no-bpf-event -e cpu-clock -c 100000 -o "$TMP/d-perf.data" "$SPIN" 2 "$W_A" >/dev/null 2>&1

# ---------------------------------------------------------------- results
read -r Ab_m Ab_n <<<"$(medmin "${RES[a.bare]}")"
read -r Au_m Au_n <<<"$(medmin "${RES[a.uprof]}")"
read -r Ap_m Ap_n <<<"$(medmin "${RES[a.perf]}")"
read -r Bb_m Bb_n <<<"$(medmin "${RES[b.bare]}")"
read -r Bu_m Bu_n <<<"$(medmin "${RES[b.uprof]}")"
read -r Bp_m Bp_n <<<"$(medmin "${RES[b.perf]}")"
read -r Cu_m Cu_n <<<"$(medmin "${RES[c.uprof]}")"
read -r Cp_m Cp_n <<<"$(medmin "${RES[c.perf]}")"
over() { awk -v t="$1" -v b="$2" 'BEGIN { printf "%+.3f s (%+.0f%%)", t - b, (t - b) * 100 / b }'; }
RA=$(fdiv "$Au_m" "$Ap_m") RB=$(fdiv "$Bu_m" "$Bp_m") RC=$(fdiv "$Cu_m" "$Cp_m")
D_LOST=$(($(ini_get "$C_SESSION/session.ini" lost_samples) + $(ini_get "$D_SESSION/session.ini" lost_samples)))

echo
echo "uprof vs perf: $(date '+%Y-%m-%d %H:%M'), mode=$MODE, $(nproc) CPUs, kernel $(uname -r), $("$PERF" --version), uprof $("$UPROF" --version 2>&1 | head -n1 | sed 's/^uprof //')"
echo "uprof binary: ${UPROF_BUILT:-$(stat -c %y "$UPROF" | cut -d. -f1)} build ($(ldd "$UPROF" | grep -c '=>') shared libs); loadavg at end: $(cut -d' ' -f1-3 /proc/loadavg)$(pgrep -f 'fuzz_' >/dev/null 2>&1 && echo '  (fuzzers were running: numbers are noisy)' || true)"
echo
echo "| benchmark | runs | bare med / min (s) | uprof med / min (s) | perf med / min (s) | uprof/perf med (min) | goal |"
echo "|---|---:|---:|---:|---:|---:|---|"
printf '| a. collect `spin 1 %s` (~%s s) | %s | %.3f / %.3f | %.3f / %.3f | %.3f / %.3f | %s (%s) | uprof <= perf: %s |\n' \
	"$W_A" "$TARGET_A_S" "$RUNS_A" "$Ab_m" "$Ab_n" "$Au_m" "$Au_n" "$Ap_m" "$Ap_n" \
	"$RA" "$(fdiv "$Au_n" "$Ap_n")" "$(goal "$RA" 1)"
printf '| b. collect `/bin/true` | %s | %.4f / %.4f | %.4f / %.4f | %.4f / %.4f | %s (%s) | uprof <= 0.03 s: %s |\n' \
	"$RUNS_B" "$Bb_m" "$Bb_n" "$Bu_m" "$Bu_n" "$Bp_m" "$Bp_n" \
	"$RB" "$(fdiv "$Bu_n" "$Bp_n")" "$(goal "$Bu_m" 0.03)"
printf '| c. report, %s samples | %s | - | %.3f / %.3f | %.3f / %.3f | %s (%s) | uprof <= 0.5x perf: %s |\n' \
	"$C_SAMPLES" "$RUNS_C" "$Cu_m" "$Cu_n" "$Cp_m" "$Cp_n" \
	"$RC" "$(fdiv "$Cu_n" "$Cp_n")" "$(goal "$RC" 0.5)"
echo
echo "a. overhead over bare (median): uprof $(over "$Au_m" "$Ab_m"), perf $(over "$Ap_m" "$Ab_m"); samples in last run: uprof $A_UPROF_SAMPLES, perf $A_PERF_SAMPLES"
echo "b. overhead over bare (median): uprof $(over "$Bu_m" "$Bb_m"), perf $(over "$Bp_m" "$Bb_m")"
echo "c. one file, $(du -h "$C_DATA" | cut -f1): uprof counts $C_SAMPLES samples, perf report $C_PERF_SAMPLES; top-2 functions $TOP_AGREE"
paste -d' ' <(awk '{ printf "     uprof %-28s %7s\n", $1, $2 }' "$TMP/top.uprof") \
	<(awk '{ printf "| perf %-28s %7s\n", $1, $2 }' "$TMP/top.perf") || true
echo
echo "| d. every 0.1 ms, 2 threads on 2 CPUs | samples | lost (session.ini / report.csv) | requested | achieved |"
echo "|---|---:|---:|---:|---:|"
d_row() { # label session
	local s=$2 csv=$2/report.csv
	printf '| %s | %s | %s / %s | %s | %s |\n' "$1" \
		"$(ini_get "$s/session.ini" samples)" \
		"$(ini_get "$s/session.ini" lost_samples)" "$(csv_get "$csv" 'Lost Samples')" \
		"$(csv_get "$csv" 'Requested Sampling Rate' | sed 's/ per busy CPU//')" \
		"$(csv_get "$csv" 'Achieved Sampling Rate' | sed 's/ (samples per second of target CPU time)//')"
}
d_row "uprof \`-m 512\`, \`spin 2 $W_C\` (= c)" "$C_SESSION"
d_row "uprof default \`-m\`, \`spin 2 $W_A\`" "$D_SESSION"
printf '| perf `-c 100000`, `spin 2 %s` | %s | %s | 10000 Hz | - |\n' "$W_A" \
	"$(perf_samples "$TMP/d-perf.data")" "$(perf_lost "$TMP/d-perf.data")"
echo
echo "d. uprof lost samples == 0: $(goal "$D_LOST" 0)"
((${#NOISY[@]} == 0)) || echo "WARNING: fuzzers (pgrep -f fuzz_) ran during benchmark(s): ${!NOISY[*]}"
