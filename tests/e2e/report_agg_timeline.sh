#!/usr/bin/env bash
# report --agg-interval reaches the timelines (issue 33): trace.json's counter tracks and
# report.html's Timeline use report.csv's SAMPLES PER INTERVAL buckets, on a real session
# of two events (cpu-clock and page-faults) of several processes and threads (multi).
# Every number is compared with what report.csv of the same run says, exactly: the
# process counters of a bucket sum to its row, a process's thread counters to its
# counter, the page's bars to the sort event's column; bucket starts are whole steps from
# the profile start (otherData's "start"); 0 or less is one bucket of the whole run;
# without the option nothing changes (no counter, the page's 300 even bins).
. "$(dirname "$0")/lib/common.sh"

"$UPROF" collect -e timer -e page-faults -o "$SCRATCH/s" \
	"$TGT/multi" "$TGT/exec_child" "$TGT/libplugin.so" >/dev/null 2>&1
S=$(session_in "$SCRATCH/s")
check "a session of CPU_TIME and page-faults" grep -q "^name = page-faults" "$S/session.ini"

# rep NAME ARGS...: report.csv, trace.json and report.html of one report, kept as NAME.*
rep() {
	local out=$1; shift
	"$UPROF" report -i "$S" --cutoff 0 --report-output "$SCRATCH/$out.csv" \
		--export perfetto,html "$@" >/dev/null 2>"$SCRATCH/$out.err"
	local rc=$?
	cp "$S/trace.json" "$SCRATCH/$out.json" && cp "$S/report.html" "$SCRATCH/$out.html" &&
		[ $rc -eq 0 ]
}
check "--agg-interval 100 --export perfetto,html exits 0" rep a100 --agg-interval 100
check "--agg-interval 0 exits 0" rep a0 --agg-interval 0
check "--agg-interval -5 exits 0" rep aneg --agg-interval=-5
check "--agg-interval 1 exits 0" rep a1 --agg-interval 1
check "-s page-faults --agg-interval 100 exits 0" rep pf --agg-interval 100 -s page-faults
check "no --agg-interval exits 0" rep none

cat >"$SCRATCH/facts.py" <<'PY'
import collections, csv, json, re, sys
d, name, check = sys.argv[1], sys.argv[2], sys.argv[3]
def rows():  # SAMPLES PER INTERVAL: the step (ms, None: whole run), header, rows
    ls = open(f"{d}/{name}.csv", newline="").read().split("\n")
    i = next(i for i, l in enumerate(ls) if "SAMPLES PER INTERVAL" in l)
    m = re.search(r"Interval - ([0-9.]+) ms", ls[i])
    hdr = next(csv.reader([ls[i + 1]]))
    out, j = [], i + 2
    while j < len(ls) and ls[j].strip():
        out.append([int(x) for x in next(csv.reader([ls[j]]))[2:]]); j += 1
    return (float(m.group(1)) if m else None), hdr[2:], out
def trace():
    return json.load(open(f"{d}/{name}.json"))
def page():
    t = open(f"{d}/{name}.html", encoding="utf-8").read()
    m = re.search(r'<script type="application/json" id="data">(.*?)</script>', t, re.S)
    return json.loads(m.group(1))["timeline"]
def fail(*why):
    print(*why, file=sys.stderr); sys.exit(1)
def series(tr):  # (pid, counter name) -> [(ts, args)] in file order
    s = collections.defaultdict(list)
    for e in tr["traceEvents"]:
        if e["ph"] == "C":
            s[(e["pid"], e["name"])].append((e["ts"], e["args"]))
    return s
def buckets(tr, step_us, cols, want_thread):
    """Each series' values by bucket index, checked on the way: starts on whole steps
    from the profile start, the same arguments (the CSV's columns) every time, a last
    value of all zeros that closes it"""
    start = tr["otherData"]["agg_interval"]["start"]
    out = {}
    for (pid, n), evs in series(tr).items():
        if (", thread " in n) != want_thread:
            continue
        by = {}
        if any(x[0] >= y[0] for x, y in zip(evs, evs[1:])):
            fail(n, "times do not go forward")
        for k, (ts, args) in enumerate(evs):
            if list(args) != cols:
                fail(n, "arguments", list(args), "not the CSV's columns", cols)
            if k == len(evs) - 1:
                if any(args.values()):
                    fail(n, "does not end with 0:", args)
                continue
            b = (ts - start) / step_us if step_us else 0
            if abs(b - round(b)) > 1e-6 * max(1, b) or (not step_us and ts != start):
                fail(n, "a value at", ts, "not on a bucket start from", start)
            by[round(b)] = [args[c] for c in cols]
        out[(pid, n)] = by
    return out
