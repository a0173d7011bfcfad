#!/usr/bin/env python3
"""Checks of report --export sqlite and pprof (tests/e2e/export_data.sh).

dataq.py symbols DB                 "symbol<TAB>count" per samples_view symbol, sorted
dataq.py paths DB                   "root;...;leaf<TAB>count" per sample call path (call
                                    path 1, perf's root, left out), sorted
dataq.py folded FOLDED              stacks.folded as "root;...;leaf<TAB>count" without the
                                    comm frame, unresolved frames as "unknown", sorted
dataq.py tasks DB                   "domain,name<TAB>count<TAB>elapsed s<TAB>samples"
dataq.py csvtasks REPORT PERIOD_S   the same from report.csv's HOTTEST TASKS
dataq.py pprof-flat TOP             "function<TAB>flat" from `go tool pprof -top` text
dataq.py pprof-self RAW             "function<TAB>module<TAB>samples" of each sample's leaf
                                    (its location's physical function, the last of its
                                    lines, and its mapping's file) from `go tool pprof -raw`;
                                    -top merges functions of one name in several modules
                                    (ld.so's _start and the program's), so it cannot say
                                    which module's samples it shows
dataq.py csvfuncs REPORT PERIOD_S   "function<TAB>module<TAB>samples" of report.csv's
                                    HOTTEST FUNCTIONS
dataq.py samples PERF_DB OUR_DB     each sample's symbol in both, joined on (time, tid):
                                    "N same, M aliases, P paused, K differ" (aliases: two
                                    names of one address in the module's symbol table;
                                    paused: perf's samples in uprof_pauses, which report
                                    leaves out; the differing ones listed); exit 1 when
                                    K > 0 or N == 0
"""
import subprocess
import collections
import csv
import re
import sqlite3
import sys

UNRESOLVED = re.compile(r"!0x[0-9a-f]+$")


def out(rows):
    for k, v in sorted(rows.items()):
        print("%s\t%s" % (k, v if not isinstance(v, tuple) else "\t".join(map(str, v))))


def symbols(db):
    c = sqlite3.connect(db)
    out(dict(c.execute("select symbol, count(*) from samples_view group by symbol")))


def paths(db):
    c = sqlite3.connect(db)
    cp = {i: (p, s) for i, p, s in c.execute(
        "select c.id, c.parent_id, (select name from symbols where id = c.symbol_id)"
        " from call_paths c")}
    rows = collections.Counter()
    for (pid,) in c.execute("select call_path_id from samples where id > 0"):
        names = []
        while pid > 1:
            pid, name = cp[pid]
            names.append(name)
        rows[";".join(reversed(names))] += 1
    out(rows)


def folded(path):
    rows = collections.Counter()
    for line in open(path):
        stack, n = line.rstrip("\n").rsplit(" ", 1)
        frames = ["unknown" if UNRESOLVED.search(f) or f == "[unknown]" else f
                  for f in stack.split(";")[1:]]
        rows[";".join(frames)] += int(n)
    out(rows)


def tasks(db):
    c = sqlite3.connect(db)
    out({"%s,%s" % (d, n): (k, "%.4f" % (e / 1e9), s) for d, n, k, e, s in c.execute(
        "select domain, name, count(*), sum(elapsed_time), sum(samples)"
        " from uprof_tasks_view group by domain, name")})


def csv_section(report, title):
    ls = open(report, newline="").read().split("\n")
    i = next(i for i, l in enumerate(ls) if l.startswith('"') and title in l)
    rows = []
    for l in ls[i + 2:]:
        if not l.strip():
            break
        rows.append(next(csv.reader([l])))
    return rows


def csvtasks(report, period):
    out({"%s,%s" % (r[0], r[1]): (int(r[2]), r[3], round(float(r[4]) / float(period)))
         for r in csv_section(report, "HOTTEST TASKS (")})


def pprof_flat(top):
    rows = {}
    for line in open(top):
        f = line.split()
        if len(f) >= 6 and re.match(r"^-?[0-9.]+$", f[0]) and f[1].endswith("%"):
            rows[" ".join(f[5:])] = int(float(f[0]))
    out(rows)


