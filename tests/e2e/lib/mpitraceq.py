#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Facts of the MPI part of a trace.json (report --export perfetto), for mpi_trace.sh.

  mpitraceq.py procs TRACE          "rank host pid" per process named "rank N (host, pid)"
  mpitraceq.py counts TRACE         "rank function slices" (rank from the slice's args)
  mpitraceq.py flows TRACE          per flow, from the slices that enclose its two ends:
                                    "src dst tag send_function#n recv_function#n source causal"
                                    (#n: the slice's ordinal among its rank's calls of
                                    that function, from 0)
                                    (source: the receiving slice's, "-" for a Wait's; causal: 1 when the
                                    send began before the receive ended)
  mpitraceq.py dur TRACE RANK FUNCTION RECV_TAG   the slice's duration in ns
  mpitraceq.py other TRACE KEY...   otherData's value at the path (json)
Each flow end must lie inside exactly one MPI slice on its (pid, tid) track: else the
line says "unbound".
"""
import bisect
import json
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def mpi_slices(d):
    return [e for e in d["traceEvents"] if e.get("ph") == "X" and e.get("cat") == "mpi"]


def index(slices):
    """(pid, tid) -> its slices by start, and their starts (for bisect)."""
    by = {}
    for x in slices:
        by.setdefault((x["pid"], x["tid"]), []).append(x)
    for k in by:
        by[k].sort(key=lambda x: x["ts"])
    return {k: (v, [x["ts"] for x in v]) for k, v in by.items()}


def enclosing(idx, pid, tid, ts):
    """The one slice of the track that holds ts (MPI slices of a thread never overlap)."""
    v, starts = idx.get((pid, tid), ([], []))
    i = bisect.bisect_right(starts, ts) - 1
    hits = [x for x in v[max(i - 1, 0):i + 1] if x["ts"] <= ts <= x["ts"] + x["dur"]]
    return hits[0] if len(hits) == 1 else None


def main():
    what, d = sys.argv[1], load(sys.argv[2])
    ev = d["traceEvents"]
    if what == "procs":
        for e in ev:
            if e.get("ph") == "M" and e.get("name") == "process_name":
                n = e["args"]["name"]
                if n.startswith("rank "):
                    rank, rest = n[5:].split(" (", 1)
                    host, pid = rest.rstrip(")").rsplit(", ", 1)
                    print(rank, host, pid, e["pid"])
    elif what == "counts":
        c = {}
        for s in mpi_slices(d):
            k = (s["args"]["rank"], s["name"])
            c[k] = c.get(k, 0) + 1
        for (r, f), n in sorted(c.items()):
            print(r, f, n)
    elif what == "flows":
        sl = mpi_slices(d)
        idx = index(sl)
        # each slice's ordinal among its rank's slices of its function, in time order
        nth, seen = {}, {}
        for x in sorted(sl, key=lambda x: x["ts"]):
            k = (x["args"]["rank"], x["name"])
            nth[id(x)] = seen.get(k, 0)
            seen[k] = nth[id(x)] + 1
        starts = {e["id"]: e for e in ev if e.get("ph") == "s" and e.get("cat") == "mpi_message"}
        ends = {e["id"]: e for e in ev if e.get("ph") == "f" and e.get("cat") == "mpi_message"}
        for i in sorted(set(starts) | set(ends)):
            s, f = starts.get(i), ends.get(i)
            a = s and enclosing(idx, s["pid"], s["tid"], s["ts"])
            b = f and enclosing(idx, f["pid"], f["tid"], f["ts"]) if f and f.get("bp") == "e" else None
            if not a or not b:
                print("unbound", i)
                continue
            causal = 1 if a["ts"] <= b["ts"] + b["dur"] else 0
            # the message's tag: the flow start's (a call of several messages,
            # MPI_Startall, has none of its own), else the sending slice's
            tag = s.get("args", {}).get("tag", a["args"].get("send_tag"))
            print(a["args"]["rank"], b["args"]["rank"], tag,
                  "%s#%d" % (a["name"], nth[id(a)]), "%s#%d" % (b["name"], nth[id(b)]),
                  b["args"].get("source", "-"), causal)
    elif what == "dur":
        rank, fn, tag = int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
        for s in mpi_slices(d):
            if s["args"]["rank"] == rank and s["name"] == fn and s["args"].get("recv_tag") == tag:
                print(round(s["dur"] * 1000))
    elif what == "other":
        v = d["otherData"]
        for k in sys.argv[3:]:
            v = v.get(k) if isinstance(v, dict) else None
        print(json.dumps(v))


main()
