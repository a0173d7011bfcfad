#!/usr/bin/env bash
# MPI call sites (mpiP's tables), MPI-IO, communicator and one-sided calls, and message
# sizes per rank: a known program (tests/targets/mpi_sites.c) on 4 ranks under each MPI
# family's launcher, every site's calls and bytes exact per file:line; the Fortran
# program's sites at its own .f90 lines (the Fortran caller, not our C binding). Each
# family missing here is skipped, counted, with the reason.
. "$(dirname "$0")/lib/common.sh"

OMPIRUN=(mpirun --allow-run-as-root --oversubscribe)
SRC=tests/targets/mpi_sites.c
one_job() { local d; d=$(ls -d "$1"/uprof-*-HPC_MPI_* 2>/dev/null); [ "$(echo "$d" | grep -c .)" -eq 1 ] && echo "$d"; }
# mpi_table FILE TITLE: the rows of an MPI TRACING REPORT block (", "-separated) as TSV,
# quotes dropped
mpi_table() { awk -v t="$2" '$0==t{on=1;getline;next} on&&/^$/{exit} on{gsub(/, /,"\t");gsub(/"/,"");print}' "$1"; }
# the title of a block that says its top count: "MPI CALL SITE TIME (top 22)"
mpi_block() { awk -v t="$2" 'index($0,t)==1{on=1;getline;next} on&&/^$/{exit} on{gsub(/, /,"\t");gsub(/"/,"");print}' "$1"; }
line_of() { grep -n "site:$1 \*/" "$SRC" | cut -d: -f1; }

# What the program does at each marked line, over the 4 ranks:
# mark function caller calls messages bytes min max
want_sites() {
	cat <<-EOF | while read -r mark fn caller calls msgs bytes min max; do
	allreduce MPI_Allreduce exchange 20 20 640 32 32
	bcast MPI_Bcast exchange 8 8 3200 400 400
	isend MPI_Isend ring 12 12 12000 1000 1000
	recv MPI_Recv ring 12 12 12000 1000 1000
	wait MPI_Wait ring 12 0 0 0 0
	send_sized MPI_Send ring 4 4 1000 100 400
	recv_sized MPI_Recv ring 4 4 1000 100 400
	file_open MPI_File_open io 4 0 0 0 0
	write_at MPI_File_write_at io 4 4 1024 256 256
	write_at_all MPI_File_write_at_all io 4 4 512 128 128
	read_at MPI_File_read_at io 4 4 1024 256 256
	file_close MPI_File_close io 4 0 0 0 0
	win_create MPI_Win_create rma 4 0 0 0 0
	fence1 MPI_Win_fence rma 4 0 0 0 0
	put MPI_Put rma 4 4 256 64 64
	fence2 MPI_Win_fence rma 4 0 0 0 0
	get MPI_Get rma 4 4 128 32 32
	fence3 MPI_Win_fence rma 4 0 0 0 0
	win_free MPI_Win_free rma 4 0 0 0 0
	comm_split MPI_Comm_split main 4 0 0 0 0
	allreduce_half MPI_Allreduce main 4 4 32 8 8
	comm_free MPI_Comm_free main 4 0 0 0 0
	EOF
		echo "$mark $fn mpi_sites.c:$(line_of "$mark") $caller $calls $msgs $bytes $min $max"
	done
}

