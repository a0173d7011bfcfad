#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""uProf's documented options against this uprof: runs one probe per option or value
(tests/fixtures/uprof-cli/options.tsv, listed from the reference's tables) and classifies
what uprof did with it:

  works    exit 0 (a probe ending in --help: the parser took the option and its value)
  refused  a non-zero exit with a reason on stderr (hardware or a platform this is not)
  unknown  uprof did not know it: "unknown option", "is not a command", an unknown config,
           list or group name, or a pcm command taken for a program to run

Prints a markdown table and the counts. --must-know FILE: exit 1 if an option listed there
(SECTION<tab>OPTION lines) is unknown -- the options known to be built, which must stay so.
"""
import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile

# What uprof says when it does not know a word (each message names the word)
UNKNOWN = re.compile(
    r"unknown option|is not a command|unknown config|no such config|no such metric group"
    r"|no such list|unknown list|cannot start '(top|profile|hreport|compare)'")


def read_probes(path):
    probes = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            parts = line.split("\t")
            if len(parts) != 3:
                sys.exit(f"{path}:{n}: want SECTION<tab>OPTION<tab>PROBE, got {line!r}")
            probes.append(tuple(parts))
    return probes


def collect_session(uprof, where, env):
    subprocess.run([uprof, "collect", "-o", where, "/bin/true"], env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60, check=True)
    names = [d for d in os.listdir(where) if d.startswith("uprof-")]
    if len(names) != 1:
        sys.exit(f"collect made {len(names)} sessions in {where}")
    return os.path.join(where, names[0])


def session_pid(session):
    """The pid of the program a session profiled (session.ini's pids)."""
    with open(os.path.join(session, "session.ini"), encoding="utf-8") as f:
        pids = re.search(r"^pids = (\d+)", f.read(), re.M)
    if not pids:
        sys.exit(f"{session}/session.ini: no pids line")
    return pids.group(1)


# software events a session can sample anywhere, one for each event of configs/assess.ini
SOFTWARE_EVENTS = ["timer", "page-faults", "context-switches", "cpu-migrations", "minor-faults",
                   "major-faults", "alignment-faults", "emulation-faults", "task-clock"]


def pmc_session(uprof, where, env):
    """A real session of /bin/true whose nine software events are renamed in session.ini to
    the assess config's nine core events (what a machine with a PMU records; none here), for
    the probes of report --view: its views need those events by name."""
    cmd = [uprof, "collect", "-o", where]
    for ev in SOFTWARE_EVENTS:
        cmd += ["-e", ev]
    subprocess.run(cmd + ["/bin/true"], env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=60, check=True)
    session = [os.path.join(where, d) for d in os.listdir(where) if d.startswith("uprof-")][0]
    config = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "configs",
                          "assess.ini")
    with open(config, encoding="utf-8") as f:
        names = re.findall(r"^spec = event=([A-Z0-9_]+)", f.read(), re.M)
    ini = os.path.join(session, "session.ini")
    with open(ini, encoding="utf-8") as f:
        lines = f.read().split("\n")
    k = 0
    for i, line in enumerate(lines):
        if line.startswith("name = ") and i and lines[i - 1].startswith("[event.") and k < len(names):
            lines[i] = f"name = {names[k]}"
            k += 1
    if k != len(names):
        sys.exit(f"{ini}: renamed {k} events of {len(names)}")
    with open(ini, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    return session


def first_line(text):
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return ""


def classify(uprof, probe, places, env, timeout):
    out = tempfile.mkdtemp(dir=places["scratch"])
    words = [w.format(OUT=out, **places) for w in shlex.split(probe)]
    env = dict(env)
    while words and re.match(r"[A-Z_]+=", words[0]):
        name, _, value = words.pop(0).partition("=")
        env[name] = value
    try:
        p = subprocess.run([uprof] + words, env=env, stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return "refused", f"(still running after {timeout} s)"
    said = first_line(p.stderr)
    if UNKNOWN.search(p.stderr):
        return "unknown", said
    if p.returncode == 0:
        return "works", ""
    return "refused", said or f"(exit {p.returncode}, nothing said)"


def cell(text):
    return text.replace("|", "\\|").replace("\n", " ")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--uprof", default=os.environ.get("UPROF", "build/bin/uprof"))
    ap.add_argument("--probes", default="tests/fixtures/uprof-cli/options.tsv")
    ap.add_argument("--must-know", help="SECTION<tab>OPTION lines that must not be unknown")
    ap.add_argument("--timeout", type=float, default=30)
    args = ap.parse_args()

    uprof = os.path.abspath(args.uprof)
    probes = read_probes(args.probes)
    env = dict(os.environ, LC_ALL="C")
    with tempfile.TemporaryDirectory(prefix="uprof-cov.") as scratch:
        places = {"scratch": scratch, "PROG": "/bin/true",
                  "FIX": os.path.abspath(os.path.join(os.path.dirname(args.probes), ".."))}
        places["SESSION"] = collect_session(uprof, os.path.join(scratch, "s1"), env)
        places["SESSION2"] = collect_session(uprof, os.path.join(scratch, "s2"), env)
        places["SESSION_PID"] = session_pid(places["SESSION"])
        places["PMC_SESSION"] = pmc_session(uprof, os.path.join(scratch, "p"), env)
        results = [(sec, opt, *classify(uprof, probe, places, env, args.timeout))
                   for sec, opt, probe in probes]

    print("| section | option | uprof | what uprof said |")
    print("|---|---|---|---|")
    for sec, opt, verdict, said in results:
        print(f"| {sec} | `{cell(opt)}` | {verdict} | {cell(said)} |")
    counts = {v: sum(1 for r in results if r[2] == v) for v in ("works", "refused", "unknown")}
    print(f"\n{len(results)} options and values: {counts['works']} work, "
          f"{counts['refused']} refused with a reason, {counts['unknown']} unknown")

    if not args.must_know:
        return 0
    unknown = {(r[0], r[1]) for r in results if r[2] == "unknown"}
    known = {(r[0], r[1]) for r in results}
    bad = 0
    with open(args.must_know, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            key = tuple(line.split("\t", 1))
            if key not in known:
                print(f"must-know: {line!r} is not a probe in {args.probes}", file=sys.stderr)
                bad = 1
            elif key in unknown:
                print(f"must-know: {key[0]} {key[1]} is unknown to uprof", file=sys.stderr)
                bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main())
