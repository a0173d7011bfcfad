# SPDX-License-Identifier: MIT
"""Instructions of one shared object's entry points, from a callgrind profile.

bench/omp_tool_instr.sh runs a program under `valgrind --tool=callgrind` and asks this
script what the OMPT tool cost: every call from code outside OBJECT into a function of
OBJECT is an entry (libomp calling a callback, libc an exit handler), and callgrind
writes each call's inclusive cost (the callee and everything it called: the ring, the
clock read's user-space part) on the line after its `calls=` line.

    cg_calls.py CALLGRIND_OUT OBJECT_SUBSTRING

prints, one per line:
    total <Ir of the whole process> [EVENT=count ...]
    self <object path> <Ir executed in that object's own code>
    entry <function> <calls> <inclusive Ir of those calls> [EVENT=count ...]
    out <function> <calls> <inclusive Ir>   (OBJECT's calls to code outside it: its
                                             clock reads are calls to clock_gettime)
The EVENT=count pairs are the profile's other events, when it has them: with
--cache-sim=yes, Dr Dw (data reads and writes), I1mr D1mr D1mw (first-level misses) and
ILmr DLmr DLmw (last-level misses), as callgrind names them.
Names are as callgrind has them (static functions too: the library keeps its symbol
table). Positions are `line` (callgrind's default); other options are refused.
"""
import collections
import sys


def parse(path, want):
    names = {"ob": {}, "fl": {}, "fn": {}}  # callgrind's compressed "(id) name" strings
    state = {"ob": None, "cob": None, "cfn": None, "total": None, "events": ["Ir"],
             "pending": None}  # pending: (callee object, name, calls) for the next line
    self_ir = collections.Counter()
    entry = (collections.Counter(), collections.Counter())  # calls, Ir
    entry_ev = collections.defaultdict(collections.Counter)  # callee: event -> count
    out = (collections.Counter(), collections.Counter())

    def name(kind, rest):
        rest = rest.strip()
        if rest.startswith("("):
            ident, _, text = rest.partition(")")
            text = text.strip()
            if text:
                names[kind][ident] = text
            return names[kind].get(ident, ident)
        return rest

    def step(line):
        if not line or line.startswith("#"):
            return
        key, eq, rest = line.partition("=")
        if eq and key in ("ob", "cob", "fn", "cfn", "cfi", "cfl", "fl", "fi", "fe"):
            if key in ("ob", "cob"):
                state[key] = name("ob", rest)
            elif key == "fn":
                name("fn", rest)
                state["cob"] = None
            elif key == "cfn":
                state["cfn"] = name("fn", rest)
            else:
                name("fl", rest)
            return
        if eq and key == "calls":
            callee_ob = state["cob"] if state["cob"] is not None else state["ob"]
            state["pending"] = (callee_ob, state["cfn"], int(rest.split()[0]))
            return
        if line.startswith("positions:") and line.split()[1:] != ["line"]:
            sys.exit("cg_calls: positions other than 'line' are not read: " + line)
        if line.startswith("events:"):
            state["events"] = line.split()[1:]
            return
        if line.startswith("totals:"):  # the last line: a profile cut short has none
            state["total"] = [int(v) for v in line.split()[1:]]
            return
        if ":" in line.split()[0] or not (line[0].isdigit() or line[0] in "+-*"):
            return  # a header line (version:, events:, ...)
        fields = line.split()
        ir = int(fields[1]) if len(fields) > 1 else 0
        if state["pending"]:
            callee_ob, callee, count = state["pending"]
            state["pending"] = state["cob"] = None
            if want in callee_ob and want not in state["ob"]:
                entry[0][callee] += count
                entry[1][callee] += ir
                for ev, v in zip(state["events"][1:], fields[2:]):  # trailing 0s omitted
                    entry_ev[callee][ev] += int(v)
            elif want in state["ob"] and want not in callee_ob:
                out[0][callee] += count
                out[1][callee] += ir
            return
        self_ir[state["ob"]] += ir

    with open(path, encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            try:
                step(line.rstrip("\n"))
            except (ValueError, IndexError, TypeError):
                sys.exit("cg_calls: %s:%d is not callgrind's format: %r" %
                         (path, number, line[:80]))
    return state["total"], state["events"], self_ir, entry, entry_ev, out


def others(events, values):
    """ EVENT=count for each event past Ir ("" when the profile has only Ir)."""
    values = list(values) + [0] * (len(events) - len(values))
    return "".join(" %s=%d" % (e, v) for e, v in zip(events[1:], values[1:]))


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: cg_calls.py CALLGRIND_OUT OBJECT_SUBSTRING")
    total, events, self_ir, (calls, ir), entry_ev, (ocalls, oir) = parse(sys.argv[1],
                                                                          sys.argv[2])
    if total is None:
        sys.exit("cg_calls: %s has no totals line: not a finished callgrind profile" %
                 sys.argv[1])
    print("total %d%s" % (total[0], others(events, total)))
    for ob, n in sorted(self_ir.items(), key=lambda kv: -kv[1]):
        print("self", ob, n)
    for fn in sorted(calls):
        print("entry %s %d %d%s" % (fn, calls[fn], ir[fn],
                                    others(events, [ir[fn]] + [entry_ev[fn][e]
                                                               for e in events[1:]])))
    for fn in sorted(ocalls):
        print("out", fn, ocalls[fn], oir[fn])


if __name__ == "__main__":
    main()
