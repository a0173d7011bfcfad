#!/usr/bin/env python3
"""Read the OpenMP WAITS table of a uprof report.csv (the first process's).

waitq.py REPORT from                         its "Wait Times From" line
waitq.py REPORT unpaired                     its "Unpaired Wait Records" (0 when not said)
waitq.py REPORT cell SUFFIX THREAD COLUMN    the cell of the region whose name ends with
                                             SUFFIX ("@omp_waits.c:48"), row THREAD (a
                                             ThreadNum, or "all"), COLUMN a header's text
                                             up to its '(' ("Explicit Barrier")
waitq.py REPORT sum SUFFIX THREAD "COL|COL"  the sum of those cells of that row
waitq.py REPORT row SUFFIX THREAD            each wait column of that row: its name, a
                                             tab, its cell, one a line (Total left out)
"""
import csv
import sys


def table(path):
    with open(path, newline="") as f:
        ls = f.read().split("\n")
    for i, l in enumerate(ls):
        if l.startswith("OpenMP WAITS"):
            info, j = {}, i + 1
            while not ls[j].startswith("Region,"):
                r = next(csv.reader([ls[j]]))
                info[r[0]] = r[1]
                j += 1
            hdr = next(csv.reader([ls[j]]))
            rows = []
            j += 1
            while j < len(ls) and ls[j].strip():
                rows.append(next(csv.reader([ls[j]])))
                j += 1
            return info, hdr, rows
    sys.exit("no OpenMP WAITS table in " + path)


def main():
    info, hdr, rows = table(sys.argv[1])
    what = sys.argv[2]
    if what == "from":
        print(info["Wait Times From"])
    elif what == "unpaired":
        print(info.get("Unpaired Wait Records", "0"))
    elif what in ("cell", "sum", "row"):
        suffix, thread = sys.argv[3:5]
        names = [h.split("(")[0].strip() for h in hdr]
        want = sys.argv[5].split("|") if what != "row" else names[3:-1]
        for n in want:
            if n not in names:
                sys.exit("no column %r in %r" % (n, hdr))
        for r in rows:
            if r[0].endswith(suffix) and r[1] == thread:
                if what == "cell":
                    print(r[names.index(want[0])])
                elif what == "sum":
                    print("%.6f" % sum(float(r[names.index(n)]) for n in want))
                else:
                    for n in want:
                        print("%s\t%s" % (n, r[names.index(n)]))
                return
        sys.exit("no row %s %s" % (suffix, thread))
    else:
        sys.exit(__doc__)


main()
