#!/usr/bin/env python3
"""Read the OpenMP WAITS table of a uprof report.csv (the first process's).

waitq.py REPORT from                         its "Wait Times From" line
waitq.py REPORT unpaired                     its "Unpaired Wait Records" (0 when not said)
waitq.py REPORT cell SUFFIX THREAD COLUMN    the cell of the region whose name ends with
                                             SUFFIX ("@omp_waits.c:48"), row THREAD (a
                                             ThreadNum, or "all"), COLUMN a header's text
                                             up to its '(' ("Explicit Barrier")
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
    elif what == "cell":
        suffix, thread, name = sys.argv[3:6]
        cols = [k for k, h in enumerate(hdr) if h.split("(")[0].strip() == name]
        if not cols:
            sys.exit("no column %r in %r" % (name, hdr))
        for r in rows:
            if r[0].endswith(suffix) and r[1] == thread:
                print(r[cols[0]])
                return
        sys.exit("no row %s %s" % (suffix, thread))
    else:
        sys.exit(__doc__)


main()
