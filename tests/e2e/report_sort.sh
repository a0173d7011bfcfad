#!/usr/bin/env bash
# report -s/--sort-by, --show-percentage/--show-sample-count/--show-event-count and
# --agg-interval, --ignore-system-module, --inline on a real session of two events (cpu-clock and page-faults): the chosen
# event sorts every hottest table and comes first, the numbers are the default report's
# own (only their order and unit change), SAMPLES PER INTERVAL sums to the totals; an
# event the session lacks, a second -s, two --show-* are one-line usage errors.
. "$(dirname "$0")/lib/common.sh"

"$UPROF" collect -e timer -e page-faults -o "$SCRATCH/s" "$TGT/callgraph_fp" 2000 >/dev/null 2>&1
S=$(session_in "$SCRATCH/s")
check "a session of CPU_TIME and page-faults" grep -q "^name = page-faults" "$S/session.ini"

rep() { # OUT ARGS...: report.csv of every row to OUT
	local out=$1; shift
	"$UPROF" report -i "$S" --cutoff 0 --report-output "$SCRATCH/$out.csv" "$@" >/dev/null 2>&1
}
rep plain
rep pf -s page-faults
rep timer --sort-by event=timer
rep samples --show-sample-count
rep events --show-event-count
rep pct --show-percentage
rep pfpct -s page-faults --show-percentage
rep agg --agg-interval 100
rep agg0 --agg-interval 0
# the window is the run's middle half, on 100 ms edges (the run's length is the machine's):
# the last interval's end is the run's
WIN=$("$PYTHON" - "$SCRATCH/agg.csv" <<'PY'
import math, sys
ls = open(sys.argv[1]).read().split("\n")
i = next(i for i, l in enumerate(ls) if "SAMPLES PER INTERVAL" in l) + 2
t = max(float(l.split(",")[1]) for l in ls[i:] if l[:1].isdigit())
lo = max(1, math.floor(t / 4 / 0.1 + 1e-9)); hi = max(lo + 1, math.floor(3 * t / 4 / 0.1 + 1e-9))
print(f"{lo / 10:.1f}:{hi / 10:.1f}")
PY
)
rep aggtf --agg-interval 100 --time-filter "$WIN" --show-sample-count

# facts.py CHECK: compares the reports above (exit 0 when the fact holds)
cat >"$SCRATCH/facts.py" <<'PY'
import csv, sys
d = sys.argv[1]
def rows(name, title):
    ls = open(f"{d}/{name}.csv", newline="").read().split("\n")
    i = next(i for i, l in enumerate(ls) if title in l)
    hdr = next(csv.reader([ls[i + 1]]))
    out, j = [], i + 2
    while j < len(ls) and ls[j].strip():
        out.append(next(csv.reader([ls[j]]))); j += 1
    return ls[i], hdr, out
def fn(name):  # FUNCTIONS: (name, module) -> [col1, col2], and the header
    t, h, rs = rows(name, "ALL FUNCTIONS")
    return t, h, {(r[0], r[3]): (r[1], r[2]) for r in rs}, [r[1] for r in rs]
def sorted_desc(vals):
    v = [float(x) for x in vals]
    return all(a >= b for a, b in zip(v, v[1:]))
check = sys.argv[2]
_, ph, plain, porder = fn("plain")
if check == "plain":  # the default: CPU_TIME first, sorting
    sys.exit(not (ph[1:3] == ["CPU_TIME", "page-faults"] and sorted_desc(porder)))
if check == "pf":  # page-faults first and sorting every table; a table's rows are the sort
    # event's (a row without page-faults is not in it), each with the default's numbers
    t, h, pf, order = fn("pf")
    same = all(plain[k] == (v[1], v[0]) for k, v in pf.items() if k in plain)
    every = all(k in pf for k, v in plain.items() if float(v[1]) > 0)
    total = next(l for l in open(f"{d}/pf.csv") if l.startswith("Total page-faults,"))
    ok = all(sorted_desc([r[c] for r in rows("pf", f"ALL {s}")[2]])
             for s, c in (("FUNCTIONS", 1), ("PROCESSES", 1), ("MODULES", 1), ("THREADS", 2)))
    sys.exit(not (h[1:3] == ["page-faults", "CPU_TIME"] and "Sort Event - page-faults" in t
                  and same and every and ok and sorted_desc(order) and float(order[0]) > 0
                  and total == f'Total page-faults,"{sum(float(x) for x in order):.0f} events"\n'))
