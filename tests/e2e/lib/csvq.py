#!/usr/bin/env python3
"""Read one section of a uprof report.csv.

csvq.py REPORT TITLE            rows of the first table whose title line contains TITLE,
                                tab-separated (header row excluded)
csvq.py REPORT TITLE --after X  the same, searching only after a line containing X
csvq.py REPORT --key KEY        the value of a 'Key:,"value"' header line
"""
import csv
import signal
import sys


def lines(path):
    with open(path, newline="") as f:
        return f.read().split("\n")


def section(ls, title, after=None):
    start = 0
    if after:
        start = next(i for i, l in enumerate(ls) if after in l)
    for i in range(start, len(ls)):
        if title in ls[i]:
            rows = []
            j = i + 2  # skip the title and the column header
            while j < len(ls) and ls[j].strip():
                rows.append(next(csv.reader([ls[j]])))
                j += 1
            return rows
    sys.exit("section %r not found" % title)


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    ls = lines(sys.argv[1])
    if sys.argv[2] == "--key":
        for l in ls:
            if l.startswith(sys.argv[3] + ":,"):
                print(next(csv.reader([l]))[1])
                return
        sys.exit("key %r not found" % sys.argv[3])
    after = sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == "--after" else None
    for row in section(ls, sys.argv[2], after):
        print("\t".join(row))


main()
