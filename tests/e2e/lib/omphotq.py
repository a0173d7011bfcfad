#!/usr/bin/env python3
"""Read OPENMP HOT FUNCTIONS and OPENMP LATE THREADS of a uprof report.csv (first process).

omphotq.py REPORT state REGION STATE            the state's CPU Time in the region (0: none)
omphotq.py REPORT top REGION STATE RANK COLUMN  a cell of the state's RANK-th function
omphotq.py REPORT func REGION STATE FUNC COLUMN a cell of FUNC's row in the state ("0"
                                                when FUNC is not among its rows)
omphotq.py REPORT late REGION N COLUMN          a cell of the region's N-th late thread (its
                                                rank-1 row; "" when there is none)
omphotq.py REPORT latefunc REGION N FUNC COLUMN a cell of FUNC's row of that late thread
omphotq.py REPORT nottold                       the section's "Not told" line, or nothing
REGION: a text the region's name contains; COLUMN: a header's text up to its '('.
"""
import csv
import sys


def section(path, title):
    with open(path, newline="") as f:
        ls = f.read().split("\n")
    for i, l in enumerate(ls):
        if l.startswith(title):
            hdr = next(csv.reader([ls[i + 1]]))
            rows, j = [], i + 2
            while j < len(ls) and ls[j].strip():
                rows.append(next(csv.reader([ls[j]])))
                j += 1
            return hdr, rows
    return [], []


def col(hdr, name):
    for k, h in enumerate(hdr):
        if h.split("(")[0].strip() == name:
            return k
    sys.exit("no column %r in %r" % (name, hdr))


def main():
    path, what, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    if what == "nottold":
        hdr, rows = section(path, "OPENMP LATE THREADS")
        if hdr and hdr[0] == "Not told:":
            print(hdr[1])
        return
    if what in ("state", "top", "func"):
        hdr, rows = section(path, "OPENMP HOT FUNCTIONS")
        mine = [r for r in rows if args[0] in r[0] and r[1] == args[1]]
        if what == "state":
            print(mine[0][col(hdr, "State CPU Time")] if mine else "0")
        elif what == "top":
            m = [r for r in mine if r[col(hdr, "Rank")] == args[2]]
            print(m[0][col(hdr, args[3])] if m else "")
        else:
            m = [r for r in mine if r[col(hdr, "Function")] == args[2]]
            print(m[0][col(hdr, args[3])] if m else "0")
        return
    hdr, rows = section(path, "OPENMP LATE THREADS")
    mine = [r for r in rows if hdr and args[0] in r[0]]
    threads = []
    for r in mine:
        key = (r[col(hdr, "Barrier")], r[col(hdr, "Late ThreadNum")], r[col(hdr, "Late ThreadId")])
        if key not in [k for k, _ in threads]:
            threads.append((key, []))
        dict(threads)[key].append(r)
    n = int(args[1])
    if n > len(threads):
        print("" if what == "late" else "0")
        return
    trows = threads[n - 1][1]
    if what == "late":
        print(trows[0][col(hdr, args[2])])
    else:
        m = [r for r in trows if r[col(hdr, "Function")] == args[2]]
        print(m[0][col(hdr, args[3])] if m else "0")


main()
