#!/usr/bin/env bash
# Issue 29, Must show 5: `collect --trace mpi=full` records every MPI call, and trace.json
# (report --export perfetto) of the job has a process per rank, each call a slice on its
# thread's track and each message a flow from the call that sent it to the call where it
# arrived. tests/targets/mpi_trace.c on 4 ranks, Open MPI and MPICH (each family missing
# here is skipped, counted, with the reason): the slices per function per rank and the
# messages are the program's, exactly; the long blocking receive's slice is the program's
# own timing of it (within 10 %); the interposer's cap counts what it drops. MPI_Init and
# MPI_Finalize are slices too (the first and last of a rank). Persistent requests
# (tests/targets/mpi_persist.c): each start's message a flow to the Wait that completed it,
# exactly one per round per pair and tag.
. "$(dirname "$0")/lib/common.sh"

OMPIRUN=(mpirun --allow-run-as-root --oversubscribe)
ITER=3 LONG_MS=300
q() { "$PYTHON" "$HERE/mpitraceq.py" "$@"; }
one_job() { local d; d=$(ls -d "$1"/uprof-*-HPC_MPI_* 2>/dev/null); [ "$(echo "$d" | grep -c .)" -eq 1 ] && echo "$d"; }

# The program's calls per rank (mpi_trace.c's comment): "rank function count"
want_counts() {
	for r in 0 1 2 3; do
		printf '%s\n' "$r MPI_Barrier 1" "$r MPI_Bcast 1" "$r MPI_Finalize 1" "$r MPI_Init 1" \
			"$r MPI_Irecv $ITER" "$r MPI_Isend $ITER" \
			"$r MPI_Recv $((ITER + (r == 1)))" "$r MPI_Send $((ITER + (r == 0)))" "$r MPI_Waitall $ITER"
	done
}
# Its messages: "src dst tag sender#n receiver#n source causal" (source: the receive's
# status, "-" where a Waitall completed it), sorted
want_flows() {
	for r in 0 1 2 3; do
		for i in $(seq 0 $((ITER - 1))); do
			echo "$r $(((r + 1) % 4)) $((10 + i)) MPI_Send#$i MPI_Recv#$i $r 1"
			echo "$r $((r ^ 1)) $((20 + i)) MPI_Isend#$i MPI_Waitall#$i - 1"
		done
	done
	echo "0 1 99 MPI_Send#$ITER MPI_Recv#$ITER 0 1"
}

