#!/usr/bin/env bash
# report.html of an MPI job collected with --trace mpi=full (issue 31): its MPI timeline
# page, a track per rank with each MPI call a slice, from the same per-rank event files as
# the job's trace.json (lib/job/job_trace.c). tests/targets/mpi_trace.c on 4 ranks under
# Open MPI and MPICH (each family missing here is skipped, counted, with the reason): the
# embedded calls per rank and function are the program's own (its comment's counts), the
# page's MPI TIMELINE CALLS table (read back from the DOM after the script ran) is
# report.csv's MPI FUNCTION SUMMARY TABLE (Rank N) calls, the tracks are the job's ranks,
# the page loads with no console message, its zoom controls move its window as
# specified (lib/zoomprobe.py, as report_html_zoom.sh checks the Timeline's), and a
# 1400x900 screenshot of it is kept in $BUILD/test-artifacts/report_html/.
. "$(dirname "$0")/lib/common.sh"

hq() { "$PYTHON" "$HERE/htmlq.py" "$@"; }
SHOTS=$PWD/$BUILD/test-artifacts/report_html
mkdir -p "$SHOTS"
OMPIRUN=(mpirun --allow-run-as-root --oversubscribe)
ITER=3
one_job() { local d; d=$(ls -d "$1"/uprof-*-HPC_MPI_* 2>/dev/null); [ "$(echo "$d" | grep -c .)" -eq 1 ] && echo "$d"; }
CHROME=$(command -v chromium || command -v chromium-browser || true)
export HOME=$SCRATCH XDG_CONFIG_HOME=$SCRATCH/.config XDG_CACHE_HOME=$SCRATCH/.cache
chrome() { timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu --no-first-run \
	--user-data-dir="$SCRATCH/chrome" --virtual-time-budget=5000 "$@"; }

# The program's calls per rank (mpi_trace.c's comment): "rank function count", sorted
want_counts() {
	for r in 0 1 2 3; do
		# MPI_Init and MPI_Finalize are slices too: each rank's first and last
		printf '%s\n' "$r MPI_Init 1" "$r MPI_Finalize 1" \
			"$r MPI_Barrier 1" "$r MPI_Bcast 1" "$r MPI_Irecv $ITER" "$r MPI_Isend $ITER" \
			"$r MPI_Recv $((ITER + (r == 1)))" "$r MPI_Send $((ITER + (r == 0)))" "$r MPI_Waitall $ITER"
	done | LC_ALL=C sort
}
# the embedded "mpi_timeline": "rank function calls" per rank and function, sorted; then
# "ranks R0 R1 ..." in track order
embedded() {
	"$PYTHON" - "$1" <<-'PY'
	import json, re, sys
	from collections import Counter
	t = open(sys.argv[1], encoding="utf-8").read()
	m = json.loads(re.search(r'<script type="application/json" id="data">(.*?)</script>', t, re.S).group(1))["mpi_timeline"]
	n = Counter((m["ranks"][c[0]]["rank"], m["names"][c[1]]) for c in m["calls"] if c[2] <= c[3])
	for line in sorted("%d %s %d" % (r, f, k) for (r, f), k in n.items()):
	    print(line)
	print("ranks", *(r["rank"] for r in m["ranks"]), "left_out", m["left_out"])
	PY
}

# A rank's own report.html: "1 function calls" per function of its Timeline's MPI slices,
# sorted, then "facts PIDS INSIDE LEFT SAMPLED": the pids of the slices' tracks, whether
# every slice lies in the timeline's span, the calls left out, and whether a slice's track
# has samples (the calls sit on the same tracks, on the same clock, as the samples)
rank_timeline() {
	"$PYTHON" - "$1" "$2" <<-'PY'
	import json, re, sys
	from collections import Counter
	t = open(sys.argv[1], encoding="utf-8").read()
	tl = json.loads(re.search(r'<script type="application/json" id="data">(.*?)</script>', t, re.S).group(1))["timeline"]
	mpi = tl.get("mpi", [])
	for f, k in sorted(Counter(c[3] for c in mpi).items()):
	    print(sys.argv[2], f, k)
	th = tl["threads"]
	print("facts", ",".join(sorted({str(th[c[0]]["pid"]) for c in mpi})),
	      int(all(0 <= c[1] <= c[2] <= tl["span"] for c in mpi)), tl["left_out"].get("mpi"),
	      int(any(th[c[0]]["samples"] > 0 for c in mpi)))
	PY
}