sites_checks() { # FAMILY JOBDIR IOFILE
	local fam=$1 J=$2 io=$3 R=$2/report.csv got want ids sums
	"$UPROF" report -i "$J" --detail --mpi-top 0 >/dev/null 2>"$SCRATCH/$fam.err"
	check "$fam: the job's report (exit $?), every rank's MPI data whole" \
		bash -c "! grep -q 'MPI data' '$SCRATCH/$fam.err'"
	# MPI CALL SITES: Site, function, file:line, caller, module, calls
	mpi_table "$R" "MPI CALL SITES" | awk -F'\t' '{print $2, $3, $4, $6}' | LC_ALL=C sort >"$SCRATCH/$fam.sites"
	want_sites | awk '{print $2, $3, $4, $5}' | LC_ALL=C sort >"$SCRATCH/$fam.want"
	check "$fam: MPI CALL SITES: 22 sites, each function, file:line, caller and calls exact ($(tr '\n' ';' <"$SCRATCH/$fam.sites"))" \
		cmp -s "$SCRATCH/$fam.sites" "$SCRATCH/$fam.want"
	ids=$(mpi_table "$R" "MPI CALL SITES" | cut -f1 | tr '\n' ' ')
	check "$fam: sites numbered 1..22 in order of place ($ids)" [ "$ids" = "$(seq -s ' ' 1 22) " ]
	# MPI CALL SITE MESSAGE SIZES: messages, total, min, avg, max per site that moved any
	mpi_block "$R" "MPI CALL SITE MESSAGE SIZES (top " | awk -F'\t' '{print $2, $3, $4, $5, $6, $8}' | LC_ALL=C sort >"$SCRATCH/$fam.sizes"
	want_sites | awk '$6>0{print $2, $3, $6, $7, $8, $9}' | LC_ALL=C sort >"$SCRATCH/$fam.wsizes"
	check "$fam: MPI CALL SITE MESSAGE SIZES: messages, bytes, min and max exact per file:line ($(tr '\n' ';' <"$SCRATCH/$fam.sizes"))" \
		cmp -s "$SCRATCH/$fam.sizes" "$SCRATCH/$fam.wsizes"
	avg=$(mpi_block "$R" "MPI CALL SITE MESSAGE SIZES (top " | awk -F'\t' -v l="mpi_sites.c:$(line_of send_sized)" '$3==l{print $7}')
	check "$fam: the send of 100..400 bytes averages 250 ($avg)" [ "$avg" = 250 ]
	# the sites add up to the function table: every call of a traced function has a site
	sums=$("$PYTHON" - "$R" <<-'PY'
	import sys
	def block(t):
	    rows, on = [], False
	    for l in open(sys.argv[1]):
	        l = l.rstrip("\n")
	        if on and not l: break
	        if on: rows.append(l.replace('"', '').split(", "))
	        if l.startswith(t): on = True
	    return rows[1:]
	site = {}
	for r in block("MPI CALL SITES"):
	    site[r[1]] = site.get(r[1], 0) + int(r[5])
	bad = [r[0] for r in block("MPI FUNCTION SUMMARY TABLE (All Ranks)")
	       if r[0] not in ("MPI_Init", "MPI_Init_thread", "MPI_Finalize") and site.get(r[0], 0) != int(r[6])]
	print(" ".join(bad) or "none")
	PY
	)
	check "$fam: each function's calls are its sites' calls (differing: $sums)" [ "$sums" = none ]
	# IO, RMA and communicator rows of each rank: calls, bytes sent, bytes received
	for r in 0 1 2 3; do
		got=$(mpi_table "$R" "MPI FUNCTION SUMMARY TABLE (Rank $r)" | awk -F'\t' '$1 ~ /^MPI_(File|Win|Put|Get|Comm|Group)/{print $1, $2, $4, $5}' | LC_ALL=C sort | tr '\n' ';')
		want="MPI_Comm_free 1 0 0;MPI_Comm_split 1 0 0;MPI_File_close 1 0 0;MPI_File_open 1 0 0;MPI_File_read_at 1 0 256;MPI_File_write_at 1 256 0;MPI_File_write_at_all 1 128 0;MPI_Get 1 0 32;MPI_Put 1 64 0;MPI_Win_create 1 0 0;MPI_Win_fence 3 0 0;MPI_Win_free 1 0 0;"
		check "$fam rank $r: IO, RMA and communicator calls and bytes exact ($got)" [ "$got" = "$want" ]
	done
	# the C wrappers' RMA matrix: each rank puts 16 ints to rank + 1, gets 8 from rank - 1
	got=$(mpi_table "$R" "RMA COMMUNICATION MATRIX" | awk -F'\t' '{print $1, $2, $3, $4}' | LC_ALL=C sort | tr '\n' ';')
	want=$(for r in 0 1 2 3; do echo "$r ---> $(((r + 1) % 4)) 1 64 0"; echo "$r ---> $(((r + 3) % 4)) 1 0 32"; done | LC_ALL=C sort | tr '\n' ';')
	check "$fam: RMA COMMUNICATION MATRIX: each origin's put and get to its targets ($got)" [ "$got" = "$want" ]
	rma_page_checks "$fam" "$J"
	check "$fam: MPI-IO wrote the file the program asked for: 1920 bytes ($(stat -c %s "$io" 2>/dev/null))" \
		[ "$(stat -c %s "$io" 2>/dev/null)" = 1920 ]
	# per rank: rank r sends 100 (r + 1) bytes at send_sized; its histogram says so
	got=$(mpi_table "$R" "MPI MESSAGE SIZES (Per Rank)" | awk -F'\t' '$2=="MPI_Send"{print $1, $3, $4, $5}' | tr '\n' ';')
	check "$fam: MPI MESSAGE SIZES (Per Rank): each rank's one MPI_Send in its own range ($got)" \
		[ "$got" = "0 64 127 1;1 128 255 1;2 256 511 1;3 256 511 1;" ]
	got=$(mpi_block "$R" "MPI CALL SITES PER RANK (top " | awk -F'\t' -v l="mpi_sites.c:$(line_of send_sized)" '$4==l{print $1, $5, $8, $9, $11}' | LC_ALL=C sort | tr '\n' ';')
	check "$fam: MPI CALL SITES PER RANK: the sized send's calls and bytes per rank ($got)" \
		[ "$got" = "0 1 100 100 100;1 1 200 200 200;2 1 300 300 300;3 1 400 400 400;" ]
	# mpiP's formulas (man uprof-mpi(7)), from the report's own per-rank figures
	check "$fam: CALL SITE TIME's min/avg/max, App %, MPI % and COV are the per-rank figures'" "$PYTHON" - "$R" <<-'PY'
	import sys, statistics
	def block(t):
	    rows, on = [], False
	    for l in open(sys.argv[1]):
	        l = l.rstrip("\n")
	        if on and not l: break
	        if on: rows.append(l.replace('"', '').split(", "))
	        if l.startswith(t): on = True
	    return rows[1:]
	ranks = block("RANK SUMMARY TABLE")
	app = sum(float(r[9]) for r in ranks); mpi = sum(float(r[2]) for r in ranks)
	per = {}
	for r in block("MPI CALL SITES PER RANK (top "):
	    per.setdefault(r[1], {})[r[0]] = float(r[5])
	ok = True
	for s in block("MPI CALL SITE TIME (top "):
	    t = [per.get(s[0], {}).get(str(k), 0.0) for k in range(4)]
	    mean = sum(t) / 4
	    cov = statistics.pstdev(t) / mean if mean else 0
	    want = [min(t), mean, max(t), 100 * float(s[4]) / app, 100 * float(s[4]) / mpi, cov]
	    for g, w in zip(map(float, s[5:11]), want):
	        ok &= abs(g - w) <= 2e-3 * max(abs(w), 1e-6) + 1e-6
	    ok &= abs(sum(t) - float(s[4])) <= 1e-4 * float(s[4]) + 1e-6
	sys.exit(0 if ok else 1)
	PY
	# --mpi-top 3: three sites a table, three a rank
	"$UPROF" report -i "$J" --mpi-top 3 --report-output "$SCRATCH/$fam.top3.csv" >/dev/null 2>&1
	got="$(mpi_block "$SCRATCH/$fam.top3.csv" "MPI CALL SITE TIME (top 3)" | grep -c .)/$(mpi_block "$SCRATCH/$fam.top3.csv" "MPI CALL SITES PER RANK (top 3 per rank)" | grep -c .)/$(mpi_table "$SCRATCH/$fam.top3.csv" "MPI CALL SITES" | grep -c .)"
	check "$fam: --mpi-top 3: 3 sites by time, 3 per rank of 4, all 22 placed ($got)" [ "$got" = 3/12/22 ]
}