def sums(per):  # bucket -> summed values over series
    tot = collections.defaultdict(lambda: None)
    for by in per.values():
        for b, v in by.items():
            tot[b] = v if tot[b] is None else [x + y for x, y in zip(tot[b], v)]
    return tot
tr = trace()
step, cols, rs = rows() if check != "none" else (None, [], [])
step_us = step * 1000 if step else 0
if check == "trace":  # the process counters of each bucket sum to its CSV row
    other = tr["otherData"]["agg_interval"]
    if other["buckets"] != len(rs) or other["ms"] != (step or 0) or other["past_last_bucket"]:
        fail("otherData", other, "rows", len(rs))
    procs = buckets(tr, step_us, cols, False)
    tot = sums(procs)
    for b, row in enumerate(rs):
        got = tot[b] if tot[b] is not None else [0] * len(cols)
        if got != row:
            fail("bucket", b, "counters", got, "report.csv", row)
    if max(tot) >= len(rs):
        fail("a counter past the last row", max(tot))
    print(len(procs), "processes,", len(rs), "buckets")
elif check == "threads":  # a process of several threads: its threads' counters sum to its own
    procs = buckets(tr, step_us, cols, False)
    threads = buckets(tr, step_us, cols, True)
    by_pid = collections.defaultdict(dict)
    for (pid, n), by in threads.items():
        by_pid[pid][n] = by
    if not by_pid:
        fail("no thread counters")
    for pid, ts in by_pid.items():
        if len(ts) < 2:
            fail(pid, "one thread's counter: the process's says it")
        tot = sums(ts)
        (pn, pby), = [(n, by) for (p, n), by in procs.items() if p == pid]
        for b in set(tot) | set(pby):
            z = [0] * len(cols)
            if (tot[b] or z) != pby.get(b, z):
                fail(pid, "bucket", b, "threads", tot[b], "process", pby.get(b))
    print(sum(len(t) for t in by_pid.values()), "thread counters in", len(by_pid), "processes")
