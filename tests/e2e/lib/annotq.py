#!/usr/bin/env python3
"""Function Detail Data of report.csv, and perf annotate's view of the same samples.

  annotq.py detail REPORT.CSV FUNC          JSON: the function's head, notes, lines, insns
  annotq.py compare REPORT.CSV FUNC PERF_OUT [N]
      uprof's N (default 5) hottest source lines and instructions against perf annotate
      --stdio --print-line (PERF_OUT): one line per item "KIND KEY UPROF PERF", then a
      last line "max-diff D" (percentage points). A line or instruction perf leaves out
      of its listing (perf lists lines above a threshold only) counts as 0 % there.
"""
import csv
import json
import os
import re
import sys


def detail(path, func):
    """The Function Detail Data block of @func in report.csv."""
    rows = list(csv.reader(open(path, newline="", errors="replace")))
    out = None
    mode = None
    for r in rows:
        if r == ["Function Detail Data"]:
            if out is not None:
                break
            mode = "head"
            continue
        if mode is None:
            continue
        if mode == "head":
            if len(r) >= 2 and r[0] == "FUNCTION" and r[1] == func:
                out = {"function": r[1], "module": r[3], "samples": int(r[5]),
                       "range": r[7], "notes": [], "lines": [], "insns": []}
                mode = "body"
            else:
                mode = None
            continue
        if not r:
            break
        if r[0] == "Note":
            out["notes"].append(r[1])
        elif r[0] == "SOURCE FILE":
            mode = "lines"
        elif r[0] == "ADDRESS":
            mode = "insns"
        elif mode == "lines":
            out["lines"].append({"file": r[0], "line": int(r[1]), "value": float(r[2]),
                                 "samples": int(r[3]), "share": float(r[4]),
                                 "inlined": r[5], "text": r[6]})
        elif mode == "insns":
            out["insns"].append({"addr": int(r[0], 16), "value": float(r[1]),
                                 "samples": int(r[2]), "share": float(r[3]),
                                 "file": r[4], "line": int(r[5]), "text": r[6]})
    return out


def perf_view(path):
    """perf annotate --stdio -l: {basename:line: pct} and {addr: pct}."""
    lines, insns = {}, {}
    in_summary = False
    for raw in open(path, errors="replace"):
        s = raw.rstrip("\n")
        if s.startswith("Sorted summary for file"):
            in_summary = True
            continue
        if in_summary:
            m = re.match(r"^\s+([0-9.]+)\s+(\S+):(\d+)\s*$", s)
            if m:
                key = "%s:%s" % (os.path.basename(m.group(2)), m.group(3))
                lines[key] = lines.get(key, 0.0) + float(m.group(1))
                continue
            if s.startswith(" Percent"):
                in_summary = False
            continue
        m = re.match(r"^\s+([0-9.]+)\s+:\s+([0-9a-f]+):\s", s)
        if m:
            insns[int(m.group(2), 16)] = float(m.group(1))
    return lines, insns


def compare(path, func, perf_out, n=5):
    d = detail(path, func)
    if d is None:
        print("max-diff 999 (no detail of %s)" % func)
        return
    lines, insns = perf_view(perf_out)
    worst = 0.0
    by_line = {}
    for l in d["lines"]:
        key = "%s:%d" % (os.path.basename(l["file"]), l["line"])
        by_line[key] = by_line.get(key, 0.0) + l["share"]  # inlined and own on one line
    top = sorted(by_line.items(), key=lambda kv: -kv[1])[:n]
    for key, share in top:
        p = lines.get(key, 0.0)
        print("line %s %.2f %.2f" % (key, share, p))
        worst = max(worst, abs(share - p))
    for i in sorted(d["insns"], key=lambda x: -x["samples"])[:n]:
        p = insns.get(i["addr"], 0.0)
        print("insn %x %.2f %.2f" % (i["addr"], i["share"], p))
        worst = max(worst, abs(i["share"] - p))
    if not insns or (d["lines"] and not lines):
        worst = 999.0  # perf printed nothing to compare with: never a pass
    print("max-diff %.2f" % worst)


if __name__ == "__main__":
    if sys.argv[1] == "detail":
        print(json.dumps(detail(sys.argv[2], sys.argv[3])))
    else:
        compare(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]) if len(sys.argv) > 5 else 5)
