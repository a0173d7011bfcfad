#!/usr/bin/env python3
"""Read the OpenMP TRACING REPORT of a uprof report.csv.

ompq.py REPORT regions                         the region names, one a line
ompq.py REPORT region NAME COLUMN              a PARALLEL-REGION METRIC cell of the first
                                               region whose name contains NAME
ompq.py REPORT thread NAME THREADNUM COLUMN    a THREAD METRIC cell of that region
ompq.py REPORT total NAME COLUMN               a PARALLEL-REGION METRIC "Avg" cell times
                                               the rows of the region's THREAD METRIC
                                               (the threads the average is over)
ompq.py REPORT threadsum NAME COLUMN           that column summed over the region's threads
ompq.py REPORT cells region|lock NAME COLUMN...
                                               several cells of that row, space-separated,
                                               "empty" for an empty one; "none" for each
                                               where there is no such row
ompq.py REPORT count NAME                      how many region rows' names contain NAME
ompq.py REPORT lock NAME COLUMN                a LOCK METRIC cell
ompq.py REPORT overview KEY                    an OVERVIEW value (first process)
ompq.py REPORT snapshot KEY                    an OPENMP SUMMARY value (".. CPU Time")
COLUMN is a header's text up to its '(' ("Avg Sync Time", "Instances"); an OVERVIEW or
snapshot KEY is the whole label or its text up to its '(', leading dots aside ("Work
Time" finds ".. Work Time(wall seconds: ...)").
"""
import csv
import sys


def tables(path):
    """title -> (header, rows) for the OpenMP tables; overview and snapshot as dicts"""
    with open(path, newline="") as f:
        ls = f.read().split("\n")
    out, over, snap = {}, {}, {}
    i = 0
    while i < len(ls):
        l = ls[i]
        if l.startswith("OpenMP OVERVIEW") and not over:
            j = i + 1
            while j < len(ls) and ls[j].strip():
                r = next(csv.reader([ls[j]]))
                over[r[0]] = r[1]
                j += 1
        elif l.startswith("."):
            r = next(csv.reader([l]))
            if len(r) > 1:
                snap[r[0]] = r[1].split()[0]
        elif l.startswith("OpenMP ") and ("METRIC" in l):
            hdr = next(csv.reader([ls[i + 1]]))
            rows, j = [], i + 2
            while j < len(ls) and ls[j].strip():
                rows.append(next(csv.reader([ls[j]])))
                j += 1
            out[l] = (hdr, rows)
        i += 1
    return out, over, snap


def col(hdr, name):
    for k, h in enumerate(hdr):
        if h.split("(")[0].strip() == name:
            return k
    sys.exit("no column %r in %r" % (name, hdr))


def by_label(d, k):
    """d[k], else the value whose label up to its '(' (dots aside) is k's"""
    if k in d:
        return d[k]
    bare = lambda x: x.split("(")[0].strip().lstrip(".").strip()
    for label, v in d.items():
        if bare(label) == bare(k):
            return v
    sys.exit("no line %r" % k)


def main():
    t, over, snap = tables(sys.argv[1])
    what = sys.argv[2]
    if what == "overview":
        print(by_label(over, sys.argv[3]))
        return
    if what == "snapshot":
        print(by_label(snap, sys.argv[3]))
        return
    if what == "regions":
        for title, (hdr, rows) in t.items():
            if "PARALLEL-REGION" in title:
                for r in rows:
                    print(r[0])
        return
    if what == "total":
        for title, (hdr, rows) in t.items():
            if "PARALLEL-REGION" in title:
                for r in rows:
                    if sys.argv[3] in r[0]:
                        n = [len(rs) for tt, (h, rs) in t.items()
                             if tt.startswith("OpenMP THREAD METRIC") and tt.endswith("%s)" % r[0])]
                        print("%.6f" % (float(r[col(hdr, sys.argv[4])]) * (n[0] if n else 0)))
                        return
        sys.exit("no region %r" % sys.argv[3])
    if what in ("region", "lock"):
        key = "PARALLEL-REGION" if what == "region" else "LOCK METRIC"
        for title, (hdr, rows) in t.items():
            if key in title:
                for r in rows:
                    if sys.argv[3] in r[0]:
                        print(r[col(hdr, sys.argv[4])])
                        return
        sys.exit("no %s %r" % (what, sys.argv[3]))
    if what == "cells":
        key = "PARALLEL-REGION" if sys.argv[3] == "region" else "LOCK METRIC"
        names = sys.argv[5:]
        for title, (hdr, rows) in t.items():
            if key in title:
                for r in rows:
                    if sys.argv[4] in r[0]:
                        print(" ".join(r[col(hdr, c)] or "empty" for c in names))
                        return
        print(" ".join("none" for c in names))
        return
    if what == "count":
        n = 0
        for title, (hdr, rows) in t.items():
            if "PARALLEL-REGION" in title:
                n += sum(sys.argv[3] in r[0] for r in rows)
        print(n)
        return
    if what == "threadsum":
        for title, (hdr, rows) in t.items():
            if title.startswith("OpenMP THREAD METRIC") and sys.argv[3] in title:
                v = sum(float(r[col(hdr, sys.argv[4])]) for r in rows)
                print(int(v) if v == int(v) else v)
                return
        sys.exit("no thread table of %r" % sys.argv[3])
    if what == "thread":
        for title, (hdr, rows) in t.items():
            if title.startswith("OpenMP THREAD METRIC") and sys.argv[3] in title:
                for r in rows:
                    if r[0] == sys.argv[4]:
                        print(r[col(hdr, sys.argv[5])])
                        return
        sys.exit("no thread %s of %r" % (sys.argv[4], sys.argv[3]))
    sys.exit("unknown query %r" % what)


main()
