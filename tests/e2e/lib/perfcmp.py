#!/usr/bin/env python3
"""uprof's stacks against perf's, sample by sample, for tests/e2e/dwarf_vs_perf.sh.

perfcmp.py TRACE SESSION_INI PERF_INLINE PERF_PLAIN

TRACE        uprof's trace.json (uprof report --export perfetto): every sample with its
             tid, time and stack (outermost first)
SESSION_INI  the session's session.ini (start_mono_ns: the trace's time base)
PERF_INLINE  perf script -F tid,time,ip,sym --ns --inline on the session's samples.data
PERF_PLAIN   perf script -F tid,time,ip,sym,dso --ns --no-inline

Prints one line "samples N matched M equal E failed F deeper D more R" and, as '#'
lines, the most common other differences. Samples are matched by (tid, time in ns).
"Deeper": not equal, but perf's stack is uprof's cut short at the root, and uprof's
reached an entry point (ROOTS): perf stopped early where uprof unwound the whole stack.
"More": neither equal nor deeper, but every frame of perf's stack is in uprof's, in the
same order (perf's "[unknown]" matching any frame uprof named), and uprof's has as many
or more: perf skipped or could not name frames uprof found (perf's unwinder steps
over ld.so's _dl_start at times, and stops at the stripped _start of cc1 one frame after
main where uprof goes on to __libc_start_main).
Where uprof's stack reached an entry point, the "[unknown]" frames at the root of perf's
are left out before looking for "deeper" and "more": perf's unwind went astray there.
Frames at the root of perf's stack in the heap or a stack (its dso "[heap]", "[stack]")
are left out always: no program compared here runs code there, so perf's unwind went
astray (beside two CPU hogs, make -j2's posix_spawn sampled in the kernel under glibc's
clone3, whose syscall instruction lies past the end of its CFI on purpose: uprof stopped
there with [unwind failed], perf read a [heap] address as the return address; 3 of 1065
samples, counted as uprof failing where perf unwound to a root, clone3).

"Equal": the same function names, root to leaf, inlined frames included, where
 - each perf frame is the inline chain perf --inline prints for its address (innermost
   first, from addr2line -i) with the chain's outermost entry named by perf's symbol for
   the address (the --no-inline run): addr2line names that function by its DWARF name,
   which perf marks "(inlined)" whenever it differs from the symbol's (an alias such as
   __libc_start_main_impl for __libc_start_main), though nothing was inlined there;
 - a symbol's version (perf's "__libc_start_main@@GLIBC_2.34"), a C++ function's
   parameter list, clone suffix and return type (perf prints none) are not part of its
   name, and the
   names of one address in one file (its symbol table's aliases: perf picks
   __memmove_avx512_unaligned_erms where uprof picks __memcpy_...) are one name;
 - an address no symbol names is "[unknown]" on both sides (perf's [unknown] or, for a
   PLT slot of no name, "@plt"; uprof's module!0x...);
 - uprof's markers ([truncated], [unwind failed]) are not frames: perf has none, and
   where both stop early they stopped at the same frame; nor is the entry perf adds at
   ip 0xffffffffffffffff ("[unknown]") where it stepped out of the copied stack.
"Failed": uprof marked the stack [unwind failed] although perf unwound it further, or
to an entry point (ROOTS).
"""
import collections
import json
import os
import re
import subprocess
import sys

MARKS = ("[truncated]", "[unwind failed]")
ASTRAY = ("[heap]", "[stack]")  # no code there in the programs compared
ASTRAY_NAME = "[astray]"
ASTRAYED = set()  # (tid, time) of perf's stacks that went astray: they reached no root
ROOTS = ("_start", "__libc_start_main", "clone", "clone3", "__clone", "__clone3",
         "__GI___clone", "__GI___clone3", "start_thread", "thread_start")
HEAD = re.compile(r"^\s*(\d+)\s+(\d+)\.(\d+):")
FRAME = re.compile(r"^\s+([0-9a-f]+) (.*?)\s*$")
DSO = re.compile(r"^(.*) \(([^()]*)\)$")
DSOS = set()


def perf_samples(path):
    """[(tid, time_ns, [(ip, name), ...] leaf first)] in file order."""
    out, cur = [], None
    with open(path, errors="replace") as f:
        for line in f:
            m = HEAD.match(line)
            if m:
                cur = (int(m.group(1)), int(m.group(2)) * 10**9 + int(m.group(3)), [])
                out.append(cur)
                continue
            m = FRAME.match(line)
            if m and cur is not None:
                name = m.group(2)
                d = DSO.match(name)
                if d:  # the --no-inline run names each frame's file: -F ...,dso
                    name = d.group(1)
                    if d.group(2).startswith("/"):
                        DSOS.add(d.group(2))
                    if d.group(2) in ASTRAY:
                        name = ASTRAY_NAME
                cur[2].append((int(m.group(1), 16), name))
    return out


