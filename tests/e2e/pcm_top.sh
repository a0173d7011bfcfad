#!/usr/bin/env bash
# uprof pcm top: the live per-core table. Not on a terminal, the tables follow one another:
# -I 100 -d 0.35 gives 4 (100, 200, 300 ms and the last 50). Each has the system row and
# one row per online CPU; the system's counts are its CPUs' counts summed, exactly. Without
# -m: ipc where a core PMU exists (the fake Zen machine: shown by --dry-run), else swi,
# said. 'top' is pcm's command, never a program named top; -A, -C, -o and a program are
# refused in one line. (A reading taken late on a loaded machine may pass the end: then 3.)
. "$(dirname "$0")/lib/common.sh"

FIX=$PWD/tests/fixtures
"$UPROF" pcm top -I 100 -d 0.35 >"$SCRATCH/top" 2>"$SCRATCH/err"
rc=$?
ncpu=$(nproc)
n=$(grep -c '^uprof pcm top  ' "$SCRATCH/top")
check "exit 0, 4 tables (or 3) for -I 100 -d 0.35: $n" [ $rc = 0 -a \( "$n" = 4 -o "$n" = 3 \) ]
check "each table: the system row and $ncpu core rows" \
	[ "$(grep -c '^System (Aggregated) ' "$SCRATCH/top")" = "$n" -a "$(grep -c '^Core-[0-9]* ' "$SCRATCH/top")" = $((n * ncpu)) ]
if [ -e /sys/bus/event_source/devices/cpu ]; then
	ok "no core PMU: swi said # SKIP this machine has a core PMU (top shows ipc)"
else
	check_sh "no core PMU here: one line says top shows swi" \
		'[ "$(grep -c "^uprof pcm top: no core PMU on this machine: showing swi" "$SCRATCH/err")" = 1 ]'
fi
# per table: column N of the system row = the sum of column N of the core rows, for the
# counts (Context Switches, CPU Migrations, Page Faults: the last three columns)
sums_ok=$("$PYTHON" - "$SCRATCH/top" <<'PY'
import sys
tables, cur = [], None
for line in open(sys.argv[1]):
    if line.startswith("uprof pcm top  "):
        cur = {"sys": None, "cores": []}; tables.append(cur)
    elif line.startswith("System (Aggregated) "):
        cur["sys"] = [int(x) for x in line.split()[-3:]]
    elif line.startswith("Core-"):
        cur["cores"].append([int(x) for x in line.split()[-3:]])
ok = len(tables) in (3, 4) and all(t["sys"] == [sum(c[i] for c in t["cores"]) for i in range(3)] for t in tables)
print("yes" if ok else "no: %r" % tables)
PY
)
check "every table: the system's context switches, migrations, page faults = the sum of its cores'" [ "$sums_ok" = yes ]

D=$(UPROF_SYSFS_ROOT=$FIX/sysfs UPROF_PROCFS_ROOT=$FIX/procfs "$UPROF" pcm top --dry-run 2>&1)
check_sh "fake Zen 3 machine: top defaults to ipc, on all 16 CPUs" \
	'grep -q "^# group ipc (CORE METRICS)" <<<"$D" && [ "$(grep "^cpu=" <<<"$D" | grep "pmu=cpu " | sed -E "s/^cpu=([0-9]+) .*/\1/" | sort -un | wc -l)" = 16 ]'

expect_fail 2 "top -A core" "-A is not for top" "$UPROF" pcm top -A core -d 0.1
expect_fail 2 "top -C" "top shows a live table: -C, -o, -O and --html" "$UPROF" pcm top -C -d 0.1
expect_fail 2 "top -o" "top shows a live table" "$UPROF" pcm top -o "$SCRATCH/x.csv" -d 0.1
expect_fail 2 "top with a program" "top watches the whole machine: no program" \
	"$UPROF" pcm top -- /bin/true
exit 0
