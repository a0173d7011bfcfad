#!/usr/bin/env bash
# bench/progress.sh [RUNS] -- what the progress lines cost (issue 17): report and collect
# with the line on against -q, both under a pty from script(1) (UPROF_PROGRESS_DELAY=0:
# report draws the line from its first records), interleaved round by round (on/off, then off/on).
# Prints the median of each and the ratio on/off: report wall time on one session, and
# collect's own CPU time (user+sys of uprof itself, children excluded: -d fixes the wall
# time) on a -d 2 run. Nothing passes or fails.
set -euo pipefail
# the system's python, not a version manager's shim on PATH (tests/e2e/lib/common.sh)
PYTHON=${PYTHON:-$(command -v /usr/bin/python3 python3 | head -1)}
export LC_ALL=C
UPROF=${UPROF:-build/bin/uprof}
RUNS=${1:-7}
T=$(mktemp -d /tmp/uprof-bench-progress.XXXXXX)
trap 'rm -rf "$T"' EXIT
make -s build/targets/demo >/dev/null
# one session of about 30k samples (0.1 ms timer, 3 s)
"$UPROF" collect -q --timer-interval 0.1 -d 3 -b -o "$T/s" build/targets/demo 8000 >/dev/null 2>&1 || true  # -b: the demo is killed
S=$(ls -d "$T"/s/uprof-*)
"$PYTHON" - "$UPROF" "$S" "$RUNS" "$T" <<'PY'
import os, resource, statistics, subprocess, sys, time
uprof, sess, runs, tmp = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
env = dict(os.environ, UPROF_PROGRESS_DELAY="0")
env.pop("CI", None)
def under_pty(cmd):  # script(1): uprof's stderr is a terminal
    return ["script", "-qfec", " ".join(f"'{c}'" for c in cmd), "/dev/null"]
def run(cmd):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # -b kills the demo: not 0
    t1 = time.monotonic()
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return t1 - t0, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
rep = {"on": [], "off": []}
col = {"on": [], "off": []}
for i in range(runs):
    for mode in (("on", "off") if i % 2 == 0 else ("off", "on")):
        q = [] if mode == "on" else ["-q"]
        cmd = [uprof, "report"] + q + ["-i", sess]
        rep[mode].append(run(under_pty(cmd))[0])
        # collect: uprof's CPU time; the demo's own is the same either way, so both
        # include it (script's and the target's too) and the difference is the line's
        out = f"{tmp}/c-{mode}-{i}"
        cmd = [uprof, "collect"] + q + ["-d", "2", "-b", "-o", out, "build/targets/demo", "8000"]
        col[mode].append(run(under_pty(cmd))[1])
        subprocess.run(["rm", "-rf", out])
def line(what, d, unit):
    on, off = statistics.median(d["on"]), statistics.median(d["off"])
    print(f"| {what} | {on:.3f} {unit} | {off:.3f} {unit} | {on / off:.3f} |")
print(f"{runs} rounds each, interleaved; session {sess.rsplit('/', 1)[-1]}")
print("| measure | progress on | -q | on/off |\n|---|---|---|---|")
line("report wall time (median)", rep, "s")
line("collect -d 2: CPU time of uprof + target (median)", col, "s")
PY
