# SPDX-License-Identifier: MIT
"""uProf's Python API (amd_instrument) under uprof: see README.md and uprof-itt(7).

Profiled with `uprof collect --start-paused`, only the part between amd_profile_resume()
and amd_profile_pause() is sampled:
  Load/read          group 1: "<domain>::<task>" begins, the domain's name ends
  Model/fit          group 2, three instances summed into one row
  Model/score        group 2
  Load/cleanup       after the pause: not in the report
"""
import amd_instrument as a


def busy(n):
    return sum(i * i for i in range(n))


busy(800000)  # start-up work, not profiled
a.amd_profile_resume()

a.amd_start_task("Load::read")
busy(1200000)
a.amd_end_task("Load")

model = a.domain_create("Model")
for _ in range(3):
    a.task_begin(model, "fit")
    busy(800000)
    a.task_end(model)
a.task_begin(model, "score")
busy(400000)
a.task_end(model)

a.amd_profile_pause()
a.amd_start_task("Load::cleanup")
busy(800000)
a.amd_end_task("Load")
print("tasks.py: done")
