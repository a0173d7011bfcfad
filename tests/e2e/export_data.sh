#!/usr/bin/env bash
# Issue 32: report --export sqlite and pprof. report.db in perf's export-to-sqlite.py
# schema: samples_view's samples per symbol equal those of perf's own exporter on the
# same samples.data (when perf's exporter and its Qt SQL driver are here); call_paths
# equal stacks.folded; uprof_tasks_view equals report.csv's task table. profile.pb.gz:
# `go tool pprof -top -noinlines` lists report.csv's functions with their sample counts.
. "$(dirname "$0")/lib/common.sh"

skipped=0
skip() { skipped=$((skipped + 1)); ok "# SKIP $*"; }
dq() { "$PYTHON" "$HERE/dataq.py" "$@"; }
PERF_SQL=/usr/lib/perf-core/scripts/python/export-to-sqlite.py
GO=$(command -v go || ls /usr/lib/go*/bin/go 2>/dev/null | head -1)

# nonempty_same A B: the files are equal and hold something (a helper that failed
# leaves both empty)
nonempty_same() { [ -s "$1" ] && cmp -s "$1" "$2" || { diff "$1" "$2" | head -5 | sed 's/^/# /'; return 1; }; }

# perf_db S: perf's exporter's database of $S/samples.data at $SCRATCH/perf.db, or fail
perf_db() {
	rm -f "$SCRATCH/perf.db"
	[ -r "$PERF_SQL" ] && command -v perf >/dev/null &&
		(cd "$SCRATCH" && timeout 300 perf script -i "$1/samples.data" -s "$PERF_SQL" \
			"$SCRATCH/perf.db" all calls callchains >/dev/null 2>&1) &&
		[ -s "$SCRATCH/perf.db" ]
}

# data NAME PERIOD_S: the checks on session $S
data() {
	local name=$1 period=$2 n
	timeout 120 "$UPROF" report -i "$S" --export sqlite,pprof,folded >/dev/null 2>"$SCRATCH/$name.err"
	check "$name: report --export sqlite,pprof exits 0" [ $? -eq 0 ]
	check "$name: the report names report.db" grep -q "Generated SQLite database file: $S/report.db" "$SCRATCH/$name.err"
	n=$(csvq "$S/report.csv" --key Samples)
	check "$name: samples (id > 0) count report.csv's $n samples" \
		[ "$(sqlite3 "$S/report.db" 'select count(*) from samples where id > 0')" = "$n" ]
	dq paths "$S/report.db" >"$SCRATCH/$name.paths"
	dq folded "$S/stacks.folded" >"$SCRATCH/$name.folded"
	check "$name: call_paths give stacks.folded's stacks and counts" \
		nonempty_same "$SCRATCH/$name.paths" "$SCRATCH/$name.folded"
	if perf_db "$S"; then
		local res dropped
		res=$(dq samples "$SCRATCH/perf.db" "$S/report.db")
		echo "$res" | sed 's/^/# /'
		dropped=$(csvq "$S/report.csv" --key "Samples In Pauses" 2>/dev/null | sed 's/ .*//')
		check "$name: each sample's symbol is perf's exporter's (or an alias of one address)" \
			bash -c "echo '$res' | head -1 | grep -q ' 0 differ$'"
		check "$name: perf's samples not in report.db are report.csv's samples in pauses (${dropped:-0})" \
			bash -c "echo '$res' | head -1 | grep -q ', ${dropped:-0} paused,'"
		check "$name: perf's samples_view query runs on report.db with the same columns" \
			[ "$(sqlite3 -header "$S/report.db" 'select * from samples_view limit 0' 2>&1)" = \
			  "$(sqlite3 -header "$SCRATCH/perf.db" 'select * from samples_view limit 0' 2>&1)" ]
	else
		skip "$name: perf's export-to-sqlite.py or its Qt SQL driver is missing (scripts/install-deps.sh)"
	fi
	if [ -n "$GO" ]; then
		"$GO" tool pprof -top -noinlines -nodefraction=0 -nodecount=1000000 -sample_index=samples \
			"$S/profile.pb.gz" >"$SCRATCH/$name.top" 2>"$SCRATCH/$name.toperr"
		check "$name: go tool pprof reads profile.pb.gz" [ $? -eq 0 ]
		dq pprof-flat "$SCRATCH/$name.top" >"$SCRATCH/$name.flat"
		"$GO" tool pprof -raw "$S/profile.pb.gz" >"$SCRATCH/$name.raw" 2>>"$SCRATCH/$name.toperr"
		dq pprof-self "$SCRATCH/$name.raw" >"$SCRATCH/$name.self"
		dq csvfuncs "$S/report.csv" "$period" >"$SCRATCH/$name.csvf"
		comm -23 "$SCRATCH/$name.csvf" "$SCRATCH/$name.self" | sed 's/^/# not in pprof: /'
		check "$name: report.csv's hottest functions are in pprof's, module and samples ($(wc -l <"$SCRATCH/$name.csvf"))" \
			bash -c "[ -s '$SCRATCH/$name.csvf' ] && [ -z \"\$(comm -23 '$SCRATCH/$name.csvf' '$SCRATCH/$name.self')\" ]"
		check "$name: pprof's samples sum to report.csv's" \
			[ "$(awk -F'\t' '{s += $2} END {print s}' "$SCRATCH/$name.flat")" = "$n" ]
	else
		skip "$name: go is missing: profile.pb.gz not read (scripts/install-deps.sh)"
	fi
}

