#!/usr/bin/env python3
"""Checks on call stacks and exports, for tests/e2e/callgraph.sh and exports.sh.

stacks.py sum FOLDED                      total samples of a folded file
stacks.py share FOLDED CHAIN LEAF         % of LEAF's samples whose stack holds CHAIN
                                          (';'-separated, outermost first) ending at LEAF
stacks.py outer FOLDED FUNC               % of FUNC's samples where the frame outside FUNC
                                          is a marker ([truncated] or [unwind failed])
stacks.py outermost FOLDED OK,...         % of samples whose outermost frame is in OK
stacks.py maxdepth FOLDED                 most frames in one stack (the comm excluded)
stacks.py perf-share PERFSCRIPT CHAIN LEAF  share, on perf script's stacks
stacks.py perf-agree FOLDED PERFSCRIPT F,...   both projected onto functions F: prints the
                                          share of samples on which they disagree (0..100)
stacks.py svg SVG FOLDED                  flame graph well-formed, widths = folded counts
stacks.py trace TRACE SAMPLES             trace JSON: fields, order per track, nesting
stacks.py trace-tasks TRACE NAME,...      the named task slices exist, Inner in Outer
stacks.py corrupt SAMPLES.DATA            overwrite every sample's stack copy and
                                          callchain return addresses with random bytes
stacks.py garbage BEFORE AFTER            after corrupt, what is not the samples' own: the
                                          leaves (each sample's IP, which corrupt keeps)
                                          differ from BEFORE's, or an unresolved frame
                                          (module!0x...) is not a leaf; prints what, or ok
Exit status 0 = check passed; a message on failure.
"""
import collections
import json
import random
import re
import struct
import sys
import xml.etree.ElementTree as ET

MARKS = ("[truncated]", "[unwind failed]")


def folded(path):
    out = collections.Counter()
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            stack, n = line.rsplit(" ", 1)
            out[stack] += int(n)
    return out


def frames(stack):
    return stack.split(";")[1:]  # the comm is the root frame


def cmd_sum(a):
    print(sum(folded(a[0]).values()))


def cmd_share(a):
    chain, leaf = a[1].split(";"), a[2]
    tot = hit = 0
    for st, n in folded(a[0]).items():
        fr = frames(st)
        if leaf not in fr:
            continue
        tot += n
        i = max(i for i, x in enumerate(fr) if x == leaf)
        if fr[max(0, i + 1 - len(chain)):i + 1] == chain:
            hit += n
    print("%.2f" % (100.0 * hit / tot if tot else -1))


def cmd_outer(a):
    tot = hit = 0
    for st, n in folded(a[0]).items():
        fr = frames(st)
        if a[1] not in fr:
            continue
        tot += n
        i = fr.index(a[1])
        if i > 0 and fr[i - 1] in MARKS:
            hit += n
    print("%.2f" % (100.0 * hit / tot if tot else -1))


def cmd_outermost(a):
    ok = set(a[1].split(","))
    tot = hit = 0
    for st, n in folded(a[0]).items():
        tot += n
        hit += n if frames(st)[0] in ok else 0
    print("%.2f" % (100.0 * hit / tot if tot else -1))


def cmd_garbage(a):
    """An unresolved leaf is no garbage: it is the sample's own IP, in code without a
    symbol (the dynamic loader's, say, when a sample lands there before main)."""
    def leaves(path):
        out = collections.Counter()
        for st, n in folded(path).items():
            out[frames(st)[-1]] += n
        return out
    bad = []
    if leaves(a[0]) != leaves(a[1]):
        bad.append("leaves %s -> %s" % (dict(leaves(a[0]) - leaves(a[1])),
                                        dict(leaves(a[1]) - leaves(a[0]))))
    for st, n in folded(a[1]).items():
        bad += ["%s (%d)" % (st, n)] if any("!0x" in f for f in frames(st)[:-1]) else []
    print("; ".join(bad) if bad else "ok")


def cmd_maxdepth(a):
    print(max(len(frames(s)) for s in folded(a[0])))


def perf_stacks(path, keep):
    """perf script output -> Counter of projected stacks (outermost first)."""
    out = collections.Counter()
    cur = None
    with open(path, errors="replace") as f:
        for line in f:
            if not line.strip():
                if cur is not None:
                    out[tuple(reversed([x for x in cur if keep is None or x in keep]))] += 1
                cur = None
            elif not line[0].isspace():
                cur = []
            elif cur is not None:
                m = re.match(r"\s+[0-9a-f]+ (\S+?)(\+0x[0-9a-f]+)? ", line)
                if m and "(inlined)" not in line:
                    cur.append(m.group(1))
    if cur is not None:
        out[tuple(reversed([x for x in cur if keep is None or x in keep]))] += 1
    return out


