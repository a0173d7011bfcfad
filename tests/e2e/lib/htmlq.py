#!/usr/bin/env python3
"""Read a uprof report.html: its embedded data, or the DOM Chromium dumped after its
script ran.

htmlq.py PAGE rows TITLE N      the first N data rows (header excluded) of the embedded
                                report.csv section whose title matches the regular expression TITLE, tab-separated
htmlq.py DOM dom TITLE N [COLS] the first N body rows of the first <table data-section>
                                whose title matches TITLE, each cell's data-v, tab-separated;
                                COLS (0,1,3) picks columns
htmlq.py PAGE flame             total, the root's children summed, kept nodes, pruned
htmlq.py PAGE timeline          samples of all tracks, the tracks' "samples" summed, tasks,
                                OpenMP slices, pauses, threads left out
htmlq.py PAGE external          exit 1 (naming it) if the page refers to anything outside it
htmlq.py FOLDED calls FN PART   from a stacks.folded: FN's row (PART me: FUNCTION, total, %,
                                self, %), or its callers / callees (the frame below / above
                                its outermost call; samples, % of its total), the rows the
                                Callers/callees page shows, largest first
htmlq.py PAGE ostates           --trace os: per track "TID<tab>running<tab>runnable<tab>blocked"
                                in seconds (%.6f, as THREAD STATES), then its bins summed
                                back to seconds the same way, sorted by TID; last line
                                "spans-left-out N"
htmlq.py ANNOTATE annot KIND    from `uprof annotate`'s output: its lines (KIND lines:
                                "file:line", once each) or its instructions (KIND insns:
                                address) with samples, "WHERE<tab>samples<tab>share", sorted
"""
import json
import re
import sys
from collections import Counter
from decimal import ROUND_HALF_UP, Decimal
from html.parser import HTMLParser


def data(path):
    text = open(path, encoding="utf-8").read()
    m = re.search(r'<script type="application/json" id="data">(.*?)</script>', text, re.S)
    return json.loads(m.group(1))


def section(d, title):
    return next(s for s in d["csv"] if re.search(title, s["title"]))


class Tables(HTMLParser):
    """Every <table data-section=...>: its title and body rows of data-v values."""

    def __init__(self):
        super().__init__()
        self.tables, self.cur, self.row, self.depth = [], None, None, 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table" and "data-section" in a and self.cur is None:
            self.cur = (a["data-section"], [])
            self.depth = 1
        elif tag == "table" and self.cur is not None:
            self.depth += 1
        elif self.cur is not None and tag == "tr":
            self.row = []
        elif self.cur is not None and tag == "td" and self.row is not None:
            self.row.append(a.get("data-v", ""))

    def handle_endtag(self, tag):
        if self.cur is None:
            return
        if tag == "tr" and self.row is not None:
            if self.row:
                self.cur[1].append(self.row)
            self.row = None
        elif tag == "table":
            self.depth -= 1
            if not self.depth:
                self.tables.append(self.cur)
                self.cur = None


def pct(v, of):
    """JavaScript's (100 * v / of).toFixed(2): the double's exact value, halves up."""
    x = 100 * v / of if of > 0 else 0.0
    return str(Decimal(x).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def calls(path, fn, part):
    total = self = every = 0
    callers, callees = Counter(), Counter()
    for line in open(path, encoding="utf-8"):
        stack, n = line.rstrip("\n").rsplit(" ", 1)
        frames, n = stack.split(";"), int(n)
        every += n
        if fn not in frames[1:]:  # frames[0] is the process's name
            continue
        i = frames.index(fn, 1)
        total += n
        self += n if frames[-1] == fn else 0
        callers[frames[i - 1]] += n
        if i + 1 < len(frames):
            callees[frames[i + 1]] += n
    if part == "me":
        print("\t".join([fn, str(total), pct(total, every), str(self), pct(self, every)]))
        return
    for name, n in sorted((callers if part == "callers" else callees).items(),
                          key=lambda e: (-e[1], e[0])):
        print("\t".join([name, str(n), pct(n, total)]))


def annot(path, kind):
    rows = set()
    for line in open(path, encoding="utf-8"):
        m = re.match(r"^\s+([0-9.]+)\s+(\d+)\s+([0-9a-f]+):  ", line)
        if m and kind == "insns":
            rows.add((m.group(3), m.group(2), m.group(1)))
        m = re.match(r"^(?:>>[0-9 ]{2}|    ) +([0-9.]+) +(\d+)  (\S+:\d+)(?:\s|$)", line)
        if m and kind == "lines":
            rows.add((m.group(3), m.group(2), m.group(1)))
    for r in sorted(r for r in rows if r[1] != "0"):
        print("\t".join(r))


def main():
    path, what = sys.argv[1], sys.argv[2]
    if what == "rows":
        rows = section(data(path), sys.argv[3])["rows"][1:int(sys.argv[4]) + 1]
        for r in rows:
            print("\t".join(c.strip() for c in r))
    elif what == "dom":
        p = Tables()
        p.feed(open(path, encoding="utf-8").read())
        rows = next(t for t in p.tables if re.search(sys.argv[3], t[0]))[1][:int(sys.argv[4])]
        cols = [int(c) for c in sys.argv[5].split(",")] if len(sys.argv) > 5 else None
        for r in rows:
            print("\t".join(r[c] for c in cols) if cols else "\t".join(r))
    elif what == "flame":
        f = data(path)["flame"]
        nodes = f["nodes"]
        kids = sum(n[2] for i, n in enumerate(nodes) if i and n[0] == 0)
        print(f["total"], kids, len(nodes), f["pruned"])
    elif what == "timeline":
        t = data(path)["timeline"]
        binned = sum(sum(th["d"]) for th in t["threads"])
        said = sum(th["samples"] for th in t["threads"])
        print(binned, said, len(t["tasks"]), len(t["omp"]), len(t["pauses"]), t["left_out"]["threads"])
    elif what == "calls":
        calls(path, sys.argv[3], sys.argv[4])
    elif what == "ostates":
        t = data(path)["timeline"]
        width = t["span"] / t["bins"] / 1e6  # seconds a bin
        for th in sorted((x for x in t["threads"] if "os" in x), key=lambda x: x["tid"]):
            s = th["s"]
            back = [sum(s[j::3]) / 1000 * width for j in range(3)]
            print("\t".join([str(th["tid"])] + ["%.6f" % (v / 1e9) for v in th["os"]] +
                             ["%.6f" % v for v in back]))
        print("spans-left-out", t["left_out"]["os_spans"])
    elif what == "annot":
        annot(path, sys.argv[3])
    elif what == "external":
        text = open(path, encoding="utf-8").read()
        bad = re.findall(r'(?:https?:|ftp:)//[^\s"\')]*|\b(?:src|href|action)\s*=|@import|url\(', text)
        if bad:
            print("external references:", bad[:5])
            sys.exit(1)


main()