def strip_params(name):
    """C++ names without their parameter list, qualifiers, clone suffixes and return
    type: perf prints "use_map" where uprof prints "use_map(int) [clone .constprop.0]"."""
    name = re.sub(r"( \[clone [^\]]*\])+$", "", name)
    name = re.sub(r"( const| volatile| &| &&)+$", "", name)
    if name.endswith(")") and not name.endswith("operator()"):
        depth = 0
        for i in range(len(name) - 1, 0, -1):
            depth += {")": 1, "(": -1}.get(name[i], 0)
            if depth == 0:
                name = name[:i]
                break
    return no_return_type(name)


def no_return_type(name):
    """A template function's demangled name starts with its return type ("void
    std::sort<...>"), which perf leaves out: the last word outside brackets, with the
    "operator" it may belong to ("operator new")."""
    words, depth, cur = [], 0, ""
    for c in name:
        depth += {"<": 1, "(": 1, "[": 1, ">": -1, ")": -1, "]": -1}.get(c, 0)
        if c == " " and depth == 0:
            words.append(cur)
            cur = ""
        else:
            cur += c
    words.append(cur)
    i = len(words) - 1
    while i > 0 and words[i - 1].endswith("operator"):
        i -= 1
    return " ".join(words[i:])


def bare(name):
    name = re.sub(r" \(inlined\)$", "", name)
    name = re.sub(r"@@?[A-Za-z0-9_.]+$", "", name)
    return ALIAS.get(strip_params(name), strip_params(name))


# names of one address in one file, as one function: perf and uprof pick different
# aliases (perf: __memmove_avx512_unaligned_erms, uprof: __memcpy_...); filled by aliases()
ALIAS = {}


def debug_file(path):
    """The separate debug file of @path in /usr/lib/debug/.build-id, if any."""
    try:
        out = subprocess.run(["readelf", "-n", path], capture_output=True, text=True).stdout
    except OSError:
        return None
    m = re.search(r"Build ID: ([0-9a-f]{2})([0-9a-f]+)", out)
    f = m and "/usr/lib/debug/.build-id/%s/%s.debug" % (m.group(1), m.group(2))
    return f if f and os.path.exists(f) else None


def aliases(dsos):
    names = collections.defaultdict(set)
    for d in dsos:
        files = [d] + [x for x in [debug_file(d)] if x]
        for f in files:
            for dyn in ([], ["-D"]):
                out = subprocess.run(["nm", "-C", "--defined-only"] + dyn + [f],
                                     capture_output=True, text=True).stdout
                for line in out.splitlines():
                    p = line.split(" ", 2)
                    if len(p) == 3 and p[1] in "TtWwiI":
                        names[(d, p[0])].add(strip_params(re.sub(r"@@?[A-Za-z0-9_.]+$", "", p[2])))
    # the kernel's aliases too (__x64_sys_vfork and __ia32_sys_vfork at one address:
    # perf and uprof pick different ones); /proc/kallsyms gives addresses to root
    try:
        with open("/proc/kallsyms") as f:
            for line in f:
                p = line.split()
                if len(p) >= 3 and p[1] in "TtWw" and p[0].strip("0"):
                    names[("[kernel]", p[0])].add(p[2])
    except OSError:
        pass
    # one name in several groups (ld.so and libc both define __readdir) joins them
    parent = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x
    for group in names.values():
        first = next(iter(group))
        for n in group:
            a, b = find(first), find(n)
            if a != b:
                parent[max(a, b)] = min(a, b)
    for n in parent:
        ALIAS[n] = find(n)


def perf_stacks(inl, plain):
    """{(tid, time): names leaf first} with perf's inline chains. Each address's chain is
    its run of entries in the --inline run; recursion repeats an address r times in a
    row, and its run then holds r equal chains."""
    out = {}
    for (tid, t, fi), (_, _, fp) in zip(inl, plain):
        names, i, k = [], 0, 0
        while k < len(fp):
            ip, sym = fp[k]
            r = 1
            while k + r < len(fp) and fp[k + r][0] == ip:
                r += 1
            n = 0
            while i + n < len(fi) and fi[i + n][0] == ip:
                n += 1
            per = n // r if n and n % r == 0 else 1
            for _ in range(r):
                chain = fi[i:i + per]
                i += per
                if ip == 2**64 - 1:  # perf's last step out of a cut stack copy: no frame
                    continue
                names += [bare(c[1]) + " (inlined)" for c in chain[:-1]]
                # an unnamed PLT slot (libc's ifunc slots) is "@plt" to perf, which
                # bare() makes "", and module!0x... to uprof: no name on both sides
                names.append("[unknown]" if sym == "[unknown]" or not bare(sym) else bare(sym))
            k += r
        if names and names[-1] == ASTRAY_NAME:
            ASTRAYED.add((tid, t))
        while names and names[-1] == ASTRAY_NAME:  # leaf first: the root's end
            names.pop()
        out[(tid, t)] = names
    return out