family() { # NAME TARGET LAUNCHER...
	local fam=$1 tgt=$2 J; shift 2
	timeout 300 "$@" -np 4 "$UPROF" collect --trace mpi=full -o "$SCRATCH/$fam" "$tgt" 50 \
		>"$SCRATCH/$fam.log" 2>&1
	check "$fam: 4 ranks under collect --trace mpi=full exit 0" [ $? -eq 0 ]
	J=$(one_job "$SCRATCH/$fam")
	[ -n "$J" ] || { not_ok "$fam: no job directory ($(tail -3 "$SCRATCH/$fam.log"))"; return; }
	timeout 300 "$UPROF" report -i "$J" --detail --export html >/dev/null 2>"$SCRATCH/$fam.err"
	check "$fam: report --detail --export html of the job writes report.html" \
		bash -c "[ -s '$J/report.html' ] && grep -q 'Generated HTML report file: $J/report.html' '$SCRATCH/$fam.err'"
	check "$fam: the page has nothing outside it" hq "$J/report.html" external
	embedded "$J/report.html" >"$SCRATCH/$fam.emb"
	grep -v '^ranks ' "$SCRATCH/$fam.emb" >"$SCRATCH/$fam.counts"
	want_counts >"$SCRATCH/$fam.want"
	check "$fam: the MPI timeline's slices per rank and function are the program's calls ($(tr '\n' ';' <"$SCRATCH/$fam.counts"))" \
		cmp -s "$SCRATCH/$fam.counts" "$SCRATCH/$fam.want"
	check "$fam: a track per rank, in rank order, nothing left out ($(grep '^ranks ' "$SCRATCH/$fam.emb"))" \
		grep -qx 'ranks 0 1 2 3 left_out 0' "$SCRATCH/$fam.emb"
	# rank 1's own session: its calls on its Timeline, with its samples
	timeout 300 "$UPROF" report -i "$J/rank-1" --export html >/dev/null 2>&1
	rank_timeline "$J/rank-1/report.html" 1 >"$SCRATCH/$fam.r1"
	want_counts | awk '$1 == 1' | LC_ALL=C sort >"$SCRATCH/$fam.r1want"
	check "$fam: rank 1's own report.html has its MPI calls on its Timeline, the program's ($(grep -v '^facts' "$SCRATCH/$fam.r1" | tr '\n' ';'))" \
		bash -c "grep -v '^facts' '$SCRATCH/$fam.r1' | LC_ALL=C sort | cmp -s - '$SCRATCH/$fam.r1want'"
	pid1=$(ls "$J/rank-1/mpi" 2>/dev/null | sed -n 's/^\([0-9]*\)\.mpiev$/\1/p' | head -1)
	check "$fam: ... on rank 1's own threads (pid $pid1), inside the span, none left out, beside its samples ($(grep '^facts' "$SCRATCH/$fam.r1"))" \
		grep -qx "facts $pid1 1 0 1" "$SCRATCH/$fam.r1"
	if [ -z "$CHROME" ]; then
		ok "$fam: the MPI timeline page in Chromium # SKIP chromium is not installed (scripts/install-deps.sh)"
		return
	fi
	chrome --enable-logging=stderr --v=0 --dump-dom "file://$J/report.html?all" >"$SCRATCH/$fam.dom" \
		2>"$SCRATCH/$fam.console"
	check "$fam: every page loads in Chromium, no console message ($(grep -m1 -iE 'CONSOLE|Uncaught' "$SCRATCH/$fam.console"))" \
		bash -c "grep -q 'data-ready=\"1\"' '$SCRATCH/$fam.dom' && ! grep -qiE 'CONSOLE|Uncaught' '$SCRATCH/$fam.console'"
	# the page's table against report.csv's per-rank tables, MPI_Init and MPI_Finalize
	# rows included (one each, as on the timeline)
	hq "$SCRATCH/$fam.dom" dom '^MPI TIMELINE CALLS$' 100000 0,1,2 | tr '\t' ' ' | LC_ALL=C sort >"$SCRATCH/$fam.dom3"
	for r in 0 1 2 3; do
		awk -v t="MPI FUNCTION SUMMARY TABLE (Rank $r)" -v r=$r '$0==t{on=1;getline;next} on&&/^$/{exit}
			on{gsub(/, /,"\t"); split($0, c, "\t"); print r, c[1], c[2]}' "$J/report.csv"
	done | LC_ALL=C sort >"$SCRATCH/$fam.csv3"
	check "$fam: the page's MPI TIMELINE CALLS are report.csv's per-rank calls ($(wc -l <"$SCRATCH/$fam.csv3") rows)" \
		bash -c "[ -s '$SCRATCH/$fam.csv3' ] && cmp -s '$SCRATCH/$fam.dom3' '$SCRATCH/$fam.csv3'"
	chrome --window-size=1400,900 --screenshot="$SHOTS/mpi-$fam-mpitimeline.png" \
		"file://$J/report.html#mpitimeline" >/dev/null 2>&1
	read -r w h ncol ink _ <<<"$("$PYTHON" "$HERE/pngstats.py" "$SHOTS/mpi-$fam-mpitimeline.png" 2>/dev/null)"
	check "$fam: screenshot of the MPI timeline page, ${w:-?}x${h:-?}, ${ncol:-0} colours, ${ink:-0} non-white pixels" \
		bash -c "[ '${w:-0}' = 1400 ] && [ '${ncol:-0}' -ge 16 ] && [ '${ink:-0}' -ge 20000 ]"
	# its zoom controls, as report_html_zoom.sh drives the Timeline's (lib/zoomprobe.py)
	"$PYTHON" "$HERE/zoomprobe.py" probe "$J/report.html" "$SCRATCH/$fam.probe.html" mpitimeline mpi-view mpi_timeline
	chrome --window-size=1400,900 --dump-dom "file://$SCRATCH/$fam.probe.html#mpitimeline" 2>/dev/null |
		sed -n 's/.*data-probe="\([^"]*\)".*/\1/p' | tr ';' '\n' >"$SCRATCH/$fam.steps"
	"$PYTHON" "$HERE/zoomprobe.py" judge "$SCRATCH/$fam.steps" >"$SCRATCH/$fam.verdicts" 2>&1
	check "$fam: the MPI timeline's zoom controls (+ - arrows wheel drag 0) move its window as specified ($(grep -c '^ok' "$SCRATCH/$fam.verdicts") of 11 steps; $(grep -m1 -v '^ok' "$SCRATCH/$fam.verdicts"))" \
		bash -c "[ \$(grep -c '^ok' '$SCRATCH/$fam.verdicts') = 11 ] && [ \$(wc -l <'$SCRATCH/$fam.verdicts') = 11 ]"
}

if command -v mpirun >/dev/null && [ -x "$TGT/mpi_trace.openmpi" ]; then
	family openmpi "$TGT/mpi_trace.openmpi" "${OMPIRUN[@]}"
else
	ok "Open MPI job page # SKIP no mpirun or $TGT/mpi_trace.openmpi (scripts/install-deps.sh)"
fi
if command -v mpirun.mpich >/dev/null && [ -x "$TGT/mpi_trace.mpich" ]; then
	family mpich "$TGT/mpi_trace.mpich" mpirun.mpich
else
	ok "MPICH job page # SKIP no mpirun.mpich or $TGT/mpi_trace.mpich (scripts/install-deps.sh)"
fi
echo "1..$_n"
