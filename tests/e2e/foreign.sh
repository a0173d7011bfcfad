#!/usr/bin/env bash
# uprof report of a foreign perf pipe file (issue 11, "Rates"): what `perf record -o -`
# writes, reported as a session of its own. Both events of `-e cpu-clock,page-faults`
# (perf's default -F mode: every sample carries its own period, and page-faults' vary)
# get a column; the hottest function is perf report's; each column's total is perf's
# total period of that event (cpu-clock within 0.5 %; every sample is read, so in fact
# to the ns); nothing is written beside the file but FILE.report.csv; -g stacks are read.
# A perf.data in file mode gets the perf inject hint, other files one line and a
# non-zero exit, a FIFO is refused without hanging. Without a working perf record the
# comparisons are skipped and counted.
. "$(dirname "$0")/lib/common.sh"

echo "# foreign: uprof report of perf pipe files"
SPIN=$TGT/spin_ms
F=$SCRATCH/in/two.pipe
mkdir -p "$SCRATCH/in"
have_perf=true
command -v perf >/dev/null || have_perf=false
$have_perf && perf record -e cpu-clock,page-faults -o - "$SPIN" 400 >"$F" 2>"$SCRATCH/rec.err" ||
	have_perf=false
$have_perf && [ -s "$F" ] || have_perf=false

# What perf says of FILE: event EV's total period ("Event count"), its hottest symbol.
perf_total() {
	perf report -i "$1" --stdio --sort sym 2>/dev/null |
		awk -v ev="'$2'" '/^# Samples:/ { on = index($0, ev) > 0 }
			on && /^# Event count/ { print $NF; exit }'
}
perf_top() {
	perf report -i "$1" --stdio --sort sym 2>/dev/null |
		awk -v ev="'$2'" '/^# Samples:/ { on = index($0, ev) > 0 }
			on && !/^#/ && NF { print $NF; exit }'
}

if ! $have_perf; then
	for t in "two events, two columns" "hottest function is perf's" \
		"cpu-clock total is perf's within 0.5 %" "page-faults total is perf's" \
		"page-faults periods vary (the per-sample path)" "samples counted" \
		"only FILE.report.csv is written beside FILE" "file-mode perf.data: the inject hint" \
		"a file cut mid-stream is reported with its damage" "-g stacks of a perf file" \
		"perf record -z: compressed records are said"; do
		ok "$t # SKIP perf record does not work here: $(head -c 200 "$SCRATCH/rec.err" 2>/dev/null)"
	done
