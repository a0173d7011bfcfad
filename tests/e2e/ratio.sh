#!/usr/bin/env bash
# Must-show 1: a target doing 1:3 work in two functions. CPU_TIME shares must be within 3
# points of perf report on the same samples.data and within 5 points of 25/75.
. "$(dirname "$0")/lib/common.sh"

"$UPROF" collect --config tbp -o "$SCRATCH/out" "$TGT/demo" 2000 >/dev/null 2>&1
check "collect of the 1:3 demo exits 0" [ $? -eq 0 ]
S=$(session_in "$SCRATCH/out")
"$UPROF" report -i "$S" >/dev/null 2>&1
check "report exits 0" [ $? -eq 0 ]

share() { # function -> percent of all samples in report.csv
	csvq "$S/report.csv" "HOTTEST FUNCTIONS" | awk -F'\t' -v f="$1" \
		'{t+=$2} $1==f{v=$2} END{printf "%.3f", t ? 100*v/t : -1}'
}
perf_share() { # function -> perf report's overhead percent
	perf report -i "$S/samples.data" --stdio --sort sym 2>/dev/null |
		awk -v f="$1" '$NF==f{gsub("%","",$1); print $1; exit}'
}
light=$(share light_work); heavy=$(share heavy_work)
echo "# uprof: light_work ${light}% heavy_work ${heavy}%"
check "light_work within 5 points of 25% ($light)" near "$light" 25 5
check "heavy_work within 5 points of 75% ($heavy)" near "$heavy" 75 5
if command -v perf >/dev/null; then
	pl=$(perf_share light_work); ph=$(perf_share heavy_work)
	echo "# perf:  light_work ${pl}% heavy_work ${ph}%"
	check "light_work within 3 points of perf report ($pl)" near "$light" "${pl:-999}" 3
	check "heavy_work within 3 points of perf report ($ph)" near "$heavy" "${ph:-999}" 3
	raw=$(perf report -i "$S/samples.data" --stdio 2>/dev/null | grep -c '\[k\] 0xffff')
	check "perf report names kernel functions (kernel map record present; $raw raw)" [ "$raw" -eq 0 ]
	n=$(perf script -i "$S/samples.data" 2>/dev/null | grep -c .)
	samples=$(csvq "$S/report.csv" --key Samples)
	check "perf script reads every sample ($n of $samples)" [ "$n" -eq "$samples" ]
else
	not_ok "perf is not installed (scripts/install-deps.sh installs linux-perf)"
fi
rate_checks "$S" 1 "demo at 1 ms"
