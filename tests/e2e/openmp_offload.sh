#!/usr/bin/env bash
# Issue 13, must show 4: OpenMP target offload. A program built by clang-19 for the x86_64
# host device (tests/targets/omp_offload.c: N target regions, each mapping 1000 doubles to
# the device, 1000 back and 250 both ways) under collect --trace openmp: the report's
# target region count and bytes to and from the device are exact, and equal to what
# libomptarget itself prints for the same run (LIBOMPTARGET_INFO=-1, parsed here); every
# device says "no device tracing: <why>" (LLVM 19's lookup gives none of the tracing
# entry points). Skipped, counted, where clang-19 or LLVM 19's runtime is missing.
. "$(dirname "$0")/lib/common.sh"

skipped=0
skip() { skipped=$((skipped + 1)); ok "# SKIP $*"; }
# like STRING GLOB
like() { case "$1" in $2) return 0 ;; esac; return 1; }
SRC=tests/targets/omp_offload.c
N=5

if ! command -v clang-19 >/dev/null; then
	skip "clang-19 is not installed: no offload program (must show 4)"
elif [ ! -x "$TGT/omp_offload" ]; then
	skip "omp_offload not built: LLVM 19's OpenMP runtime could not be unpacked (scripts/llvm19-omp.sh)"
else
	LIBOMPTARGET_INFO=-1 "$UPROF" collect --trace openmp -o "$SCRATCH/t" "$TGT/omp_offload" $N \
		>"$SCRATCH/out" 2>"$SCRATCH/err"
	check "collect exits 0" [ $? -eq 0 ]
	S=$(session_in "$SCRATCH/t")
	"$UPROF" report -i "$S" >/dev/null 2>"$SCRATCH/rerr"
	R=$S/report.csv
	check "report written" [ -s "$R" ]
	# libomptarget's own account of the same run
	read -r ik ito nto ifrom nfrom <<<"$("$PYTHON" - "$SCRATCH/err" <<'PY'
import re, sys
k = to = nto = fr = nfr = 0
for l in open(sys.argv[1], errors="replace"):
    if "info: Entering OpenMP kernel at" in l:
        k += 1
    m = re.search(r"Copying data from (host to device|device to host).*Size=(\d+)", l)
    if m and m.group(1) == "host to device":
        to += int(m.group(2)); nto += 1
    elif m:
        fr += int(m.group(2)); nfr += 1
print(k, to, nto, fr, nfr)
PY
)"
	echo "# LIBOMPTARGET_INFO: $ik kernels, $nto copies to the device ($ito B), $nfrom back ($ifrom B)"
	check "libomptarget ran the $N regions (LIBOMPTARGET_INFO says $ik)" [ "$ik" = $N ]
	line=$(grep -n '^#pragma omp target' "$SRC" | head -1 | cut -d: -f1)
	T="main\$omp\$target:1@omp_offload.c:$line"
	row=$(csvq "$R" "OpenMP TARGET REGIONS" | grep -F "$T")
	echo "# target row: $row"
	col() { echo "$row" | cut -f"$1"; }
	check "the target region is named with its pragma's line ($T)" [ -n "$row" ]
	check "its kind is target, on device 0" [ "$(col 2)" = target -a "$(col 3)" = 0 ]
	check "target region count exact: $N, as LIBOMPTARGET_INFO ($(col 4))" \
		[ "$(col 4)" = $N -a "$(col 4)" = "$ik" ]
	check "one kernel submit per region ($(col 7))" [ "$(col 7)" = $N ]
	check "bytes to the device exact: $N x 10000, as LIBOMPTARGET_INFO ($(col 10), $ito)" \
		[ "$(col 10)" = $((N * 10000)) -a "$(col 10)" = "$ito" ]
	check "bytes from the device exact: $N x 10000, as LIBOMPTARGET_INFO ($(col 11), $ifrom)" \
		[ "$(col 11)" = $((N * 10000)) -a "$(col 11)" = "$ifrom" ]
	xfer() { csvq "$R" "OpenMP DATA TRANSFERS" | awk -F'\t' -v op="$1" '$1 == 0 && $2 == op {print $'"$2"'}'; }
	check "DATA TRANSFERS: $nto copies to device 0, $ito bytes ($(xfer "to device" 3), $(xfer "to device" 4))" \
		[ "$(xfer "to device" 3)" = "$nto" -a "$(xfer "to device" 4)" = "$ito" ]
	check "DATA TRANSFERS: $nfrom copies back, $ifrom bytes ($(xfer "from device" 3), $(xfer "from device" 4))" \
		[ "$(xfer "from device" 3)" = "$nfrom" -a "$(xfer "from device" 4)" = "$ifrom" ]
	check "DATA TRANSFERS: an alloc and a delete per mapped array and region ($((N * 3)))" \
		[ "$(xfer alloc 3)" = $((N * 3)) -a "$(xfer delete 3)" = $((N * 3)) ]
	check "DATA TRANSFERS: the allocs are the mapped bytes, 18000 a region ($(xfer alloc 4))" \
		[ "$(xfer alloc 4)" = $((N * 18000)) ]
	ndev=$(csvq "$R" "OpenMP DEVICES" | wc -l)
	notr=$(csvq "$R" "OpenMP DEVICES" | cut -f6 | grep -c '^no device tracing: ')
	check "every device initialized says 'no device tracing: <why>' ($notr of $ndev)" \
		[ "$ndev" -ge 1 -a "$notr" = "$ndev" ]
	check "the why: the device's lookup has no tracing entry points" \
		bash -c "csvq() { \"$PYTHON\" '$HERE/csvq.py' \"\$@\"; }; csvq '$R' 'OpenMP DEVICES' | cut -f6 | grep -q 'lookup returns NULL for ompt_set_trace_ompt'"
	check "device 0 initialized, its image loaded, finalized" \
		bash -c "\"$PYTHON\" '$HERE/csvq.py' '$R' 'OpenMP DEVICES' | awk -F'\t' '\$1==0 && \$3==\"Yes\" && \$4==\"Yes\" && \$5==1' | grep -q ."
	check "no target record unpaired" bash -c "! grep -q '^Target Records Unpaired' '$R'"
