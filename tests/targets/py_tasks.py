# SPDX-License-Identifier: MIT
"""Python tasks and profile control under uprof collect --start-paused (tests/e2e/python.sh).

Known answers:
  before_resume()   0.2 s of zlib compression while still paused at start: no sample
                    in libz (the only zlib work of the script is paused)
  PyDom/Group1      group 1 (amd_start_task), 1 x ~0.10 s
  PyDom/Loop        group 1, 3 x ~0.03 s = ~0.09 s
  PyDom/Nest        group 1, holds PyDom/Inner: ~0.08 s and 1 x ~0.04 s
  PyDom2/Group2     group 2 (domain_create, task_begin, task_end), 1 x ~0.10 s
  PyDom2/Strict     between strict resume and strict pause, 1 x ~0.05 s
  PyDom/Paused      begun and ended while paused: absent; paused_work() compresses
                    with zlib for 0.2 s: no sample in libz either
  (bad calls: no "::", empty parts, a comma, ends without begins: ignored)
"""
import sys
import time
import zlib

import amd_instrument as a


def spin(secs):
    end = time.monotonic() + secs
    x = 0
    while time.monotonic() < end:
        for i in range(200):
            x += i
    return x


def compress(secs):
    data = bytes(range(256)) * 4096
    end = time.monotonic() + secs
    n = 0
    while time.monotonic() < end:
        n += len(zlib.compress(data, 9))
    return n


def before_resume():
    return compress(0.2)


def paused_work():
    return compress(0.2)


if sys.argv[1:] == ["control"]:  # the same zlib work, not paused: libz is sampled
    compress(0.2)
    sys.exit(0)


before_resume()
a.amd_profile_resume()
a.amd_start_task("PyDom::Group1")
spin(0.10)
a.amd_end_task("PyDom")
for _ in range(3):
    a.amd_start_task("PyDom::Loop")
    spin(0.03)
    a.amd_end_task("PyDom")
a.amd_start_task("PyDom::Nest")
spin(0.04)
a.amd_start_task("PyDom::Inner")
spin(0.04)
a.amd_end_task("PyDom")
a.amd_end_task("PyDom")

d = a.domain_create("PyDom2")
a.task_begin(d, "Group2")
spin(0.10)
a.task_end(d)

# bad calls: warned about once each, otherwise ignored
a.amd_start_task("NoSeparator")
a.amd_start_task("::NoDomain")
a.amd_start_task("Comma,Dom::T")
a.amd_end_task("NeverBegun")
a.task_end(d)

a.amd_profile_pause()
a.amd_start_task("PyDom::Paused")
paused_work()
a.amd_end_task("PyDom")
a.amd_profile_strict_resume()
a.task_begin(d, "Strict")
spin(0.05)
a.task_end(d)
a.amd_profile_strict_pause()
spin(0.1)
print("py_tasks: done")