if check == "timer":  # event=timer is the default's sort event: the same table
    t, h, tm, order = fn("timer")
    sys.exit(not (tm == plain and order == porder))
if check == "samples":  # CPU_TIME samples x 1 ms = the seconds; page-faults in events
    t, h, s, _ = fn("samples")
    ok = all(f"{int(s[k][0]) * 0.001:.4f}" == v[0] and int(s[k][1]) == float(v[1])
             for k, v in plain.items())
    sys.exit(not (ok and h[1:3] == ["CPU_TIME (samples)", "page-faults (events)"] and s.keys() == plain.keys()))
if check == "events":  # CPU_TIME in ns (samples x 1,000,000); page-faults as counted
    t, h, e, _ = fn("events")
    ok = all(int(e[k][0]) == round(float(v[0]) * 1000) * 1000000 and int(e[k][1]) == float(v[1])
             for k, v in plain.items())
    sys.exit(not (ok and h[1:3] == ["CPU_TIME (ns)", "page-faults (events)"] and e.keys() == plain.keys()))
if check in ("pct", "pfpct"):  # each value over its event's total, in percent (the sort
    # event's total: its column's sum; the other's: its column's sum where it sorts)
    t, h, p, order = fn(check)
    _, _, pf, _ = fn("pf")
    tot = (sum(float(v[0]) for v in plain.values()), sum(float(v[0]) for v in pf.values()))
    if check == "pct":
        want = {k: (100 * float(v[0]) / tot[0], 100 * float(v[1]) / tot[1]) for k, v in plain.items()}
    else:
        want = {k: (100 * float(v[0]) / tot[1], 100 * float(v[1]) / tot[0]) for k, v in pf.items()}
    ok = p.keys() == want.keys() and all(abs(float(p[k][c]) - want[k][c]) <= 0.00006
                                         for k in want for c in (0, 1))
    s0 = sum(float(v[0]) for v in p.values())
    sys.exit(not (ok and abs(s0 - 100) <= 0.00005 * len(p) and sorted_desc(order)
                  and h[1].endswith(" (%)") and h[2].endswith(" (%)")))
def intervals(name):
    t, h, rs = rows(name, "SAMPLES PER INTERVAL")
    return t, h, [[float(r[0]), float(r[1]), int(r[2]), int(r[3])] for r in rs]
if check == "agg":  # 100 ms buckets from 0, back to back; columns sum to the totals
    t, h, rs = intervals("agg")
    _, _, s, _ = fn("samples")
    _, _, pf, _ = fn("pf")
    cpu, faults = sum(int(v[0]) for v in s.values()), sum(round(float(v[0])) for v in pf.values())
    steps = all(abs(r[0] - 0.1 * i) < 1e-9 and abs(r[1] - 0.1 * (i + 1)) < 1e-9 for i, r in enumerate(rs))
    sys.exit(not (steps and sum(r[2] for r in rs) == cpu and sum(r[3] for r in rs) == faults
                  and h[2:4] == ["CPU_TIME (samples)", "page-faults (events)"] and len(rs) > 1
                  and "Interval - 100.000 ms" in t))
if check == "agg0":  # one row: the whole run
    _, _, rs = intervals("agg0")
    _, _, a = intervals("agg")
    sys.exit(not (len(rs) == 1 and rs[0][2:] == [sum(r[2] for r in a), sum(r[3] for r in a)]))
if check == "aggtf":  # --time-filter LO:HI: nothing outside, the window's total inside
    lo, hi = (float(x) for x in sys.argv[3].split(":"))
    _, _, rs = intervals("aggtf")
    _, _, s, _ = fn("aggtf")
    outside = sum(r[2] + r[3] for r in rs if r[0] < lo - 1e-9 or r[0] >= hi - 1e-9)
    sys.exit(not (outside == 0 and sum(r[2] for r in rs) == sum(int(v[0]) for v in s.values())
                  and sum(r[2] for r in rs) > 0))
def system(path):
    return (path.startswith("[") and path != "[unknown]") or any(
        path.startswith(d) for d in ("/lib/", "/lib32/", "/lib64/", "/libx32/", "/usr/lib/",
                                     "/usr/lib32/", "/usr/lib64/", "/usr/libx32/"))
if check == "nosys":  # the system modules' samples left out and counted; the rest as before
    _, _, every = rows("t_samples", "ALL MODULES")
    _, _, kept = rows("t_nosys", "ALL MODULES")
    said = next(l for l in open(f"{d}/t_nosys.csv") if l.startswith("System Modules Ignored:"))
    left_out = sum(int(r[1]) for r in every if system(r[0]))
    sys.exit(not (kept == [r for r in every if not system(r[0])] and left_out > 0
                  and said.startswith(f'System Modules Ignored:,"{left_out} samples in')))