else
	ls -A "$SCRATCH/in" >"$SCRATCH/before"
	"$UPROF" report "$F" >"$SCRATCH/out" 2>"$SCRATCH/err"
	rc=$?
	CSV=$F.report.csv
	check "uprof report FILE exits 0 (exit $rc) and writes FILE.report.csv" [ $rc -eq 0 -a -f "$CSV" ]
	[ -f "$CSV" ] || : >"$CSV"
	sed 's/^/#   /' "$SCRATCH/err"
	hdr=$(grep -A1 'HOTTEST FUNCTIONS' "$CSV" | tail -1)
	check_sh "two events, two columns ($hdr)" \
		'[[ $hdr == *"\"CPU_TIME (cpu-clock)\""* && $hdr == *"\"page-faults\""* ]]'
	top_u=$(csvq "$CSV" "HOTTEST FUNCTIONS" | head -1 | cut -f1)
	top_p=$(perf_top "$F" cpu-clock)
	check "hottest function is perf's (uprof $top_u, perf $top_p)" [ -n "$top_u" -a "$top_u" = "$top_p" ]
	# column totals over the processes table (every sample is some process's)
	cpu_s=$(csvq "$CSV" "HOTTEST PROCESSES" | awk -F'\t' '{ s += $2 } END { printf "%.4f", s }')
	pf_u=$(csvq "$CSV" "HOTTEST PROCESSES" | awk -F'\t' '{ s += $3 } END { printf "%.0f", s }')
	cpu_p=$(perf_total "$F" cpu-clock)
	pf_p=$(perf_total "$F" page-faults)
	echo "# cpu-clock: uprof $cpu_s s, perf $cpu_p ns; page-faults: uprof $pf_u, perf $pf_p"
	check "cpu-clock total is perf's within 0.5 % (uprof $cpu_s s, perf $cpu_p ns)" \
		"$PYTHON" -c "import sys; u, p = $cpu_s * 1e9, float('${cpu_p:-0}'); sys.exit(0 if p > 0 and abs(u - p) <= 0.005 * p else 1)"
	check "page-faults total is perf's (uprof $pf_u, perf $pf_p)" [ -n "$pf_p" -a "$pf_u" = "$pf_p" ]
	# the fact that makes the comparison mean something: page-faults samples of perf's -F
	# mode do not all weigh 1, so counting samples instead of periods gives another total
	npf=$(perf script -i "$F" -F event 2>/dev/null | grep -c 'page-faults')
	check "page-faults periods vary (the per-sample path): $npf samples, $pf_p faults" \
		[ -n "$pf_p" -a "$npf" -gt 0 -a "$npf" != "$pf_p" ]
	n_u=$(csvq "$CSV" --key Samples)
	n_p=$(perf script -i "$F" -F event 2>/dev/null | grep -c .)
	check "samples counted: uprof $n_u, perf script $n_p" [ "$n_u" = "$n_p" ]
	ls -A "$SCRATCH/in" >"$SCRATCH/after"
	check_sh "only FILE.report.csv is written beside FILE ($(tr '\n' ' ' <"$SCRATCH/after"))" \
		'[ "$(comm -13 "$SCRATCH/before" "$SCRATCH/after")" = "two.pipe.report.csv" ]'
	check_sh "the table goes to stdout (its top row: $top_u)" \
		'grep -q "$top_u" "$SCRATCH/out"'
	# --report-output elsewhere: nothing beside FILE at all
	rm -f "$CSV"
	"$UPROF" report -i "$F" --report-output "$SCRATCH/o.csv" >/dev/null 2>&1
	check_sh "--report-output: the CSV there, nothing beside FILE" \
		'[ -s "$SCRATCH/o.csv" ] && [ "$(ls -A "$SCRATCH/in")" = two.pipe ]'

	# a perf.data in file mode: the hint, one line
	perf record -e cpu-clock -o "$SCRATCH/file.data" "$SPIN" 50 >/dev/null 2>&1
	expect_fail any "file-mode perf.data: the inject hint" \
		'file\.data is a perf\.data in file mode; convert it with `perf inject -i .*file\.data -o - > .*file\.data\.pipe`' \
		"$UPROF" report -i "$SCRATCH/file.data"
	# perf inject -o - of it is a pipe file again, and reported
	if perf inject -i "$SCRATCH/file.data" -o - >"$SCRATCH/inj.pipe" 2>/dev/null; then
		"$UPROF" report "$SCRATCH/inj.pipe" >/dev/null 2>&1
		rc=$?
		check "perf inject -o - of it is reported (exit $rc)" [ $rc -eq 0 -a -s "$SCRATCH/inj.pipe.report.csv" ]
	else
		ok "perf inject -o - of it is reported # SKIP perf inject failed"
	fi

	# cut mid-stream (a killed perf): what comes before is reported, the damage said
	size=$(stat -c %s "$F")
	head -c $((size / 2 + 3)) "$F" >"$SCRATCH/half.pipe"
	"$UPROF" report "$SCRATCH/half.pipe" >/dev/null 2>"$SCRATCH/half.err"
	rc=$?
	check_sh "a file cut mid-stream is reported with its damage (exit $rc)" \
		'[ $rc -eq 0 ] && grep -q "warning: the perf file is damaged from offset" "$SCRATCH/half.err"'

	# perf record -z: zstd frames uprof does not unpack, said in one line
	if perf record -z -e cpu-clock -o - "$SPIN" 50 >"$SCRATCH/z.pipe" 2>/dev/null; then
		expect_fail any "perf record -z: compressed records are said, not reported as 0 samples" \
			'z\.pipe: offset [0-9]+: zstd-compressed records \(perf record -z\), which uprof does not unpack; record without -z' \
			"$UPROF" report "$SCRATCH/z.pipe"
	else
		ok "perf record -z: compressed records are said # SKIP perf record -z failed"
	fi

	# -g: perf's frame-pointer callchains
	G=$SCRATCH/g.pipe
	if perf record -g -e cpu-clock -o - "$TGT/callgraph_fp" >"$G" 2>/dev/null; then
		"$UPROF" report -g "$G" >/dev/null 2>"$SCRATCH/g.err"
		rc=$?
		check_sh "-g stacks of a perf file: exit $rc, a call graph, stacks read" \
			'[ $rc -eq 0 ] && grep -q "^CALLGRAPH" "$G.report.csv" && grep -q "Call stacks: [1-9]" "$SCRATCH/g.err"'
	else
		ok "-g stacks of a perf file # SKIP perf record -g failed"
	fi
fi

# what is not a perf pipe file: one line, non-zero, never a hang
head -c 4096 /dev/zero >"$SCRATCH/zeros"
expect_fail any "a file of zeros: not a perf pipe file" \
	'zeros: not a perf pipe file or uprof session' "$UPROF" report "$SCRATCH/zeros"
expect_fail any "/dev/zero is refused unread" \
	'/dev/zero is a character device, not a regular file' "$UPROF" report -i /dev/zero
mkfifo "$SCRATCH/fifo"
expect_fail any "a FIFO is refused, not read (no writer: a read would hang)" \
	'fifo is a FIFO, not a regular file' timeout 60 "$UPROF" report "$SCRATCH/fifo"
# a pipe header cut inside its first event description
printf 'PERFILE2\020\000\000\000\000\000\000\000\100\000\000\000\000\000\230\000' >"$SCRATCH/cut.pipe"
expect_fail any "a pipe file cut in its first attr: nothing to report" \
	'cut\.pipe: a perf pipe file with nothing to report: offset 16: record runs past the end' \
	"$UPROF" report "$SCRATCH/cut.pipe"
: >"$SCRATCH/empty"
expect_fail any "an empty file" 'empty: not a perf pipe file or uprof session' \
	"$UPROF" report "$SCRATCH/empty"
expect_fail any "a missing path" "nothere': No such file or directory" \
	"$UPROF" report "$SCRATCH/nothere"
if $have_perf; then
	expect_fail 2 "--tool takes a session, not a perf file" '--tool takes a uprof session' \
		"$UPROF" report --tool "$BUILD/targets/libplugin.so" "$F"
fi
echo "1..$_n"