# frame-pointer stacks, an inlined function among them
"$UPROF" collect -g -o "$SCRATCH/g" "$TGT/callgraph_fp" 1000 >/dev/null 2>&1
S=$(session_in "$SCRATCH/g")
data fp 0.001
check "fp: the chain's stack is a call path, perf's root first" \
	grep -q $'^__libc_start_call_main;main;chain_a;chain_b;chain_leaf\t' "$SCRATCH/fp.paths"
check "fp: dsos carry the program's build id" \
	[ "$(sqlite3 "$S/report.db" "select build_id from dsos where short_name = 'callgraph_fp'")" = \
	  "$(readelf -n "$TGT/callgraph_fp" | sed -n 's/.*Build ID: //p')" ]

# no stacks: every sample on call path 0, as perf's exporter writes it
"$UPROF" collect -o "$SCRATCH/n" "$TGT/demo" 300 >/dev/null 2>&1
S=$(session_in "$SCRATCH/n")
timeout 120 "$UPROF" report -i "$S" --export sqlite,pprof >/dev/null 2>&1
check "no-stacks: samples have call path 0" \
	[ "$(sqlite3 "$S/report.db" 'select count(*) from samples where call_path_id != 0')" = 0 ]
if perf_db "$S"; then
	check "no-stacks: each sample's symbol is perf's exporter's" \
		"$PYTHON" "$HERE/dataq.py" samples "$SCRATCH/perf.db" "$S/report.db"
else
	skip "no-stacks: perf's exporter missing"
fi

# dwarf stacks of several processes and threads
"$UPROF" collect --call-graph dwarf -o "$SCRATCH/d" "$TGT/multi" "$TGT/exec_child" "$TGT/libplugin.so" >/dev/null 2>&1
S=$(session_in "$SCRATCH/d")
data dwarf-multi 0.001
check "dwarf-multi: processes as report.csv's (no placeholder of pid -1)" \
	[ "$(sqlite3 "$S/report.db" 'select count(*) from uprof_processes where pid < 0')" = 0 ]
check "dwarf-multi: a thread row per sampled thread, each under its process's main thread" \
	[ "$(sqlite3 "$S/report.db" 'select count(*) from threads t where id > 0 and process_id not in (select id from threads where pid = tid and pid = t.pid)')" = 0 ]