sys.exit(2)
PY
fact() { "$PYTHON" "$SCRATCH/facts.py" "$SCRATCH" "$@"; }
check "default: CPU_TIME is the first column and sorts FUNCTIONS" fact plain
check "-s page-faults: page-faults first, sorting FUNCTIONS, PROCESSES, MODULES, THREADS; every row's numbers the default's" fact pf
check "--sort-by event=timer: the default's FUNCTIONS table" fact timer
check "-s page-faults: the header says the sort event and the spec" \
	grep -qx 'Sort Event:,"page-faults (--sort-by page-faults)"' "$SCRATCH/pf.csv"
check "--show-sample-count: CPU_TIME samples x 1 ms is the default's seconds, row by row" fact samples
check "--show-event-count: CPU_TIME samples x 1,000,000 ns, page-faults the default's counts" fact events
check "--show-percentage: each cell is its value over its event's total (4 decimals); the sort column sums to 100" fact pct
check "-s page-faults --show-percentage: the same, page-faults first" fact pfpct
check "--show-percentage: the header says what the values are" \
	grep -q '^Values Shown:,"percent of' "$SCRATCH/pct.csv"

check "--agg-interval 100: 100 ms rows from the start; each column sums to the event's total" fact agg
check "--agg-interval 0: one row of the whole run, the same totals" fact agg0
# the rate is the collection's, of the sort event's samples: the filter leaves it (a
# page-faults record counted among the filtered ones made 1,118 Hz of 1,000)
tf_rate() { local a; a=$(csvq "$SCRATCH/plain.csv" --key "Achieved Sampling Rate")
	[ -n "$a" ] && [ "$a" = "$(csvq "$SCRATCH/aggtf.csv" --key "Achieved Sampling Rate")" ]; }
check "--time-filter on a session of two events: the achieved rate is the unfiltered report's" tf_rate
check "--agg-interval 100 --time-filter $WIN (the run's middle half): no sample outside the window; the rows sum to the filtered total" fact aggtf "$WIN"
expect_fail 2 "--agg-interval that is not a number" "^uprof report: --agg-interval '1s': give milliseconds" \
	"$UPROF" report -i "$S" --agg-interval 1s
expect_fail 2 "translate --agg-interval is refused with its reason" "^uprof translate: --agg-interval 10: translate writes no timeline" \
	"$UPROF" translate -i "$S" --agg-interval 10
# --ignore-system-module on a timer session (one sample record a sample): the kernel's and
# the system libraries' samples are what the header says it left out
"$UPROF" collect -o "$SCRATCH/t" "$TGT/callgraph_fp" >/dev/null 2>&1
S0=$S S=$(session_in "$SCRATCH/t")
rep t_samples --show-sample-count
rep t_nosys --show-sample-count --ignore-system-module
rep t_plain
rep t_nosys_plain --ignore-system-module
S=$S0
check "--ignore-system-module: MODULES is the default's without its system modules, whose samples the header counts" fact nosys
rate=$(csvq "$SCRATCH/t_plain.csv" --key "Achieved Sampling Rate")
same_rate() { [ -n "$rate" ] && [ "$rate" = "$(csvq "$SCRATCH/t_nosys_plain.csv" --key "Achieved Sampling Rate")" ]; }
check "--ignore-system-module: the achieved sampling rate ($rate) still counts every sample" same_rate
# --inline on callgraph's chain-inline run: outer_with_inline's samples in code DWARF says
# inlined_helper was inlined at go to inlined_helper, as many as addr2line -f -i names
# innermost at the samples' addresses (perf script's symbol offsets); other rows unchanged
"$UPROF" collect -o "$SCRATCH/i" "$TGT/callgraph_fp" 300 chain-inline >/dev/null 2>&1
SI=$(session_in "$SCRATCH/i")
"$UPROF" report -i "$SI" --cutoff 0 --show-sample-count --report-output "$SCRATCH/i_plain.csv" >/dev/null 2>&1
"$UPROF" report -i "$SI" --cutoff 0 --show-sample-count --inline --report-output "$SCRATCH/i_inline.csv" >/dev/null 2>&1
fsamples() { csvq "$1" "ALL FUNCTIONS" | awk -F'\t' -v f="$2" '$1==f {print $2; exit}'; }
base=$(nm "$TGT/callgraph_fp" | awk '$3=="outer_with_inline" {print $1}')
a2l=$(perf script -i "$SI/samples.data" -F ip,sym,symoff 2>/dev/null |
	awk '$2 ~ /^outer_with_inline\+0x/ {sub(/^outer_with_inline\+/, "", $2); print $2}' |
	while read -r off; do printf '0x%x\n' $((0x$base + off)); done |
	addr2line -f -i -e "$TGT/callgraph_fp" | awk 'NR % 2 == 1' | sort | uniq -c)
