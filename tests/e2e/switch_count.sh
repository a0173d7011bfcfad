#!/usr/bin/env bash
# -e context-switches counts the switches there were: the kernel samples every switch
# (period 1 in each sample, whatever the interval asked), and report weights each sample
# by its own period. The target counts its own switches (getrusage); uprof's count may
# differ only by the switches outside the target's measured window (before exec is
# reached, after its getrusage: printing, exit), a handful.
. "$(dirname "$0")/lib/common.sh"

"$UPROF" collect -e context-switches -o "$SCRATCH/cs" "$TGT/switches" 2000 \
	>"$SCRATCH/own" 2>"$SCRATCH/collect.err"
check "collect -e context-switches exits 0" [ $? -eq 0 ]
own=$(sed -n 's/^switches \([0-9]*\)$/\1/p' "$SCRATCH/own")
S=$(session_in "$SCRATCH/cs")
"$UPROF" report -i "$S" >/dev/null 2>"$SCRATCH/err"
check "report exits 0" [ $? -eq 0 ]
if grep -q '^Event Used:.*user mode only' "$S/report.csv"; then
	ok "# SKIP kernel-mode sampling refused here: switches happen in the kernel"
else
	total=$(sed -n 's/^Total context-switches,"\([0-9]*\) events"$/\1/p' "$S/report.csv")
	echo "# the target counted $own switches; report: $total"
	check_sh "the target counted its switches ($own, 2000 round trips: >= 4000)" \
		'[ -n "$own" ] && [ "$own" -ge 4000 ]'
	# margin: 16 + 1 % for switches outside the target's window on a loaded machine
	check_sh "report's context-switches equal the target's own count within 16 + 1 % ($total vs $own)" \
		'[ -n "$total" ] && d=$((total - own)) && d=${d#-} && [ "$d" -le $((16 + own / 100)) ]'
	check "not samples x interval (250,000 a sample)" [ "${total:-0}" -lt 1000000 ]
	check "the terminal line says each sample counts its own period" \
		grep -q "of context-switches, $total events (interval asked 250000, each sample counts its own period)" "$SCRATCH/err"
fi
