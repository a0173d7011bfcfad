#!/usr/bin/env bash
# The wall-clock view of a --trace os session (report --export wallfolded,wallflame): one
# profile of on-CPU samples (as time) and off-CPU time by the stack that blocked, each
# off-CPU stack ending in a "[off-cpu: KIND]" frame. On the known-answer program
# (tests/targets/ostrace_waits.c: 0.3 s in nanosleep, ~0.2 s on a mutex, ~0.1 s in a pipe
# read, a ~0.12 s spin): per function, the folded file's on-CPU time is report.csv's
# TOTAL CPU_TIME exactly, its off-CPU time is OFF-CPU FUNCTIONS' to the microsecond
# report.csv prints, and within 20 % of what the program measured itself; the flame graph
# draws the folded file's numbers.
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/ostrace.sh"

T=$TGT/ostrace_waits
os_collect "$T"
os_report --export wallfolded,wallflame
W=$S/stacks-wall.folded
G=$S/flamegraph-wall.svg
check "the terminal names both files" \
	grep -q "wall-clock folded stacks file: $W" "$SCRATCH/report.err"
check "and the flame graph" grep -q "wall-clock flame graph file: $G" "$SCRATCH/report.err"

rows() { csvq "$S/report.csv" "$1"; }
# wall FUNCTION on|KIND: seconds of the folded lines with FUNCTION as a frame (once a line),
# on the CPU (no off-CPU frame) or off it waiting for KIND
wall() {
	awk -v fn="$1" -v want="$2" '{
		n = $NF; $NF = ""; sub(/ $/, ""); k = split($0, fr, ";")
		leaf = fr[k]; off = leaf ~ /^\[off-cpu: /
		if (want == "on" ? off : leaf != "[off-cpu: " want "]") next
		for (i = 2; i <= k; i++) if (fr[i] == fn) { s += n; break }
	} END { printf "%.9f\n", s / 1e9 }' "$W"
}

check_sh "every line is 'comm;frames... NANOSECONDS'" \
	'[ -s "$W" ] && ! grep -qvE "^[^;]+(;[^;]+)* [0-9]+$" "$W"'
check_sh "off-CPU lines end in an [off-cpu: KIND] frame of the four kinds" \
	'! grep "\[off-cpu" "$W" | grep -qvE ";\[off-cpu: (sleep|I/O|lock|other)\] [0-9]+$"'

# on the CPU: the folded file's samples as time are report.csv's
total=$(sed -n 's/^Total CPU_TIME,"\([0-9.]*\) seconds"$/\1/p' "$S/report.csv")
on=$(awk '$0 !~ /\[off-cpu: / { s += $NF } END { printf "%.9f\n", s / 1e9 }' "$W")
check "on-CPU time in the folded file = report.csv's Total CPU_TIME ($on vs $total s)" \
	near "$on" "$total" 1e-9
for fn in main spin_a_while; do
	got=$(wall "$fn" on)
	want=$(rows "BY TOTAL TIME" | awk -F'\t' -v f="$fn" '$1 == f { print $2 }')
	check "$fn's on-CPU time = its TOTAL CPU_TIME in report.csv ($got vs $want s)" \
		near "$got" "${want:-x}" 1e-9
done

# off the CPU: each known wait, as report.csv charged it and as the program timed it
for w in "sleep_in_nanosleep sleep sleep_ns" "wait_for_mutex lock mutex_ns" \
	"read_from_pipe I/O read_ns"; do
	read -r fn kind key <<<"$w"
	got=$(wall "$fn" "$kind")
	want=$(rows "OFF-CPU FUNCTIONS" | awk -F'\t' -v f="$fn" -v k="$kind" '$1 == f && $2 == k { print $4 }')
	own=$(os_fact "$key")
	echo "# $fn ($kind): folded $got s, report.csv $want s, program measured $own ns"
	check "$fn's $kind time in the folded file = OFF-CPU FUNCTIONS' ($got vs $want s)" \
		near "$got" "${want:-x}" 1e-6
	check_sh "and within 20 % of the program's own $key ($got s vs $own ns)" \
		'awk -v g="$got" -v o="$own" "BEGIN { o /= 1e9; d = g - o; if (d < 0) d = -d; exit !(o > 0 && d <= o * 0.2) }"'
	other=$(grep -v "\[off-cpu: $kind\]" "$W" | grep "\[off-cpu" | grep -c ";$fn;")
	check "$fn waited for nothing else ($other lines of another kind)" [ "$other" = 0 ]
done
# one profile: sleep_in_nanosleep's wall time is its on- plus its off-CPU time, and covers
# the 0.3 s the program slept in it
on_s=$(wall sleep_in_nanosleep on)
off_s=$(wall sleep_in_nanosleep sleep)
all=$(awk '{ if (index($0, ";sleep_in_nanosleep;")) s += $NF } END { printf "%.9f\n", s / 1e9 }' "$W")
check "sleep_in_nanosleep's wall time = on ($on_s) + off ($off_s) = $all s" \
	near "$all" "$(awk -v a="$on_s" -v b="$off_s" 'BEGIN { printf "%.9f", a + b }')" 1e-9

# the flame graph draws the folded file: its root is the sum of every line, each
# off-CPU kind's frames the kind's lines
sum=$(awk '{ s += $NF } END { print s }' "$W")
check "flamegraph-wall.svg's total is the folded file's ($sum ns)" \
	grep -q "data-total=\"$sum\"" "$G"
lock=$(awk '/\[off-cpu: lock\] [0-9]+$/ { s += $NF } END { print s }' "$W")
svg=$(sed -n 's/.*data-w="\([0-9]*\)".*<title>\[off-cpu: lock\] .*/\1/p' "$G" | awk '{ s += $1 } END { print s }')
check "its [off-cpu: lock] frames add up to the folded lock lines ($svg vs $lock ns)" [ "$svg" = "$lock" ]
check "its title says wall clock, on and off CPU" grep -q " - wall clock, [0-9.]* s on and off CPU<" "$G"
"$T" "$SCRATCH/bare.facts" >"$SCRATCH/bare.out" 2>/dev/null
check "the program's stdout is byte-identical to a bare run's" cmp -s "$SCRATCH/bare.out" "$SCRATCH/os.out"

# without --trace os: on-CPU time alone, and the flame graph's title says why
"$UPROF" collect -o "$SCRATCH/plain" "$T" "$SCRATCH/plain.facts" >/dev/null 2>&1
P=$(session_in "$SCRATCH/plain")
"$UPROF" report -i "$P" --export wallfolded,wallflame >/dev/null 2>&1
check "a session without --trace os exports too" [ $? -eq 0 ]
check_sh "with no off-CPU line" '[ -s "$P/stacks-wall.folded" ] && ! grep -q "off-cpu" "$P/stacks-wall.folded"'
check "and its flame graph says so" grep -q "no off-CPU time: collected without --trace os" \
	"$P/flamegraph-wall.svg"