def pprof_self(raw):
    """Parse -raw's Samples (count, then location ids leaf first), Locations ("N: ADDR
    M=MAPPING FUNC FILE:LINE s=0", then one indented line per outer function of an
    inlined chain) and Mappings ("N: START/LIMIT/OFFSET FILE [BUILDID] [FLAGS]")."""
    part, leaves, func, mod, files = None, collections.Counter(), {}, {}, {}
    for line in open(raw):
        head = line.split(":")[0].strip()
        if head in ("Samples", "Locations", "Mappings"):
            part = head
            continue
        w = line.split()
        if part == "Samples" and len(w) >= 3 and w[0].isdigit() and w[1].endswith(":"):
            leaves[int(w[2])] += int(w[0])
        elif part == "Locations" and w and re.match(r"^[0-9]+:$", w[0]):
            loc = int(w[0][:-1])
            mod[loc] = int(w[2][2:]) if w[2].startswith("M=") else 0
            func[loc] = w[3]
        elif part == "Locations" and w and not w[0].endswith(":"):
            func[loc] = w[0]  # an outer function of the chain: the physical one is last
        elif part == "Mappings" and w and re.match(r"^[0-9]+:$", w[0]):
            files[int(w[0][:-1])] = w[2]
    rows = collections.Counter()
    for loc, n in leaves.items():
        rows["%s\t%s" % (func[loc], files.get(mod[loc], ""))] += n
    out(rows)


def csvfuncs(report, period):
    out({"%s\t%s" % (r[0], r[2]): round(float(r[1]) / float(period))
         for r in csv_section(report, "HOTTEST FUNCTIONS (")})


def readelf(*args):
    try:
        return subprocess.run(["readelf"] + list(args), capture_output=True, text=True).stdout
    except OSError:
        return ""


def elf_values(path, cache={}):
    """name -> set of st_value from readelf -Ws (both tables) of the file and of its
    separate debug file (/usr/lib/debug/.build-id/: perf reads it), cached per file."""
    if path not in cache:
        vals = collections.defaultdict(set)
        files = [path]
        bid = re.search(r"Build ID: ([0-9a-f]+)", readelf("-n", path))
        if bid:
            files.append("/usr/lib/debug/.build-id/%s/%s.debug" % (bid[1][:2], bid[1][2:]))
        for f in files:
            for line in readelf("-Ws", f).splitlines():
                w = line.split()
                if len(w) >= 8 and w[0].endswith(":") and w[3] in ("FUNC", "IFUNC"):
                    vals[bare(w[7])].add(int(w[1], 16))
        cache[path] = vals
    return cache[path]


def bare(name):
    """a symbol's name without its version ("pthread_mutex_lock@@GLIBC_2.2.5")"""
    return name.split("@")[0] if name else name


def kallsyms_values(cache={}):
    if not cache:
        vals = collections.defaultdict(set)
        for line in open("/proc/kallsyms"):
            f = line.split()
            if len(f) >= 3:
                vals[f[2]].add(int(f[0], 16))
        cache[0] = vals
    return cache[0]


def aliases(a, b, dso):
    vals = kallsyms_values() if dso.startswith("[kernel") else elf_values(dso)
    return bool(vals.get(a, set()) & vals.get(b, set()))


def samples(perf_db, our_db):
    q = ("select s.time, t.tid, (select name from symbols where id = s.symbol_id),"
         " (select long_name from dsos where id = s.dso_id) from samples s"
         " join threads t on t.id = s.thread_id where s.id > 0")
    perf = {(t, tid): sym for t, tid, sym, _ in sqlite3.connect(perf_db).execute(q)}
    same = alias = 0
    differ = []
    for t, tid, sym, dso in sqlite3.connect(our_db).execute(q):
        theirs = perf.pop((t, tid), None)
        if bare(theirs) == bare(sym):
            same += 1
        elif theirs and sym and aliases(bare(theirs), bare(sym), dso or ""):
            alias += 1
        elif theirs == "@plt" and (sym in (None, "unknown") or sym.endswith("@plt")):
            alias += 1  # perf 6.1 names a PLT entry it found no name for "@plt"
        else:
            differ.append("%d/%d: perf %s, uprof %s (%s)" % (t, tid, theirs, sym, dso))
    pauses = list(sqlite3.connect(our_db).execute("select from_time, to_time from uprof_pauses"))
    paused = [k for k in perf if any(a <= k[0] <= b for a, b in pauses)]
    differ += ["%d/%d: perf %s, not in uprof's" % (k[0], k[1], v) for k, v in perf.items()
               if k not in paused]
    print("%d same, %d aliases, %d paused, %d differ" % (same, alias, len(paused), len(differ)))
    for d in differ[:10]:
        print("# " + d)
    sys.exit(1 if differ or not same else 0)


{"symbols": symbols, "samples": samples, "paths": paths, "folded": folded, "tasks": tasks,
 "csvtasks": csvtasks, "pprof-flat": pprof_flat, "pprof-self": pprof_self, "csvfuncs": csvfuncs}[sys.argv[1]](*sys.argv[2:])