# tasks: uprof_tasks_view against report.csv's task table
"$UPROF" collect -g -o "$SCRATCH/t" "$TGT/tasks" >/dev/null 2>&1
S=$(session_in "$SCRATCH/t")
data tasks 0.001
dq tasks "$S/report.db" >"$SCRATCH/tasks.db"
dq csvtasks "$S/report.csv" 0.001 >"$SCRATCH/tasks.csv"
check "tasks: uprof_tasks_view's count, elapsed and samples per task equal report.csv's" \
	nonempty_same "$SCRATCH/tasks.db" "$SCRATCH/tasks.csv"
check "tasks: pauses are rows of uprof_pauses" \
	[ "$(sqlite3 "$S/report.db" 'select count(*) from uprof_pauses')" -ge 1 ]

# an OpenMP session: uprof_openmp_slices' waits per type are the OpenMP WAITS table's
if [ -x "$TGT/omp_waits" ]; then
	KMP_BLOCKTIME=0 OMP_WAIT_POLICY=passive "$UPROF" collect --trace openmp --openmp-scope full \
		-o "$SCRATCH/o" "$TGT/omp_waits" >/dev/null 2>&1
	S=$(session_in "$SCRATCH/o")
	timeout 120 "$UPROF" report -i "$S" --export sqlite >/dev/null 2>&1
	"$PYTHON" - "$S/report.csv" "$S/report.db" >"$SCRATCH/omp.cmp" 2>&1 <<'PY'
import csv, sqlite3, sys
ls = open(sys.argv[1], newline="").read().split("\n")
i = next(i for i, l in enumerate(ls) if l.startswith("OpenMP WAITS"))
while not ls[i].startswith("Region,"):
    i += 1
hdr = next(csv.reader([ls[i]]))
rows = []
for l in ls[i + 1:]:
    if not l.strip():
        break
    r = dict(zip(hdr, next(csv.reader([l]))))
    if r["ThreadNum"] == "all":
        rows.append(r)
col = {"implicit barrier": "Implicit Barrier(seconds)", "explicit barrier": "Explicit Barrier(seconds)",
       "taskwait": "Taskwait(seconds)", "taskgroup": "Taskgroup(seconds)", "lock wait": "Lock(seconds)",
       "critical wait": "Critical(seconds)", "ordered wait": "Ordered(seconds)"}
db = sqlite3.connect(sys.argv[2])
bad = 0
for what, c in col.items():
    want = sum(float(r[c]) for r in rows)
    got = db.execute("select coalesce(sum(end_time - begin_time), 0) / 1e9 from uprof_openmp_slices"
                     " where kind = 2 and what = ?", (what,)).fetchone()[0]
    bad += abs(got - want) > 1e-6 * len(rows) + 1e-9
    print("%s: report.csv %.6f s, report.db %.6f s" % (what, want, got))
sys.exit(1 if bad or not rows else 0)
PY
	rc=$?
	sed 's/^/# /' "$SCRATCH/omp.cmp"
	check "openmp: uprof_openmp_slices' wait seconds per type are report.csv's OpenMP WAITS" [ $rc -eq 0 ]
else
	skip "openmp: clang or LLVM libomp missing: omp_waits not built"
fi

# the export goes beneath --export-dir's fd, written to a temporary file and renamed: a
# FIFO planted under its name is replaced, never opened (report would hang on it)
mkdir -p "$SCRATCH/out" && mkfifo "$SCRATCH/out/report.db"
timeout 60 "$UPROF" report -i "$S" --export sqlite --export-dir "$SCRATCH/out" >/dev/null 2>&1
check "a FIFO named report.db in --export-dir is replaced by the database, not written into" \
	bash -c "[ -f '$SCRATCH/out/report.db' ] && [ \"\$(sqlite3 '$SCRATCH/out/report.db' 'select count(*) from samples where id > 0')\" -ge 1 ]"

echo "# $skipped skipped"
echo "1..$_n"