def cmd_perf_share(a):
    chain, leaf = a[1].split(";"), a[2]
    tot = hit = 0
    for fr, n in perf_stacks(a[0], None).items():
        fr = list(fr)
        if leaf not in fr:
            continue
        tot += n
        i = max(i for i, x in enumerate(fr) if x == leaf)
        if fr[max(0, i + 1 - len(chain)):i + 1] == chain:
            hit += n
    print("%.2f" % (100.0 * hit / tot if tot else -1))


def cmd_perf_agree(a):
    keep = set(a[2].split(","))
    ours = collections.Counter()
    for st, n in folded(a[0]).items():
        ours[tuple(x for x in frames(st) if x in keep)] += n
    theirs = perf_stacks(a[1], keep)
    tot = max(sum(ours.values()), sum(theirs.values()), 1)
    diff = sum(abs(ours[k] - theirs[k]) for k in set(ours) | set(theirs)) / 2
    print("%.2f" % (100.0 * diff / tot))


def cmd_svg(a):
    root = ET.parse(a[0]).getroot()  # raises on malformed XML
    ns = "{http://www.w3.org/2000/svg}"
    total = int(root.get("data-total"))
    width, xpad = float(root.get("width")), float(root.get("data-xpad"))
    scale = (width - 2 * xpad) / total
    fold = folded(a[1])
    if sum(fold.values()) != total:
        sys.exit("svg total %d != folded %d" % (total, sum(fold.values())))
    # every prefix of every folded stack, with its count
    prefix = collections.Counter()
    for st, n in fold.items():
        parts = st.split(";")
        for i in range(1, len(parts) + 1):
            prefix[tuple(parts[:i])] += n
    nodes = []
    for g in root.iter(ns + "g"):
        if g.get("class") != "f":
            continue
        title = g.find(ns + "title").text
        m = re.match(r"^(.*) \((\d+) samples, [0-9.]+%\)$", title, re.S)
        if not m:
            sys.exit("bad title %r" % title)
        w = float(g.find(ns + "rect").get("width"))
        n, x, d = int(g.get("data-w")), int(g.get("data-x")), int(g.get("data-d"))
        if int(m.group(2)) != n or abs(w - n * scale) > 0.01:
            sys.exit("frame %r: %s samples, width %.4f, expected %.4f" % (m.group(1), n, w, n * scale))
        # folded stacks cannot hold ';' in a name: they have ':' there
        nodes.append((d, x, n, m.group(1).replace(";", ":")))
    # rebuild each frame's path from the geometry: the parent holds its x range, one
    # level down
    by_depth = collections.defaultdict(list)
    for nd in nodes:
        by_depth[nd[0]].append(nd)
    path = {}
    for d in sorted(by_depth):
        for nd in by_depth[d]:
            if d == 0:
                path[nd] = ()
                continue
            par = [p for p in by_depth[d - 1] if p[1] <= nd[1] and nd[1] + nd[2] <= p[1] + p[2]]
            if len(par) != 1:
                sys.exit("frame %r has %d parents" % (nd[3], len(par)))
            path[nd] = path[par[0]] + (nd[3],)
            if prefix[path[nd]] != nd[2]:
                sys.exit("frame %s: %d samples in the svg, %d in the folded file"
                         % (";".join(path[nd]), nd[2], prefix[path[nd]]))
    print("# svg ok: %d frames" % len(nodes))


def load_trace(p):
    with open(p, encoding="utf-8") as f:  # strict: surrogates and bad bytes raise
        return json.load(f)


def cmd_trace(a):
    j = load_trace(a[0])
    ev = j["traceEvents"]
    last = {}
    open_ = collections.defaultdict(list)
    samples = 0
    for e in ev:
        for k in ("ph", "pid", "tid", "name"):
            if k not in e:
                sys.exit("event without %s: %r" % (k, e))
        if e["ph"] == "M":
            if "name" not in e.get("args", {}):
                sys.exit("metadata without args.name: %r" % e)
            continue
        if not isinstance(e.get("ts"), (int, float)):
            sys.exit("event without a numeric ts: %r" % e)
        # a counter ("C", report --agg-interval) is a track of its process and name
        key = (e["pid"], "C", e["name"]) if e["ph"] == "C" else (e["pid"], e["tid"])
        if e["ts"] < last.get(key, float("-inf")):
            sys.exit("ts goes back on track %r: %r" % (key, e))
        last[key] = e["ts"]
        if e["ph"] == "i":
            samples += e.get("cat") == "sample"
        elif e["ph"] == "X":
            if e["dur"] < 0:
                sys.exit("negative dur %r" % e)
            st = open_[key]
            while st and st[-1] <= e["ts"] + 1e-3:
                st.pop()
            end = e["ts"] + e["dur"]
            if st and end > st[-1] + 1e-3:
                sys.exit("slice %r does not nest on track %r" % (e["name"], key))
            st.append(end)
        elif e["ph"] == "C":
            if not e.get("args") or not all(isinstance(v, int) for v in e["args"].values()):
                sys.exit("a counter without whole-number args: %r" % e)
        else:
            sys.exit("unexpected ph %r" % e["ph"])
    for sf in j.get("stackFrames", {}).values():
        if "name" not in sf:
            sys.exit("stack frame without a name")
    if samples != int(a[1]):
        sys.exit("%d sample events, expected %s" % (samples, a[1]))
    print("# trace ok: %d events, %d samples, %d tracks" % (len(ev), samples, len(last)))