# The job's report.html lists the RMA matrix on its MPI page (a heat map of origin rows
# and target columns, and the table), its numbers report.csv's and the program's pattern.
CHROME=$(command -v chromium || command -v chromium-browser || true)
rma_page_checks() { # FAMILY JOBDIR
	local fam=$1 J=$2 hq=("$PYTHON" "$HERE/htmlq.py")
	if [ -z "$CHROME" ]; then
		ok "$fam: the job page's RMA matrix # SKIP chromium is not installed (scripts/install-deps.sh)"
		return
	fi
	timeout 300 "$UPROF" report -i "$J" --export html --report-output "$SCRATCH/$fam.html.csv" >/dev/null 2>&1
	HOME=$SCRATCH XDG_CONFIG_HOME=$SCRATCH/.config XDG_CACHE_HOME=$SCRATCH/.cache timeout 120 \
		"$CHROME" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$SCRATCH/chrome" \
		--virtual-time-budget=5000 --dump-dom "file://$J/report.html?all#mpi" >"$SCRATCH/$fam.dom" 2>/dev/null
	# the MPI page alone (All tables lists every section whatever the MPI page does)
	"$PYTHON" -c 'import sys; s = open(sys.argv[1]).read(); i = s.find("id=\"page-mpi\""); print(s[i:s.find("</section>", i)] if i >= 0 else "")' \
		"$SCRATCH/$fam.dom" >"$SCRATCH/$fam.mpidom"
	"${hq[@]}" "$SCRATCH/$fam.mpidom" dom '^RMA COMMUNICATION MATRIX$' 100 | tr -d ' ' | LC_ALL=C sort >"$SCRATCH/$fam.rma.dom"
	mpi_table "$SCRATCH/$fam.html.csv" "RMA COMMUNICATION MATRIX" | tr -d ' ' | LC_ALL=C sort >"$SCRATCH/$fam.rma.csv"
	check "$fam: the job page's MPI page lists the RMA matrix, its rows report.csv's ($(tr '\n\t' ';,' <"$SCRATCH/$fam.rma.dom"))" \
		bash -c "[ -s '$SCRATCH/$fam.rma.csv' ] && cmp -s '$SCRATCH/$fam.rma.dom' '$SCRATCH/$fam.rma.csv'"
	# rank r puts 64 bytes at r + 1 and gets 32 from r - 1 (origin rows, target columns)
	"${hq[@]}" "$SCRATCH/$fam.mpidom" dom '^RMA COMMUNICATION MATRIX heat map$' 4 >"$SCRATCH/$fam.rma.heat"
	printf '%s\n' "	64		32" "32		64	" "	32		64" "64		32	" >"$SCRATCH/$fam.rma.want"
	check "$fam: the RMA heat map's volumes are the program's puts and gets ($(tr '\n\t' ';,' <"$SCRATCH/$fam.rma.heat"))" \
		cmp -s "$SCRATCH/$fam.rma.heat" "$SCRATCH/$fam.rma.want"
}