elif check == "page":  # the Timeline's bars: the sort event's column, per_bin buckets a bin
    t = page()
    a = t.get("agg")
    if not a or a["ms"] != (step or 0) or a["unit"] != ("events" if "(events)" in cols[0] else "samples"):
        fail("agg", a)
    k = a["per_bin"]
    if t["bins"] > 2400 or k < -(-len(rs) // 2400):  # the fewest whole buckets a bin
        fail(t["bins"], "bins of", k, "buckets for", len(rs), "rows")
    width = t["span"] / t["bins"]
    if step_us and abs(width - step_us * k) > 0.05:
        fail("a bin of", width, "us, not", k, "x", step_us)
    if t["left_out"]["threads"]:
        fail("threads left out: their bars are not in the sums")
    bars = [sum(th["d"][b] for th in t["threads"]) for b in range(t["bins"])]
    want = [sum(r[0] for r in rs[b * k:(b + 1) * k]) for b in range(t["bins"])]
    if bars != want:
        fail("bars", bars[:20], "column", want[:20])
    print(t["bins"], "bins of", k, "buckets, sum", sum(bars))
elif check == "none":  # without the option: no counter, no "agg", 300 even bins
    t = page()
    c = sum(1 for e in tr["traceEvents"] if e["ph"] == "C")
    if c or "agg_interval" in tr["otherData"] or "agg" in t or t["bins"] != 300:
        fail(c, "counters;", tr["otherData"].get("agg_interval"), t.get("agg"), t["bins"])
PY
fact() { "$PYTHON" "$SCRATCH/facts.py" "$SCRATCH" "$@" >"$SCRATCH/fact.out" 2>&1; local rc=$?; cat "$SCRATCH/fact.out" >&2; return $rc; }
check "trace.json, --agg-interval 100: process counters on 100 ms steps from the profile start sum to SAMPLES PER INTERVAL's rows, each event" fact a100 trace
check "trace.json, --agg-interval 100: a process's thread counters sum to its own counter" fact a100 threads
check "report.html, --agg-interval 100: a Timeline bin is one 100 ms bucket; the bars sum to CPU_TIME's column" fact a100 page
nsamp=$("$PYTHON" -c 'import json,sys; print(sum(e["ph"] == "i" and e.get("cat") == "sample" for e in json.load(open(sys.argv[1]))["traceEvents"]))' "$SCRATCH/a100.json")
check "trace.json, --agg-interval 100: valid, every track in time order, counters included ($nsamp samples)" \
	"$PYTHON" "$HERE/stacks.py" trace "$SCRATCH/a100.json" "$nsamp"
check "trace.json, --agg-interval 0: one value a process at the profile start, summing to the whole run's row" fact a0 trace
check "report.html, --agg-interval 0: one bin of the whole run" fact a0 page
check "trace.json, --agg-interval -5: the whole run, as 0" fact aneg trace
check "trace.json, --agg-interval 1: 1 ms buckets sum to their rows" fact a1 trace
check "report.html, --agg-interval 1: at most 2400 bins, each the fewest whole 1 ms buckets (2 past 2400 rows), summing to theirs" fact a1 page
check "-s page-faults --agg-interval 100: the page's bars are page-faults events, its column" fact pf page
check "-s page-faults --agg-interval 100: page-faults is the counters' first argument, summing to its column" fact pf trace
check "without --agg-interval: no counter track, the Timeline's 300 even bins" fact none none
check_sh "--agg-interval -5: report.csv says the whole run" \
	'grep -q "SAMPLES PER INTERVAL (Interval - the whole run)" "$SCRATCH/aneg.csv"'
# the page itself: its script runs clean and the Timeline's legend names the bucket and unit
CHROME=$(command -v chromium || command -v chromium-browser || true)
export HOME=$SCRATCH XDG_CONFIG_HOME=$SCRATCH/.config XDG_CACHE_HOME=$SCRATCH/.cache
legend() { # NAME WANT: the page's DOM after its script ran has the legend WANT, no console line
	timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$SCRATCH/chrome" --virtual-time-budget=5000 --enable-logging=stderr \
		--v=0 --dump-dom "file://$SCRATCH/$1.html?all" >"$SCRATCH/$1.dom" 2>"$SCRATCH/$1.console"
	grep -q 'data-ready="1"' "$SCRATCH/$1.dom" && ! grep -qiE 'CONSOLE|Uncaught' "$SCRATCH/$1.console" &&
		grep -qF "$2" "$SCRATCH/$1.dom"
}
if [ -z "$CHROME" ]; then
	ok "the Timeline's legend in Chromium # SKIP chromium is not installed (scripts/install-deps.sh installs it)"
else
	check "report.html, --agg-interval 100: the Timeline's legend says 'samples per 100 ms (--agg-interval)', no console message" \
		legend a100 "samples per 100 ms (--agg-interval)"
	check "report.html, -s page-faults --agg-interval 100: 'events per 100 ms (--agg-interval)'" \
		legend pf "events per 100 ms (--agg-interval)"
fi
# an MPI job's report has its buckets per rank (job_intervals.sh checks them); a rank's
# own session has its timelines
if command -v mpirun >/dev/null && [ -x "$TGT/mpi_p2p.openmpi" ]; then
	timeout 300 mpirun --allow-run-as-root --oversubscribe -np 4 "$UPROF" collect --trace mpi \
		-o "$SCRATCH/m" "$TGT/mpi_p2p.openmpi" >"$SCRATCH/m.log" 2>&1
	J=$(session_in "$SCRATCH/m")
	check "--agg-interval over an MPI job: SAMPLES PER INTERVAL with a column per rank" \
		bash -c "'$UPROF' report -i '$J' --agg-interval 100 >/dev/null 2>&1 &&
			grep -qx 'INTERVAL START (seconds),INTERVAL END (seconds),\"CPU_TIME (samples)\",RANK 0,RANK 1,RANK 2,RANK 3' '$J/report.csv'"
	S0=$S S=$J/rank-1
	check "a rank's session takes it: report -i JOB/rank-1 --agg-interval 100" \
		rep rank --agg-interval 100
	check "trace.json of the rank: its counters sum to its SAMPLES PER INTERVAL" fact rank trace
	S=$S0
else
	ok "--agg-interval over an MPI job # SKIP Open MPI's mpirun or mpi_p2p.openmpi is missing"
fi
expect_fail 2 "--agg-interval 1.5: not a whole number" "^uprof report: --agg-interval '1.5': give milliseconds" \
	"$UPROF" report -i "$S" --agg-interval 1.5 --export perfetto
echo "# report_agg_timeline.sh done"
