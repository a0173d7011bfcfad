#!/usr/bin/env python3
"""Read the wait records of an openmp/<pid>.ompt file (lib/session/openmp.h).

omptq.py FILE unended HOW   the waits of kind HOW (SES_OMPT_WAIT_*: 6 a mutex) a thread
                            began and did not end before its next wait began or the
                            file ended
"""
import struct
import sys

RECORD, WAIT_BEGIN, WAIT_END = 2, 3, 4


def records(path):
    """(tid, kind, how) of each SES_OMPT_RECORD, in file order (container framing 2.x)"""
    with open(path, "rb") as f:
        d = f.read()
    if d[:8] != b"UPOMPT01":
        sys.exit("%s: not a uprof OpenMP file" % path)
    major, _, hsize = struct.unpack_from("<HHI", d, 8)
    if major != 2:
        sys.exit("%s: container major %d, this reads 2" % (path, major))
    off = hsize
    while off + 8 <= len(d):
        typ, length = struct.unpack_from("<II", d, off)
        val = d[off + 8:off + 8 + length]
        off += 8 + length
        if typ == RECORD and len(val) >= 24:
            _, tid, kind, how, _, _ = struct.unpack_from("<QIHHII", val)
            yield tid, kind, how


def main():
    if sys.argv[2] != "unended":
        sys.exit("unknown query %r" % sys.argv[2])
    want = int(sys.argv[3])
    open_wait, n = {}, 0
    for tid, kind, how in records(sys.argv[1]):
        if kind == WAIT_BEGIN:
            n += open_wait.get(tid) == want
            open_wait[tid] = how
        elif kind == WAIT_END:
            open_wait.pop(tid, None)
    print(n + sum(h == want for h in open_wait.values()))


main()