run_family() { # FAMILY LAUNCHER...
	local fam=$1; shift
	rm -f "$SCRATCH/$fam.io"
	timeout 300 "$@" -np 4 "$UPROF" collect --trace mpi -o "$SCRATCH/$fam" \
		"$TGT/mpi_sites.$fam" "$SCRATCH/$fam.io" >"$SCRATCH/$fam.log" 2>&1
	check "$fam: the known program on 4 ranks exits 0" [ $? -eq 0 ]
	J=$(one_job "$SCRATCH/$fam")
	if [ -n "$J" ]; then sites_checks "$fam" "$J" "$SCRATCH/$fam.io"; else not_ok "$fam: no job directory"; fi
}

if command -v mpirun >/dev/null && [ -x "$TGT/mpi_sites.openmpi" ]; then
	run_family openmpi "${OMPIRUN[@]}"
else
	ok "Open MPI call sites # SKIP no mpirun or $TGT/mpi_sites.openmpi (scripts/install-deps.sh)"
fi
if command -v mpirun.mpich >/dev/null && [ -x "$TGT/mpi_sites.mpich" ]; then
	run_family mpich mpirun.mpich
else
	ok "MPICH call sites # SKIP no mpirun.mpich or $TGT/mpi_sites.mpich (scripts/install-deps.sh)"
fi