family() { # NAME TARGET LAUNCHER...
	local fam=$1 tgt=$2 J T long dur; shift 2
	timeout 300 "$@" -np 4 "$UPROF" collect --trace mpi=full -o "$SCRATCH/$fam" \
		"$tgt" "$LONG_MS" >"$SCRATCH/$fam.log" 2>&1
	check "$fam: 4 ranks under collect --trace mpi=full exit 0" [ $? -eq 0 ]
	J=$(one_job "$SCRATCH/$fam")
	[ -n "$J" ] || { not_ok "$fam: no job directory ($(tail -3 "$SCRATCH/$fam.log"))"; return; }
	check "$fam: every rank wrote its events file (mpi/<pid>.mpiev)" \
		[ "$(ls "$J"/rank-*/mpi/*.mpiev 2>/dev/null | grep -c .)" -eq 4 ]
	"$UPROF" report -i "$J" --export perfetto >"$SCRATCH/$fam.rep" 2>&1
	check "$fam: report --export perfetto over the job exits 0" [ $? -eq 0 ]
	T=$J/trace.json
	check "$fam: report names trace.json and what it shows" \
		grep -q "Generated trace file: $T (78 MPI calls, 25 messages)" "$SCRATCH/$fam.rep"
	check "$fam: trace.json is JSON" "$PYTHON" -c "import json,sys; json.load(open(sys.argv[1]))" "$T"

	# a process per rank, "rank N (host, pid)": the program's pid, its session's
	q procs "$T" >"$SCRATCH/$fam.procs"
	for r in 0 1 2 3; do
		pid=$(sed -n 's/^pids = //p' "$J/rank-$r/session.ini")
		check "$fam: rank $r's track: \"rank $r ($(hostname), $pid)\", its program's pid" \
			grep -qx "$r $(hostname) $pid $pid" "$SCRATCH/$fam.procs"
	done
	q counts "$T" >"$SCRATCH/$fam.counts"
	want_counts >"$SCRATCH/want.counts"
	check "$fam: slices per function per rank are the program's calls ($(tr '\n' ';' <"$SCRATCH/$fam.counts"))" \
		diff "$SCRATCH/want.counts" "$SCRATCH/$fam.counts"
	q flows "$T" | sort >"$SCRATCH/$fam.flows"
	want_flows | sort >"$SCRATCH/want.flows"
	check "$fam: one flow per message, each from its sender's call to the receiver's call where it arrived ($(grep -c . "$SCRATCH/$fam.flows") flows)" \
		diff "$SCRATCH/want.flows" "$SCRATCH/$fam.flows"
	check "$fam: the ring's MPI_ANY_SOURCE receives name the sender (the status's)" \
		[ "$(awk '$3>=10 && $3<20 && $6!=$1' "$SCRATCH/$fam.flows" | grep -c .)" -eq 0 ]
	check "$fam: otherData: 78 slices, 25 messages, none unmatched" [ "$(q other "$T" mpi)" = \
		'{"ranks_with_events": 4, "slices": 78, "messages": 25, "unmatched_sends": 0, "unmatched_receives": 0, "completions_unlinked": 0, "not_recorded": {"events_past_the_cap": 0, "calls_unfinished_at_the_flush": 0}}' ]

	# the long receive: the slice is the program's own timing of its MPI_Recv
	long=$(sed -n 's/^long_recv_ns //p' "$SCRATCH/$fam.log")
	dur=$(q dur "$T" 1 MPI_Recv 99)
	check "$fam: rank 1's long MPI_Recv slice ($dur ns) is its own timing ($long ns) within 10 %" \
		"$PYTHON" -c "import sys; a,b=float(sys.argv[1]),float(sys.argv[2]); sys.exit(0 if b>0 and abs(a-b)<=0.1*b else 1)" \
		"${dur:-0}" "${long:-0}"

	# a rank's own session: its MPI slices beside its samples
	"$UPROF" report -i "$J/rank-1" --export perfetto >/dev/null 2>&1
	check "$fam: report --export perfetto over rank-1 alone exits 0" [ $? -eq 0 ]
	check "$fam: rank-1's trace.json has its 20 MPI calls, on the track of its sampled main thread" "$PYTHON" -c "
import json,sys; d=json.load(open(sys.argv[1])); ev=d['traceEvents']
m=[e for e in ev if e.get('cat')=='mpi' and e['ph']=='X']
s=[e for e in ev if e.get('cat')=='sample']
main=[e for e in s if e['tid']==e['pid']]
sys.exit(0 if len(m)==20 and main and all(e['args']['rank']==1 and (e['pid'],e['tid'])==(main[0]['pid'],main[0]['tid']) for e in m)
	 and d['otherData']['mpi']['slices']==20 else 1)" "$J/rank-1/trace.json"

	# other exports still take one session
	expect_fail 2 "$fam: --export folded over a job" "--export folded takes one session" \
		"$UPROF" report -i "$J" --export folded

	# 3000 rounds: 21,000 events a rank, past the interposer's buffer of 1,024 (written
	# out as it fills, reused): as exact across its chunks
	ITER=3000
	timeout 600 "$@" -np 4 "$UPROF" collect --trace mpi=full -o "$SCRATCH/$fam-long" \
		"$tgt" 10 $ITER >"$SCRATCH/$fam-long.log" 2>&1
	check "$fam: $ITER rounds under collect --trace mpi=full exit 0" [ $? -eq 0 ]
	J=$(one_job "$SCRATCH/$fam-long")
	"$UPROF" report -i "$J" --export perfetto >/dev/null 2>&1
	q counts "$J/trace.json" >"$SCRATCH/$fam.counts"
	want_counts >"$SCRATCH/want.counts"
	check "$fam: $ITER rounds: slices per function per rank are the program's calls" \
		diff "$SCRATCH/want.counts" "$SCRATCH/$fam.counts"
	q flows "$J/trace.json" | sort >"$SCRATCH/$fam.flows"
	want_flows | sort >"$SCRATCH/want.flows"
	check "$fam: $ITER rounds: one flow per message, from the right call to the right call ($(grep -c . "$SCRATCH/$fam.flows") flows)" \
		diff -q "$SCRATCH/want.flows" "$SCRATCH/$fam.flows"
	ITER=3
}

