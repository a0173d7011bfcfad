#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Facts of a trace.json's OpenMP slices for tests/e2e/omp_trace.sh, one "name=value" a line.
#   omptrace.py threads TRACE SITE [PROGRAM_OUT]
#       the region slices whose name ends with SITE, per thread track; the explicit barrier
#       waits inside them; with PROGRAM_OUT (omp_trace's "barrier r= t= ms=" lines), each
#       wait's duration against the wait the thread measured of itself in that region
#   omptrace.py devices TRACE
#       the "OpenMP device N" tracks: target slices, data ops and their bytes, submits
# Both say how many OpenMP slices do not nest properly on their track.
import collections
import json
import re
import sys

EPS = 1e-6  # us: ts and dur are exact to the ns, sums of floats are not


def load(path):
    with open(path) as f:
        return json.load(f)


def tracks(events, cat="openmp"):
    """(pid, tid) -> its X slices of @cat, by (ts, longest first)."""
    t = collections.defaultdict(list)
    for e in events:
        if e.get("ph") == "X" and e.get("cat") == cat:
            t[(e["pid"], e["tid"])].append(e)
    for v in t.values():
        v.sort(key=lambda e: (e["ts"], -e["dur"]))
    return t


def misnested(slices):
    """Slices that overlap an open one without lying inside it."""
    bad, stack = 0, []
    for e in slices:
        end = e["ts"] + e["dur"]
        while stack and stack[-1] <= e["ts"] + EPS:
            stack.pop()
        if stack and end > stack[-1] + EPS:
            bad += 1
            continue
        stack.append(end)
    return bad


def inside(e, outer):
    return outer["ts"] - EPS <= e["ts"] and e["ts"] + e["dur"] <= outer["ts"] + outer["dur"] + EPS


def threads(trace, site, out=None):
    d = load(trace)
    ev = d["traceEvents"]
    by = tracks(ev)
    measured = {}
    if out:
        for line in open(out):
            m = re.match(r"barrier r=(\d+) t=(\d+) ms=([0-9.]+)", line)
            if m:
                measured[(int(m.group(1)), int(m.group(2)))] = float(m.group(3))
    counts, wait_counts, members = [], [], collections.Counter()
    bad_nest = outside = compared = off = 0
    worst = (0.0, "")
    for key, sl in sorted(by.items()):
        bad_nest += misnested(sl)
        regions = [e for e in sl if e["name"].endswith(site)]
        if not regions:
            continue
        counts.append(len(regions))
        waits = [e for e in sl if e["name"] == "explicit barrier"]
        wait_counts.append(len(waits))
        for w in waits:
            if not any(inside(w, r) for r in regions):
                outside += 1
        for r, reg in enumerate(regions):
            k = reg["args"]["member"]
            members[(r, k)] += 1
            mine = [w for w in waits if inside(w, reg)]
            if (r, k) not in measured or len(mine) != 1:
                continue
            got, want = mine[0]["dur"] / 1e3, measured[(r, k)]
            compared += 1
            # within 10 % of what the thread measured; a wait under 1 ms within 0.1 ms
            # (the barrier's own entry and exit are in the program's measure)
            err = abs(got - want)
            if err > max(0.1 * want, 0.1):
                off += 1
            rel = err / want if want else err
            if rel >= worst[0]:
                worst = (rel, "r=%d t=%d trace %.3f ms, program %.3f ms" % (r, k, got, want))
    print("threads=%d" % len(counts))
    print("regions_per_thread=%s" % ",".join(str(c) for c in sorted(set(counts))))
    print("waits_per_thread=%s" % ",".join(str(c) for c in sorted(set(wait_counts))))
    print("member_slots=%d" % len(members))
    print("member_repeats=%d" % sum(1 for v in members.values() if v != 1))
    print("misnested=%d" % bad_nest)
    print("waits_outside_regions=%d" % outside)
    print("waits_compared=%d" % compared)
    print("waits_off=%d" % off)
    print("worst=%s" % worst[1])
    # samples and slices on one clock: the samples in work() lie in the thread's regions
    work = [e for e in ev if e.get("ph") == "i" and e.get("name") == "work"]
    out_of = [e for e in work
              if not any(r["ts"] - EPS <= e["ts"] <= r["ts"] + r["dur"] + EPS
                         for r in by.get((e["pid"], e["tid"]), []) if r["name"].endswith(site))]
    print("work_samples=%d" % len(work))
    print("work_samples_outside=%d" % len(out_of))
    omp = d.get("otherData", {}).get("openmp", {})
    print("wait_slices=%d" % omp.get("wait_slices", -1))
    print("waits_said=%s" % omp.get("waits", ""))
    print("tasks_said=%s" % omp.get("explicit_tasks", ""))


def devices(trace):
    d = load(trace)
    ev = d["traceEvents"]
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev
             if e.get("ph") == "M" and e.get("name") == "thread_name"}
    by = tracks(ev)
    dev = {k: v for k, v in by.items() if names.get(k, "").startswith("OpenMP device")}
    c = collections.Counter()
    bad_nest = outside = 0
    for key, sl in dev.items():
        bad_nest += misnested(sl)
        targets = [e for e in sl if e["name"].startswith("target")]
        for e in sl:
            c[e["name"]] += 1
            if e["name"] in ("to device", "from device"):
                c[e["name"] + " bytes"] += e["args"]["bytes"]
            if not e["name"].startswith("target") and not any(inside(e, t) for t in targets):
                outside += 1
    print("device_tracks=%s" % ";".join(sorted(set(names[k] for k in dev))))
    print("targets=%d" % c["target"])
    print("submits=%d" % c["kernel submit"])
    print("to_bytes=%d" % c["to device bytes"])
    print("from_bytes=%d" % c["from device bytes"])
    print("misnested=%d" % bad_nest)
    print("outside_targets=%d" % outside)


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "threads":
        threads(*sys.argv[2:5])
    elif len(sys.argv) == 3 and sys.argv[1] == "devices":
        devices(sys.argv[2])
    else:
        sys.exit("usage: omptrace.py threads TRACE SITE [OUT] | devices TRACE")