# ---- -g: each site with its callers (frame pointers), a site per (call, callers) ----
if command -v mpirun >/dev/null && [ -x "$TGT/mpi_sites.openmpi" ]; then
	timeout 300 "${OMPIRUN[@]}" -np 4 "$UPROF" collect -g --trace mpi -o "$SCRATCH/g" \
		"$TGT/mpi_sites.openmpi" "$SCRATCH/g.io" >/dev/null 2>&1
	check "-g: the known program exits 0" [ $? -eq 0 ]
	GJ=$(one_job "$SCRATCH/g")
	"$UPROF" report -i "$GJ" --mpi-top 0 >/dev/null 2>&1
	# the first caller above each site: main, at the line that calls the site's function
	# (above main is libc's start code, named as this libc names it: not checked)
	call_line() { grep -n "^	$1(" "$SRC" | cut -d: -f1; }
	got=$(mpi_table "$GJ/report.csv" "MPI CALL SITES" | awk -F'\t' '$4!="main"{split($7, c, " < "); print $4, $6, c[1]}' | LC_ALL=C sort -u | tr '\n' ';')
	want="exchange 20 main (mpi_sites.c:$(call_line exchange));exchange 8 main (mpi_sites.c:$(call_line exchange));io 4 main (mpi_sites.c:$(call_line io));ring 12 main (mpi_sites.c:$(call_line ring));ring 4 main (mpi_sites.c:$(call_line ring));rma 4 main (mpi_sites.c:$(call_line rma));"
	check "-g: each site's first caller is main at the line calling its function ($got)" [ "$got" = "$want" ]
	got=$(mpi_table "$GJ/report.csv" "MPI CALL SITES" | grep -c .)
	check "-g: still 22 sites, one caller chain each ($got)" [ "$got" = 22 ]
	# the job reads its ranks' leaf CFI rows once for all (lib/unwind/unwind_share.c): each
	# rank's frameless-leaf outcomes as its own report, unshared, gives them, summed
	leafs() { grep '^Frameless Leaf Callers Recovered' "$1" | grep -o '[0-9][0-9]*' | head -3 | tr '\n' ' '; }
	job_leaf=$(leafs "$GJ/report.csv")
	sum_leaf=$(for r in 0 1 2 3; do
		"$UPROF" report -i "$GJ/rank-$r" >/dev/null 2>&1
		leafs "$GJ/rank-$r/report.csv"
		echo
	done | awk '{ f += $1; p += $2; u += $3 } END { printf "%d %d %d ", f, p, u }')
	# The same leaves, the same "had frames" and the same recovered, to the leaf: a rank's
	# own Dwfl reads a leaf's row from the module of the mapping that holds the pc, as the
	# share does (rpt_unwind_map_index). Before, it asked libdwfl, which answers overlapping
	# module ranges by address: a pc in mca_osc_rdma.so, mapped over a dlclosed libpsm2,
	# was read in libpsm2's image and the leaf missed (1 run in 4;
	# tests/unit/test_unwind_overlap.c is that case on real files, every time).
	read -r jf jp ju <<<"$job_leaf"
	check_sh "-g: the job's leaf steps (shared CFI rows) are its ranks' own, summed (job $job_leaf, ranks $sum_leaf)" \
		'[ -n "$jf" ] && [ "$((jf + jp + ju))" -gt 0 ] && [ "$job_leaf" = "$sum_leaf" ]'
else
	ok "-g call sites # SKIP no mpirun or $TGT/mpi_sites.openmpi"
fi

# ---- Fortran (mpif.h): the site is the Fortran program's line, not our C binding's ----
fortran_sites() { # FAMILY LAUNCHER...
	local fam=$1 J got; shift
	timeout 300 "$@" -np 4 "$UPROF" collect --trace mpi -o "$SCRATCH/f$fam" \
		"$TGT/mpi_fortran.$fam" >/dev/null 2>&1
	check "$fam Fortran: exit 0" [ $? -eq 0 ]
	J=$(one_job "$SCRATCH/f$fam")
	"$UPROF" report -i "$J" --mpi-top 0 >/dev/null 2>&1
	# even ranks send at line 22 (10 and 30 integers), odd ranks at 26 (20 and 40); the
	# receives the other way round; rank 0's two isends and rank 3's two irecvs
	got=$(mpi_block "$J/report.csv" "MPI CALL SITE MESSAGE SIZES (top " | awk -F'\t' '$2 ~ /^MPI_(Send|Recv|Isend|Irecv|Allreduce)$/{print $2, $3, $4, $5, $6, $8}' | LC_ALL=C sort | tr '\n' ';')
	check "$fam Fortran: sites at the program's own lines, messages and bytes exact ($got)" \
		[ "$got" = "MPI_Allreduce mpi_fortran.f90:40 4 16 4 4;MPI_Irecv mpi_fortran.f90:34 1 400 400 400;MPI_Irecv mpi_fortran.f90:35 1 400 400 400;MPI_Isend mpi_fortran.f90:30 1 400 400 400;MPI_Isend mpi_fortran.f90:31 1 400 400 400;MPI_Recv mpi_fortran.f90:23 12 1440 80 160;MPI_Recv mpi_fortran.f90:25 12 960 40 120;MPI_Send mpi_fortran.f90:22 12 960 40 120;MPI_Send mpi_fortran.f90:26 12 1440 80 160;" ]
	got=$(mpi_table "$J/report.csv" "MPI CALL SITES" | awk -F'\t' '$2=="MPI_Barrier"{print $3, $4, $6}')
	check "$fam Fortran: the barrier at line 38, in program mpi_fortran, 4 calls ($got)" \
		[ "$got" = "mpi_fortran.f90:38 mpi_fortran 4" ]
}
if command -v mpirun >/dev/null && [ -x "$TGT/mpi_fortran.openmpi" ]; then
	fortran_sites openmpi "${OMPIRUN[@]}"