fi

# --- the device-tracing consumer, against tests/omp_harness/harness.c: a stand-in runtime
# written from the OpenMP 5.1 specification, NOT a real one (no runtime here implements
# device tracing). Its fake device 0 counts 2.5 ns ticks and delivers 6 OMPT records in
# 3 buffers (the last at shutdown); the report's translated times (ns after the tool's
# anchor) must be exactly the ticks after the anchor x 2.5, as it printed them.
"$UPROF" collect --trace openmp -o "$SCRATCH/h" "$TGT/omp_harness" >"$SCRATCH/hout" 2>"$SCRATCH/herr"
check "harness under collect exits 0" [ $? -eq 0 ]
check "the harness's device 0 started tracing with all three record types enabled" \
	grep -q '^harness: tracing started, records enabled: target 1 data_op 1 submit 1' "$SCRATCH/hout"
S=$(session_in "$SCRATCH/h")
"$UPROF" report -i "$S" >/dev/null 2>&1
R=$S/report.csv
want=$(sed -n 's/^record \([a-z_]*\) \([0-9]*\) \([0-9]*\) \([0-9]*\)$/\1 \2 \3 \4/p' "$SCRATCH/hout" |
	sed 's/^data_op/data op/' | tr '\n' ';')
got=$(csvq "$R" "OpenMP DEVICE TRACE" | awk -F'\t' '$1 == 0 {print $2, $4, $5, $7}' | tr '\n' ';')
echo "# delivered: $want"
echo "# reported:  $got"
check "5 device records on device 0 (6 OMPT records, a target's begin and end one row)" \
	[ "$(echo "$got" | tr ';' '\n' | grep -c .)" = 5 ]
check "each record's type, translated begin and end (ns) and bytes/teams exactly as delivered" \
	[ -n "$want" -a "$got" = "$want" ]
dev() { csvq "$R" "OpenMP DEVICES" | awk -F'\t' -v d="$1" '$1 == d {print $'"$2"'}'; }
check "device 0: tracing on, 5 records, 2 kernels, 2 data ops, 16000 bytes, none lost" \
	[ "$(dev 0 6)" = on -a "$(dev 0 7)" = 5 -a "$(dev 0 8)" = 2 -a "$(dev 0 9)" = 2 -a "$(dev 0 10)" = 16000 -a "$(dev 0 11)" = 0 ]
check "device 1 (NULL lookup): 'no device tracing: the runtime gave no lookup' ($(dev 1 6))" \
	[ "$(dev 1 6)" = "no device tracing: the runtime gave no lookup for the device" ]
check "device 2 (lookup without the entry points): 'no device tracing: ... returns NULL'" \
	like "$(dev 2 6)" "no device tracing: the device*returns NULL for ompt_set_trace_ompt*"
check "the devices' types and finalization as the harness gave them" \
	[ "$(dev 0 2)/$(dev 1 2)/$(dev 2 2)" = "harness-traced/harness-no-lookup/harness-no-entry" -a \
	  "$(dev 0 4)$(dev 1 4)$(dev 2 4)" = YesYesYes ]
hrow=$(csvq "$R" "OpenMP TARGET REGIONS" | head -1)
echo "# host target row: $hrow"
check "the harness's host-side region: 1 instance on device 0, 1 submit, 8000 bytes each way" \
	[ "$(echo "$hrow" | cut -f3,4,7,10,11 | tr '\t' ' ')" = "0 1 1 8000 8000" ]

echo "# skipped: $skipped"
echo "1..$_n"