def subsequence(short, long):
    """Every name of @short in @long, in the same order (both leaf first); an address
    perf could not name ("[unknown]") matches any of uprof's (a signal frame's
    __restore_rt)."""
    it = iter(long)
    return all(any(x == y or x == "[unknown]" for y in it) for x in short)


def norm(name):
    """One of uprof's names as bare() makes perf's."""
    if re.search(r"!0x[0-9a-f]+$", name):
        return "[unknown]"
    if name in MARKS:
        return name
    if name.endswith(" (inlined)"):
        return bare(name[:-len(" (inlined)")]) + " (inlined)"
    return bare(name)


def uprof_stacks(trace, ini):
    base = int(re.search(r"^start_mono_ns = (\d+)", open(ini).read(), re.M).group(1))
    with open(trace) as f:
        j = json.load(f)
    out = {}
    for e in j["traceEvents"]:
        if e.get("cat") != "sample":
            continue
        fr = e["args"]["stack"].split(";")
        names = [norm(x) for x in reversed(fr)]
        out[(e["tid"], base + round(e["ts"] * 1000))] = names
    return out


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    inl, plain = perf_samples(sys.argv[3]), perf_samples(sys.argv[4])
    if len(inl) != len(plain) or any(a[:2] != b[:2] for a, b in zip(inl, plain)):
        sys.exit("the two perf script runs list different samples")
    aliases(sorted(DSOS))
    ours = uprof_stacks(sys.argv[1], sys.argv[2])
    theirs = perf_stacks(inl, plain)
    # the trace's times are µs with 3 decimals: allow a ns either way
    by_tid = collections.defaultdict(dict)
    for (tid, t), v in theirs.items():
        by_tid[tid][t] = v
    matched = equal = failed = deeper = more = 0
    diffs = collections.Counter()
    for (tid, t), mine in ours.items():
        pt = next((x for x in (t, t - 1, t + 1) if x in by_tid[tid]), None)
        if pt is None:
            continue
        p = by_tid[tid][pt]
        # perf's stack ends at a root only where it did not go astray past it (a parent's
        # clone3 syscall: glibc's clone3 with no CFI at the syscall, a thread's root else)
        p_rooted = bool(p) and p[-1] in ROOTS and (tid, pt) not in ASTRAYED
        matched += 1
        frames = [x for x in mine if x not in MARKS]
        q = p
        if any(x in ROOTS for x in frames):  # uprof reached an entry point: perf's
            while len(q) > 1 and q[-1] == "[unknown]":  # unnamed root frames are where
                q = q[:-1]  # its unwind went astray, not frames
        if frames == p:
            equal += 1
        elif len(frames) >= len(q) and frames[:len(q)] == q and frames[-1] in ROOTS:
            deeper += 1  # perf's stack is uprof's cut short; uprof's reached an entry point
            if os.environ.get("PERFCMP_SHOW_DEEPER"):
                print("# deeper: uprof %s\n#         perf  %s" % (";".join(frames[::-1]),
                                                               ";".join(p[::-1])))
        elif len(frames) >= len(q) and subsequence(q, frames):
            more += 1  # perf's frames all in uprof's, in order: perf skipped some
            if os.environ.get("PERFCMP_SHOW_DEEPER"):
                print("# more: uprof %s\n#       perf  %s" % (";".join(frames[::-1]),
                                                            ";".join(p[::-1])))
        else:  # where they part, root side first
            a, b = frames[::-1], p[::-1]
            k = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            diffs[("%d frames in: " % k + ";".join(a[k:k + 3]), ";".join(b[k:k + 3]))] += 1
        if "[unwind failed]" in mine and (len(p) > len(frames) or p_rooted):
            failed += 1
    print("samples %d matched %d equal %d failed %d deeper %d more %d"
          % (len(ours), matched, equal, failed, deeper, more))
    for (a, b), n in diffs.most_common(6):
        print("# %d x\n#   uprof: %s\n#   perf:  %s" % (n, a[:600], b[:600]))


main()