helper_a2l=$(awk '$2=="inlined_helper" {print $1}' <<<"$a2l")
outer_plain=$(fsamples "$SCRATCH/i_plain.csv" outer_with_inline)
helper=$(fsamples "$SCRATCH/i_inline.csv" inlined_helper)
outer=$(fsamples "$SCRATCH/i_inline.csv" outer_with_inline)
helper_ok() { [ -n "$helper" ] && [ "$helper" -gt 0 ] && [ "$helper" = "${helper_a2l:-x}" ]; }
check "--inline: inlined_helper has ${helper:-no} samples, addr2line -f -i names it innermost at ${helper_a2l:-no} of outer_with_inline's sample addresses" helper_ok
split_ok() { [ -n "$outer_plain" ] && [ -n "$helper" ] && [ "$outer_plain" = $((helper + ${outer:-0})) ]; }
check "--inline: outer_with_inline's ${outer_plain:-?} samples are inlined_helper's ${helper:-?} and its own ${outer:-0}" split_ok
# the target's one other inlined call: stdlib.h's atol in main (a sample there is atol's)
main_plain=$(fsamples "$SCRATCH/i_plain.csv" main)
main_inline=$(fsamples "$SCRATCH/i_inline.csv" main)
atol=$(fsamples "$SCRATCH/i_inline.csv" atol)
check "--inline: main's ${main_plain:-0} samples are its own ${main_inline:-0} and atol's ${atol:-0} (inlined in it)" \
	[ "${main_plain:-0}" = $((${main_inline:-0} + ${atol:-0})) ]
# the target's own functions but those two keep their rows (its DWARF has no other inlined
# code); another module's (ld.so's, where it has DWARF) may split too, within the module
inl='^(outer_with_inline|inlined_helper|main|atol)	'
csvq "$SCRATCH/i_plain.csv" "ALL FUNCTIONS" | grep -Ev "$inl" | grep -F "$TGT/callgraph_fp" | sort >"$SCRATCH/i_plain.rows"
csvq "$SCRATCH/i_inline.csv" "ALL FUNCTIONS" | grep -Ev "$inl" | grep -F "$TGT/callgraph_fp" | sort >"$SCRATCH/i_inline.rows"
rows_same() { [ -s "$SCRATCH/i_plain.rows" ] && cmp -s "$SCRATCH/i_plain.rows" "$SCRATCH/i_inline.rows"; }
check "--inline: the target's functions without inlined code keep their rows ($(wc -l <"$SCRATCH/i_plain.rows") of them)" rows_same
rows_same || diff "$SCRATCH/i_plain.rows" "$SCRATCH/i_inline.rows" | sed 's/^/# /' # what differed
mods_same() { [ "$(csvq "$SCRATCH/i_plain.csv" "ALL MODULES")" = "$(csvq "$SCRATCH/i_inline.csv" "ALL MODULES")" ]; }
check "--inline: every module's samples are the same (a sample moves only between functions of its module)" mods_same
expect_fail 2 "translate --inline is refused with its reason" "^uprof translate: --inline: translate keeps every sample's address" \
	"$UPROF" translate -i "$SI" --inline
expect_fail 2 "-s an event the session lacks names its events" \
	"^uprof report: --sort-by 'event=pmcxc0,user=1,os=0': .* has no such event; its events: CPU_TIME, page-faults" \
	"$UPROF" report -i "$S" -s event=pmcxc0,user=1,os=0
expect_fail 2 "-s given twice" "may be given once" "$UPROF" report -i "$S" -s timer -s page-faults
expect_fail 2 "-s a spec that does not parse" "^uprof report: --sort-by 'event=nosuch'" \
	"$UPROF" report -i "$S" -s event=nosuch
expect_fail 2 "two --show-* options" "give one of --show-percentage" \
	"$UPROF" report -i "$S" --show-percentage --show-event-count
check "no report.csv was written by a refused -s" [ ! -e "$S/report.csv" ]
echo "# report_sort.sh done"