else
	ok "Open MPI Fortran call sites # SKIP no mpirun or $TGT/mpi_fortran.openmpi"
fi
if command -v mpirun.mpich >/dev/null && [ -x "$TGT/mpi_fortran.mpich" ]; then
	fortran_sites mpich mpirun.mpich
else
	ok "MPICH Fortran call sites # SKIP no mpirun.mpich or $TGT/mpi_fortran.mpich"
fi

# ---- more sites than the table holds: the calls past it are counted, never dropped ----
if command -v mpirun.mpich >/dev/null && [ -x "$TGT/mpi_many_sites.mpich" ]; then
	timeout 300 mpirun.mpich -np 2 "$UPROF" collect --trace mpi -o "$SCRATCH/many" \
		"$TGT/mpi_many_sites.mpich" >/dev/null 2>&1
	check "1100 sites a rank: exit 0" [ $? -eq 0 ]
	MJ=$(one_job "$SCRATCH/many")
	"$UPROF" report -i "$MJ" --mpi-top 0 >/dev/null 2>&1
	calls=$(mpi_table "$MJ/report.csv" "MPI FUNCTION SUMMARY TABLE (All Ranks)" | awk -F'\t' '$1=="MPI_Iprobe"{print $7}')
	sited=$(mpi_table "$MJ/report.csv" "MPI CALL SITES" | awk -F'\t' '$2=="MPI_Iprobe"{n+=$6} END{print n+0}')
	lost=$(sed -n 's/^Calls Without A Site, \([0-9]*\), "2 of 2 ranks filled their table.*/\1/p' "$MJ/report.csv")
	check "1100 sites a rank: the sites' calls ($sited) and the calls without one ($lost) are all 2200 calls ($calls), at least 76 a rank lost" \
		[ "${calls:-0}" = 2200 -a "$((sited + ${lost:-0}))" = 2200 -a "${lost:-0}" -ge 152 ]
else
	ok "a full table of call sites # SKIP no mpirun.mpich or $TGT/mpi_many_sites.mpich"
fi

# ---- MPI_THREAD_MULTIPLE: 4 threads a rank race for the same slots and counters ----
mt_sites() { # FAMILY LAUNCHER...
	local fam=$1 J got; shift
	timeout 300 "$@" -np 2 "$UPROF" collect --trace mpi -o "$SCRATCH/mt$fam" \
		"$TGT/mpi_sites_mt.$fam" >"$SCRATCH/mt$fam.log" 2>&1
	check "$fam threads: exit 0" [ $? -eq 0 ]
	J=$(one_job "$SCRATCH/mt$fam")
	"$UPROF" report -i "$J" >/dev/null 2>&1
	got=$(mpi_table "$J/report.csv" "MPI CALL SITES" | awk -F'\t' '{print $2, $3, $4, $6}' | tr '\n' ';')
	check "$fam threads: 2 sites of 80000 calls each, none lost ($got)" [ "$got" = \
		"MPI_Iprobe mpi_sites_mt.c:$(grep -n 'site:mt_a' tests/targets/mpi_sites_mt.c | cut -d: -f1) probe_a 80000;MPI_Iprobe mpi_sites_mt.c:$(grep -n 'site:mt_b' tests/targets/mpi_sites_mt.c | cut -d: -f1) probe_b 80000;" ]
}
if command -v mpirun >/dev/null && [ -x "$TGT/mpi_sites_mt.openmpi" ]; then
	mt_sites openmpi "${OMPIRUN[@]}"
else
	ok "Open MPI threads # SKIP no mpirun or $TGT/mpi_sites_mt.openmpi"
fi
if command -v mpirun.mpich >/dev/null && [ -x "$TGT/mpi_sites_mt.mpich" ]; then
	mt_sites mpich mpirun.mpich
else
	ok "MPICH threads # SKIP no mpirun.mpich or $TGT/mpi_sites_mt.mpich"
fi

# a negative count is refused with one line
if [ -n "${J:-}" ]; then
	expect_fail 2 "--mpi-top of a negative count" "mpi-top" "$UPROF" report -i "$J" --mpi-top -1
fi
echo "1..$_n"