# persistent requests (mpi_persist.c's comment): ROUNDS rounds, each rank sending one
# message of each tag a round; "src dst tag sender#n receiver#n source causal"
PROUNDS=4
want_persist_flows() {
	local r i p n
	for r in 0 1 2 3; do
		p=$((r ^ 1)) n=$(((r + 1) % 4))
		for i in $(seq 0 $((PROUNDS - 1))); do
			echo "$r $p 40 MPI_Startall#$i MPI_Waitall#$((2 * i)) - 1"
			echo "$r $n 50 MPI_Start#$((6 * i + 1)) MPI_Wait#$((4 * i)) - 1"
			echo "$r $p 60 MPI_Start#$((6 * i + 3)) MPI_Waitall#$((2 * i + 1)) - 1"
			echo "$r $n 70 MPI_Start#$((6 * i + 5)) MPI_Wait#$((4 * i + 3)) - 1"
		done
	done
}
persist_family() { # NAME TARGET LAUNCHER...
	local fam=$1 tgt=$2 J T; shift 2
	timeout 300 "$@" -np 4 "$UPROF" collect --trace mpi=full -o "$SCRATCH/p-$fam" \
		"$tgt" $PROUNDS >"$SCRATCH/p-$fam.log" 2>&1
	check "$fam persistent: 4 ranks under collect --trace mpi=full exit 0" [ $? -eq 0 ]
	J=$(one_job "$SCRATCH/p-$fam")
	[ -n "$J" ] || { not_ok "$fam persistent: no job directory ($(tail -3 "$SCRATCH/p-$fam.log"))"; return; }
	"$UPROF" report -i "$J" --export perfetto >"$SCRATCH/p-$fam.rep" 2>&1
	T=$J/trace.json
	check "$fam persistent: report names trace.json, $((4 * 4 * PROUNDS)) messages" \
		grep -q "Generated trace file: $T (.* MPI calls, $((4 * 4 * PROUNDS)) messages)" "$SCRATCH/p-$fam.rep"
	q counts "$T" >"$SCRATCH/p-$fam.counts"
	for r in 0 1 2 3; do
		printf '%s\n' "$r MPI_Barrier $PROUNDS" "$r MPI_Bsend_init 1" "$r MPI_Finalize 1" \
			"$r MPI_Init 1" "$r MPI_Recv_init 4" "$r MPI_Rsend_init 1" "$r MPI_Send_init 1" \
			"$r MPI_Ssend_init 1" "$r MPI_Start $((6 * PROUNDS))" "$r MPI_Startall $PROUNDS" \
			"$r MPI_Wait $((4 * PROUNDS))" "$r MPI_Waitall $((2 * PROUNDS))"
	done >"$SCRATCH/p-want.counts"
	check "$fam persistent: slices per function per rank are the program's calls, MPI_Startall one slice" \
		diff "$SCRATCH/p-want.counts" "$SCRATCH/p-$fam.counts"
	q flows "$T" | sort >"$SCRATCH/p-$fam.flows"
	want_persist_flows | sort >"$SCRATCH/p-want.flows"
	check "$fam persistent: each start's message a flow to the Wait/Waitall that completed its receive, $PROUNDS per pair and tag, round by round ($(grep -c . "$SCRATCH/p-$fam.flows") flows)" \
		diff "$SCRATCH/p-want.flows" "$SCRATCH/p-$fam.flows"
	check "$fam persistent: otherData: none unmatched, none unlinked" \
		[ "$(q other "$T" mpi unmatched_sends) $(q other "$T" mpi unmatched_receives) $(q other "$T" mpi completions_unlinked)" = "0 0 0" ]
	# MPI_Init and MPI_Finalize: each rank's first and last slice, the Init slice as long
	# as the job report's MPI_Init time of that rank (the same interval, two clock reads
	# microseconds apart; the per-rank tables are --detail's)
	"$UPROF" report -i "$J" --detail >/dev/null 2>&1
	"$PYTHON" - "$T" "$J/report.csv" <<-'PY' >"$SCRATCH/p-$fam.life"
		import json, sys
		ev = json.load(open(sys.argv[1]))["traceEvents"]
		def table(title):
		    rows, on, hdr = [], False, False
		    for l in open(sys.argv[2]):
		        l = l.rstrip(chr(10))
		        if l == title: on = hdr = True; continue
		        if on and hdr: hdr = False; continue
		        if on and not l: break
		        if on: rows.append(l.split(", "))
		    return rows
		for r in range(4):
		    m = sorted((e for e in ev if e.get("cat") == "mpi" and e["ph"] == "X" and e["args"]["rank"] == r), key=lambda e: e["ts"])
		    init = {f[0]: float(f[2]) for f in table("MPI FUNCTION SUMMARY TABLE (Rank %d)" % r)}.get("MPI_Init", -1)
		    near = abs(m[0]["dur"] / 1e6 - init) <= 0.05 * init + 0.001
		    print(r, m[0]["name"], m[-1]["name"], "near" if near else "%s!=%s" % (m[0]["dur"] / 1e6, init))
	PY
	check "$fam: MPI_Init each rank's first slice, as long as its MPI_Init time, MPI_Finalize its last ($(tr '\n' ';' <"$SCRATCH/p-$fam.life"))" \
		[ "$(cat "$SCRATCH/p-$fam.life")" = "$(for r in 0 1 2 3; do echo "$r MPI_Init MPI_Finalize near"; done)" ]
}

