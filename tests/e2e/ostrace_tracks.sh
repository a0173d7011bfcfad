#!/usr/bin/env bash
# trace.json of a --trace os session (report --export perfetto): per traced thread a
# "(states)" track of Running / Runnable / Blocked: KIND slices back to back and a
# "(system calls)" track with a slice per call. On the known-answer program
# (tests/targets/ostrace_waits.c) the state slices of each thread add up to its THREAD
# STATES row of report.csv (to the microsecond report.csv prints), its call slices are
# its SYSTEM CALLS BY THREAD counts, and main's getppid slices are the program's 1000.
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/ostrace.sh"

T=$TGT/ostrace_waits
os_collect "$T"
os_report --export perfetto
csvq "$S/report.csv" "THREAD STATES" >"$SCRATCH/states.tsv"
csvq "$S/report.csv" "SYSTEM CALLS BY THREAD" >"$SCRATCH/calls.tsv"
main=$(os_fact main_tid)
getppid=$(os_fact getppid_calls)

# one "ok"/"not ok" line per fact, from the trace and report.csv's rows
"$PYTHON" - "$S/trace.json" "$SCRATCH/states.tsv" "$SCRATCH/calls.tsv" "$main" "$getppid" \
	>"$SCRATCH/facts" 2>&1 <<'PY'
import collections, json, sys
trace, states_tsv, calls_tsv, main, getppid = sys.argv[1:6]
d = json.load(open(trace))
names, state, calls, spans = {}, collections.defaultdict(float), collections.Counter(), collections.defaultdict(list)
for e in d["traceEvents"]:
    if e["ph"] == "M" and e["name"] == "thread_name":
        names[(e["pid"], e["tid"])] = e["args"]["name"]
tracks = {}  # track -> (kind, thread tid), from the track's name and its calls
for e in d["traceEvents"]:
    if e["ph"] != "X" or e.get("cat") not in ("state", "syscall"):
        continue
    tr = (e["pid"], e["tid"])
    spans[tr].append((e["ts"], e["dur"], e["name"], e["cat"]))
def say(good, what):
    print(("ok" if good else "not ok") + " " + what)
say(d["otherData"].get("os_trace", {}).get("left_out") == 0, "otherData says no slice was left out")
# each thread's tracks: "LABEL (states)" and "LABEL (system calls)"; a label is matched to a
# THREAD STATES row by its Thread column ("LABEL (PID:n)")
rows = [l.rstrip("\n").split("\t") for l in open(states_tsv) if l.strip()]
by_label = {}
for tr, v in spans.items():
    n = names.get(tr, "")
    kind = "states" if n.endswith(" (states)") else "calls" if n.endswith(" (system calls)") else None
    say(kind is not None, "track %s is named '<thread> (states)' or '<thread> (system calls)' (%s)" % (tr, n))
    if kind:
        by_label.setdefault(n.rsplit(" (", 1)[0], {})[kind] = sorted(v)
say(len(rows) >= 3, "THREAD STATES has the program's three threads (%d rows)" % len(rows))
for r in rows:
    label, tid = r[1].rsplit(" (PID:", 1)[0], r[2]
    t = by_label.get(label, {})
    st = t.get("states", [])
    sums = collections.defaultdict(float)
    for ts, dur, name, _ in st:
        sums[name] += dur / 1e6
        if name.startswith("Blocked: "):
            sums["Blocked"] += dur / 1e6
    cols = {"Running": 4, "Runnable": 5, "Blocked": 6, "Blocked: sleep": 7, "Blocked: I/O": 8,
            "Blocked: lock": 9, "Blocked: other": 10}
    for k, c in cols.items():
        got, want = sums.get(k, 0.0), float(r[c])
        say(abs(got - want) <= 1.5e-6, "thread %s: its %s slices add up to THREAD STATES' %s s (%.6f)" % (tid, k, r[c], got))
    gaps = [b[0] - (a[0] + a[1]) for a, b in zip(st, st[1:])]
    say(st and all(abs(g) < 0.0015 for g in gaps), "thread %s: its state slices are back to back (%d slices, largest gap %.3f us)" % (tid, len(st), max([abs(g) for g in gaps] or [0])))
    life = float(r[3]) - float(r[11])
    span = (st[-1][0] + st[-1][1] - st[0][0]) / 1e6 if st else 0
    say(abs(span - life) <= 2e-6, "thread %s: and cover its lifetime less the unaccounted (%.6f vs %.6f s)" % (tid, span, life))
    want = collections.Counter()
    for l in open(calls_tsv):
        c = l.rstrip("\n").split("\t")
        if len(c) > 4 and c[2] == tid:
            want[c[3]] += int(c[4])
    got = collections.Counter(name for _, _, name, _ in t.get("calls", []))
    say(got == want, "thread %s: a call slice per call of SYSTEM CALLS BY THREAD (%d slices, %d calls)" % (tid, sum(got.values()), sum(want.values())))
    if tid == main:
        say(got["getppid"] == int(getppid), "main: %d getppid slices, the program's %s" % (got["getppid"], getppid))
PY
check "the trace and report.csv read ($(grep -vc '^\(not \)\?ok ' "$SCRATCH/facts") other lines: $(grep -v '^\(not \)\?ok ' "$SCRATCH/facts" | head -c 300))" \
	[ "$(grep -vc '^\(not \)\?ok ' "$SCRATCH/facts")" = 0 ]
while read -r verdict rest; do
	if [ "$verdict" = ok ]; then ok "$rest"; else not_ok "${rest#ok }"; fi
done < <(grep '^\(not \)\?ok ' "$SCRATCH/facts")

# beside them, the samples' tracks stand as before: a thread track with instant events
check "trace.json keeps its sample events" grep -q '"cat":"sample"' "$S/trace.json"
