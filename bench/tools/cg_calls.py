# SPDX-License-Identifier: MIT
"""Instructions of one shared object's entry points, from a callgrind profile.

bench/omp_tool_instr.sh runs a program under `valgrind --tool=callgrind` and asks this
script what the OMPT tool cost: every call from code outside OBJECT into a function of
OBJECT is an entry (libomp calling a callback, libc an exit handler), and callgrind
writes each call's inclusive cost (the callee and everything it called: the ring, the
clock read's user-space part) on the line after its `calls=` line.

    cg_calls.py CALLGRIND_OUT OBJECT_SUBSTRING

prints, one per line:
    total <Ir of the whole process>
    self <object path> <Ir executed in that object's own code>
    entry <function> <calls> <inclusive Ir of those calls>
    out <function> <calls> <inclusive Ir>   (OBJECT's calls to code outside it: its
                                             clock reads are calls to clock_gettime)
Names are as callgrind has them (static functions too: the library keeps its symbol
table). Positions are `line` (callgrind's default); other options are refused.
"""
import collections
import sys


def parse(path, want):
    names = {"ob": {}, "fl": {}, "fn": {}}  # callgrind's compressed "(id) name" strings
    ob = fn = cob = cfn = None
    total = None
    self_ir = collections.Counter()
    entry_calls = collections.Counter()
    entry_ir = collections.Counter()
    out_calls = collections.Counter()
    out_ir = collections.Counter()
    pending = None  # (callee object, callee name, calls): the next cost line is its cost

    def name(kind, rest):
        rest = rest.strip()
        if rest.startswith("("):
            ident, _, text = rest.partition(")")
            text = text.strip()
            if text:
                names[kind][ident] = text
            return names[kind].get(ident, ident)
        return rest

    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            key, eq, rest = line.partition("=")
            if eq and key in ("ob", "cob", "fn", "cfn", "cfi", "cfl", "fl", "fi", "fe"):
                if key == "ob":
                    ob = name("ob", rest)
                elif key == "cob":
                    cob = name("ob", rest)
                elif key == "fn":
                    fn = name("fn", rest)
                    cob = None
                elif key == "cfn":
                    cfn = name("fn", rest)
                else:
                    name("fl", rest)
                continue
            if eq and key == "calls":
                count = int(rest.split()[0])
                pending = (cob if cob is not None else ob, cfn, count)
                continue
            if line.startswith("positions:") and line.split()[1:] != ["line"]:
                sys.exit("cg_calls: positions other than 'line' are not read: " + line)
            if line.startswith("summary:") or line.startswith("totals:"):
                total = int(line.split()[1])
                continue
            if ":" in line.split()[0] or not (line[0].isdigit() or line[0] in "+-*"):
                continue  # a header line (version:, events:, ...)
            fields = line.split()
            ir = int(fields[1]) if len(fields) > 1 else 0
            if pending:
                callee_ob, callee, count = pending
                pending = None
                cob = None
                if want in callee_ob and want not in ob:
                    entry_calls[callee] += count
                    entry_ir[callee] += ir
                elif want in ob and want not in callee_ob:
                    out_calls[callee] += count
                    out_ir[callee] += ir
                continue
            self_ir[ob] += ir
    return total, self_ir, (entry_calls, entry_ir), (out_calls, out_ir)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: cg_calls.py CALLGRIND_OUT OBJECT_SUBSTRING")
    total, self_ir, (calls, ir), (ocalls, oir) = parse(sys.argv[1], sys.argv[2])
    if total is None:
        sys.exit("cg_calls: %s has no summary line: not a finished callgrind profile" %
                 sys.argv[1])
    print("total", total)
    for ob, n in sorted(self_ir.items(), key=lambda kv: -kv[1]):
        print("self", ob, n)
    for fn in sorted(calls):
        print("entry", fn, calls[fn], ir[fn])
    for fn in sorted(ocalls):
        print("out", fn, ocalls[fn], oir[fn])


if __name__ == "__main__":
    main()