if command -v mpirun >/dev/null && [ -x "$TGT/mpi_persist.openmpi" ]; then
	persist_family openmpi "$TGT/mpi_persist.openmpi" "${OMPIRUN[@]}"
else
	ok "Open MPI persistent requests # SKIP no mpirun or $TGT/mpi_persist.openmpi (scripts/install-deps.sh)"
fi
if command -v mpirun.mpich >/dev/null && [ -x "$TGT/mpi_persist.mpich" ]; then
	persist_family mpich "$TGT/mpi_persist.mpich" mpirun.mpich
else
	ok "MPICH persistent requests # SKIP no mpirun.mpich or $TGT/mpi_persist.mpich (scripts/install-deps.sh)"
fi

if command -v mpirun >/dev/null && [ -x "$TGT/mpi_trace.openmpi" ]; then
	family openmpi "$TGT/mpi_trace.openmpi" "${OMPIRUN[@]}"
else
	ok "Open MPI trace # SKIP no mpirun or $TGT/mpi_trace.openmpi (scripts/install-deps.sh)"
fi
if command -v mpirun.mpich >/dev/null && [ -x "$TGT/mpi_trace.mpich" ]; then
	family mpich "$TGT/mpi_trace.mpich" mpirun.mpich
else
	ok "MPICH trace # SKIP no mpirun.mpich or $TGT/mpi_trace.mpich (scripts/install-deps.sh)"
fi

# a rank ended by SIGTERM in its long MPI_Recv: its interposer's handler writes its events
# up to then (async-signal-safe), and the trace shows them, the rank named partial
if command -v mpirun >/dev/null && [ -x "$TGT/mpi_trace.openmpi" ]; then
	timeout 300 "${OMPIRUN[@]}" --mca odls_base_sigkill_timeout 10 -np 4 "$UPROF" collect \
		--trace mpi=full -o "$SCRATCH/term" "$TGT/mpi_trace.openmpi" 60000 >"$SCRATCH/term.log" 2>&1 &
	job=$! r1=
	for n in $(seq 1 240); do # rank 1's program, by its launcher's rank variable
		for p in $(pgrep -f "^$TGT/mpi_trace.openmpi 60000"); do
			tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx OMPI_COMM_WORLD_RANK=1 && r1=$p
		done
		[ -n "$r1" ] && break
		sleep 0.5
	done
	sleep 8 # past its 17 calls before the long receive (rank 0 sleeps 60 s before sending)
	[ -n "$r1" ] && kill -TERM "$r1"
	wait $job
	J=$(one_job "$SCRATCH/term")
	"$UPROF" report -i "$J" --export perfetto >"$SCRATCH/term.rep" 2>&1
	check "SIGTERM: rank 1 ($r1) left its events file" [ -n "$r1" -a -s "$J/rank-1/mpi/$r1.mpiev" ]
	check "SIGTERM: rank 1's 17 calls before its long MPI_Recv and its MPI_Init are in the trace" \
		[ "$(q counts "$J/trace.json" | awk '$1==1{s+=$3} END{print s+0}')" -eq 18 ]
	check "SIGTERM: otherData names rank 1 flushed by the signal" \
		"$PYTHON" -c "import json,sys; d=json.load(open(sys.argv[1]))['otherData']['mpi']