def cmd_trace_tasks(a):
    ev = load_trace(a[0])["traceEvents"]
    xs = [e for e in ev if e["ph"] == "X" and e.get("cat") in ("task", "event")]
    names = collections.Counter(e["name"] for e in xs)
    for n in a[1].split(","):
        if not names[n]:
            sys.exit("no slice named %s (have %s)" % (n, dict(names)))
    outer = [e for e in xs if e["name"] == "Outer"]
    inner = [e for e in xs if e["name"] == "Inner"]
    if outer and inner:
        o, i = outer[0], inner[0]
        if (o["pid"], o["tid"]) != (i["pid"], i["tid"]) or not (
                o["ts"] <= i["ts"] and i["ts"] + i["dur"] <= o["ts"] + o["dur"] + 1e-3):
            sys.exit("Inner is not inside Outer on one track")
    print("# tasks ok: %d slices" % len(xs))


def cmd_corrupt(a):
    """Random bytes in every sample's stack copy and callchain return addresses; record
    sizes and fields stay, so only the unwinding sees garbage."""
    rnd = random.Random(7)
    data = bytearray(open(a[0], "rb").read())
    pos, attrs = 16, []
    while pos + 8 <= len(data):
        typ, misc, size = struct.unpack_from("<IHH", data, pos)
        if size < 8 or pos + size > len(data):
            break
        if typ == 64:  # HEADER_ATTR: the attr's sample_type at 24, sample_regs_user at 80
            st, = struct.unpack_from("<Q", data, pos + 8 + 24)
            regs, = struct.unpack_from("<Q", data, pos + 8 + 80)
            ids = [struct.unpack_from("<Q", data, p)[0]
                   for p in range(pos + 8 + struct.unpack_from("<I", data, pos + 12)[0], pos + size, 8)]
            attrs.append((st, regs, ids))
        elif typ == 9 and attrs:
            sid, = struct.unpack_from("<Q", data, pos + 8)
            st, regs = next(((s, r) for s, r, ids in attrs if sid in ids), attrs[0][:2])
            p = pos + 8
            for bit in (0x10000, 0x1, 0x2, 0x4, 0x8, 0x40, 0x200, 0x80, 0x100):
                if st & bit:  # IDENTIFIER IP TID TIME ADDR ID STREAM_ID CPU PERIOD
                    p += 8
            if st & 0x20:  # CALLCHAIN: keep markers and the first entry of each context
                nr, = struct.unpack_from("<Q", data, p)
                first = True
                for i in range(nr):
                    v, = struct.unpack_from("<Q", data, p + 8 + 8 * i)
                    if v >= 2**64 - 4095:
                        first = True
                        continue
                    if not first:
                        struct.pack_into("<Q", data, p + 8 + 8 * i, rnd.getrandbits(64))
                    first = False
                p += 8 + 8 * nr
            if st & 0x1000:  # REGS_USER
                abi, = struct.unpack_from("<Q", data, p)
                p += 8 + (8 * bin(regs).count("1") if abi else 0)
            if st & 0x2000:  # STACK_USER
                sz, = struct.unpack_from("<Q", data, p)
                if sz:
                    data[p + 8:p + 8 + sz] = bytes(rnd.getrandbits(8) for _ in range(sz))
        pos += size
    open(a[0], "wb").write(data)


def main():
    cmds = {"sum": cmd_sum, "share": cmd_share, "perf-share": cmd_perf_share, "outer": cmd_outer, "outermost": cmd_outermost,
            "garbage": cmd_garbage,
            "maxdepth": cmd_maxdepth, "perf-agree": cmd_perf_agree, "svg": cmd_svg,
            "trace": cmd_trace, "trace-tasks": cmd_trace_tasks, "corrupt": cmd_corrupt}
    if len(sys.argv) < 3 or sys.argv[1] not in cmds:
        sys.exit(__doc__)
    cmds[sys.argv[1]](sys.argv[2:])


main()