sys.exit(0 if {'rank': 1, 'flushed_by': 'signal'} in d.get('ranks_partial', []) else 1)" "$J/trace.json"
else
	ok "a rank ended by SIGTERM # SKIP no mpirun or $TGT/mpi_trace.openmpi"
fi

# MPI_THREAD_MULTIPLE: two threads a rank record at once; each message ends in the
# MPI_Wait of the thread that posted its receive
if command -v mpirun >/dev/null && [ -x "$TGT/mpi_trace_mt.openmpi" ]; then
	timeout 300 "${OMPIRUN[@]}" -np 2 "$UPROF" collect --trace mpi=full -o "$SCRATCH/mt" \
		"$TGT/mpi_trace_mt.openmpi" >"$SCRATCH/mt.log" 2>&1
	check "MPI_THREAD_MULTIPLE: 2 ranks x 2 threads exit 0" [ $? -eq 0 ]
	J=$(one_job "$SCRATCH/mt")
	"$UPROF" report -i "$J" --export perfetto >/dev/null 2>&1
	q flows "$J/trace.json" | awk '{print $1, $2, $3, $4, $5, $7}' | sed 's/#[0-9]*//g' | sort | uniq -c |
		awk '{$1=$1; print}' >"$SCRATCH/mt.flows"
	check "MPI_THREAD_MULTIPLE: 100 messages a tag, each from an MPI_Send to an MPI_Wait, after it ($(tr '\n' ';' <"$SCRATCH/mt.flows"))" \
		[ "$(cat "$SCRATCH/mt.flows" | tr '\n' ';')" = "100 0 1 0 MPI_Send MPI_Wait 1;100 0 1 1 MPI_Send MPI_Wait 1;" ]
	check "MPI_THREAD_MULTIPLE: each receiving thread's 100 MPI_Irecv and 100 MPI_Wait on its own track, MPI_Init_thread and MPI_Finalize on the main thread's" "$PYTHON" -c "
import json,sys; ev=json.load(open(sys.argv[1]))['traceEvents']
m=[e for e in ev if e.get('cat')=='mpi' and e['ph']=='X' and e['args']['rank']==1]
life=sorted((e['name'], e['tid']==e['pid']) for e in m if e['name'] in ('MPI_Init_thread','MPI_Finalize'))
by={}
for e in m:
    if e['name'] not in ('MPI_Init_thread','MPI_Finalize'): by.setdefault(e['tid'],[]).append(e['name'])
sys.exit(0 if life==[('MPI_Finalize',True),('MPI_Init_thread',True)] and len(by)==2 and all(sorted(set(v))==['MPI_Irecv','MPI_Wait'] and v.count('MPI_Wait')==100 for v in by.values()) else 1)" "$J/trace.json"
else
	ok "MPI_THREAD_MULTIPLE trace # SKIP no mpirun or $TGT/mpi_trace_mt.openmpi"
fi

# the cap: 10 events a rank, the rest counted, never waited for; lwt records none
if command -v mpirun >/dev/null && [ -x "$TGT/mpi_trace.openmpi" ]; then
	UPROF_MPI_EVENTS=10 timeout 300 "${OMPIRUN[@]}" -x UPROF_MPI_EVENTS -np 4 "$UPROF" collect \
		--trace mpi=full -o "$SCRATCH/cap" "$TGT/mpi_trace.openmpi" 50 >"$SCRATCH/cap.log" 2>&1
	check "cap 10: the job exits 0" [ $? -eq 0 ]
	J=$(one_job "$SCRATCH/cap")
	"$UPROF" report -i "$J" --export perfetto >"$SCRATCH/cap.rep" 2>&1
	# a rank's first 10 events: MPI_Init, Send, Recv, Irecv, Isend, Waitall and its 2
	# completions, Send, Recv (8 calls); past them its 11 (ranks 2, 3: Irecv, Isend,
	# Waitall, 2 rounds of 4 calls, Bcast, Barrier, Finalize) or 12 (0, 1: the long Send or
	# Recv) other calls (a request posted past the cap is not followed): 46 in all
	check "cap 10: 8 slices a rank kept, the other 46 events counted as past the cap" \
		[ "$(q other "$J/trace.json" mpi slices) $(q other "$J/trace.json" mpi not_recorded events_past_the_cap)" = "32 46" ]
	check "cap 10: report says the events it dropped" \
		grep -q "interposers dropped 46 events (calls and request completions) past their cap" "$SCRATCH/cap.rep"
	# a cap in the second of the interposer's 1,024-event chunks (the first written out as
	# it filled, the inline path's bound moved to the cap): MPI_Init and 300 rounds of 7
	# events; a rank's first 1500 are MPI_Init, 214 whole rounds and the next round's first
	# call (an even rank's Send, an odd rank's Recv), its 1072 calls kept; past them 432
	# calls (433: ranks 0 and 1's long Send and Recv), no request of theirs posted before
	# the cap
	UPROF_MPI_EVENTS=1500 timeout 300 "${OMPIRUN[@]}" -x UPROF_MPI_EVENTS -np 4 "$UPROF" collect \
		--trace mpi=full -o "$SCRATCH/cap2" "$TGT/mpi_trace.openmpi" 10 300 >"$SCRATCH/cap2.log" 2>&1
	check "cap 1500: the job exits 0" [ $? -eq 0 ]
	J=$(one_job "$SCRATCH/cap2")
	"$UPROF" report -i "$J" --export perfetto >"$SCRATCH/cap2.rep" 2>&1
	check "cap 1500: 1072 slices a rank kept, the other 1730 calls counted as past the cap" \
		[ "$(q other "$J/trace.json" mpi slices) $(q other "$J/trace.json" mpi not_recorded events_past_the_cap)" = "4288 1730" ]
	q counts "$J/trace.json" >"$SCRATCH/cap2.counts"
	for r in 0 1 2 3; do
		printf '%s\n' "$r MPI_Init 1" "$r MPI_Irecv 214" "$r MPI_Isend 214" \
			"$r MPI_Recv $((214 + r % 2))" "$r MPI_Send $((215 - r % 2))" "$r MPI_Waitall 214"
	done >"$SCRATCH/cap2.want"
	check "cap 1500: the slices kept per function per rank are the program's first calls, across the chunk" \
		diff "$SCRATCH/cap2.want" "$SCRATCH/cap2.counts"
	timeout 300 "${OMPIRUN[@]}" -np 4 "$UPROF" collect --trace mpi=lwt -o "$SCRATCH/lwt" \
		"$TGT/mpi_trace.openmpi" 50 >"$SCRATCH/lwt.log" 2>&1
	J=$(one_job "$SCRATCH/lwt")
	check "lwt: no events file, the aggregates only" \
		[ "$(ls "$J"/rank-*/mpi/*.mpiev 2>/dev/null | grep -c .) $(ls "$J"/rank-*/mpi/*.mpi | grep -c .)" = "0 4" ]
	"$UPROF" report -i "$J" --export perfetto >"$SCRATCH/lwt.rep" 2>&1
	check "lwt: the job's trace says it has no MPI call and why" \
		grep -q "collect with --trace mpi=full" "$SCRATCH/lwt.rep"
	check "lwt: otherData names each rank without events" \
		[ "$(q other "$J/trace.json" mpi ranks_without_events | grep -o '"rank"' | grep -c .)" -eq 4 ]
else
	ok "the events cap # SKIP no mpirun or $TGT/mpi_trace.openmpi"
fi
echo "1..$_n"
