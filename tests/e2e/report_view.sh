#!/usr/bin/env bash
# report --view, info --view-config, info --list view-configs (issue 33): a view's columns
# in its order, sorted by its first, from a real session whose events carry the names of
# core events (no PMU here: two software events renamed in session.ini, as events.sh
# does), checked against the table info prints and the same session's default report; a
# timer-only session refused naming the missing events, its report.csv kept.
. "$(dirname "$0")/lib/common.sh"

# ---- info: the table ----
"$UPROF" info --list view-configs >"$SCRATCH/views" 2>&1
check "info --list view-configs exits 0 with uProf's 29 views" \
	[ "$(awk 'NR > 1' "$SCRATCH/views" | wc -l)" -eq 29 ]
check "every view is available or needs IBS, and the ibs_* and memory ones need IBS" \
	bash -c "awk 'NR > 1 { if (\$2 == \"available\") a = \$1 ~ /^ibs_|^memory\$/; else a = \$2 != \"needs\" || \$1 !~ /^ibs_|^memory\$/; if (a) bad = 1 } END { exit bad }' '$SCRATCH/views'"
bad=0
for v in $(awk 'NR > 1 { print $1 }' "$SCRATCH/views"); do
	"$UPROF" info --view-config "$v" >"$SCRATCH/vc" 2>&1 || { bad=$((bad + 1)); continue; }
	cfg=$(sed -n 's/^  collect with: uprof collect --config //p' "$SCRATCH/vc")
	[ -n "$cfg" ] || continue
	# each event the view needs is one its config samples
	"$UPROF" info --collect-config "$cfg" >"$SCRATCH/cc" 2>&1 || { bad=$((bad + 1)); continue; }
	for ev in $(sed -n '/^  events:/,$p' "$SCRATCH/vc" | awk 'NR > 1 { print $1 }'); do
		grep -qE "event=$ev(,|\$)|\(as $ev\)" "$SCRATCH/cc" || { echo "# $v: $ev not in $cfg"; bad=$((bad + 1)); }
	done
done
check "info --view-config: every view shown, its events sampled by the config it names ($bad wrong)" [ "$bad" -eq 0 ]
expect_fail 2 "info --view-config with a typo: did you mean" "^uprof info: --view-config 'triage_asess': no such view \(did you mean triage_assess\?\)" \
	"$UPROF" info --view-config triage_asess

# ---- a timer-only session: refused, its report kept ----
"$UPROF" collect -o "$SCRATCH/t" "$TGT/demo" >/dev/null 2>&1
T=$(session_in "$SCRATCH/t")
"$UPROF" report -i "$T" >/dev/null 2>&1
before=$(md5sum <"$T/report.csv")
expect_fail 2 "--view triage_assess on a timer session names the missing events and the config" \
	"^uprof report: --view triage_assess: .* has no CYCLES_NOT_IN_HALT, RETIRED_INST, .*MISALIGNED_LOADS \(9 of the view's 9 events\); 'uprof collect --config assess' samples them$" \
	"$UPROF" report -i "$T" --view triage_assess
check "the refused --view left report.csv as it was" [ "$(md5sum <"$T/report.csv")" = "$before" ]
expect_fail 2 "--view of an IBS view: refused with the reason" "^uprof report: --view ibs_op_overall: it needs IBS op samples" \
	"$UPROF" report -i "$T" --view ibs_op_overall
expect_fail 2 "--view with a typo: did you mean" "^uprof report: --view 'ipc_asses': no such view \(did you mean ipc_assess\?\)" \
	"$UPROF" report -i "$T" --view ipc_asses
expect_fail 2 "--view and --sort-by together" "^uprof report: --view sorts by the view's first column" \
	"$UPROF" report -i "$T" --view ipc_assess -s event=timer

# ---- a session of two counting events named RETIRED_INST and CYCLES_NOT_IN_HALT ----
"$UPROF" collect -e event=page-faults,interval=1 -e event=context-switches,interval=1 -e timer \
	-o "$SCRATCH/m" "$TGT/multi" "$TGT/exec_child" "$TGT/libplugin.so" >/dev/null 2>&1
S=$(session_in "$SCRATCH/m")
"$PYTHON" - "$S/session.ini" <<'PY'
import sys
p = sys.argv[1]; t = open(p).read()
t = t.replace("name = page-faults", "name = RETIRED_INST (PMCx0C0)", 1)
t = t.replace("name = context-switches", "name = CYCLES_NOT_IN_HALT (PMCx076)", 1)
open(p, "w").write(t)
PY
"$UPROF" report -i "$S" --detail --cutoff 0 >/dev/null 2>&1
check "the default report: the session's order" grep -q '^FUNCTION,"RETIRED_INST (PMCx0C0)","CYCLES_NOT_IN_HALT (PMCx076)","CPU_TIME",Module$' "$S/report.csv"
# the same tallies sorted by the same event (its perf config is still context-switches'):
# the rows the view must have, as CYCLES_NOT_IN_HALT, RETIRED_INST
"$UPROF" report -i "$S" --cutoff 0 -s context-switches >/dev/null 2>&1
csvq "$S/report.csv" "ALL FUNCTIONS" | awk -F'\t' '{ print $1 "|" $5 "\t" $2 "\t" $3 }' | sort >"$SCRATCH/default"
"$UPROF" report -i "$S" --view ipc_assess --detail --cutoff 0 >/dev/null 2>"$SCRATCH/err"
check "report --view ipc_assess exits 0" [ $? -eq 0 ]
want=$("$UPROF" info --view-config ipc_assess | sed -n '/^  columns/,/^  events/p' | sed '1d;$d' | sed 's/^    //; s/  (event)$//; s/ = .*//' | tr '\n' '|')
got=$(grep -m1 '^FUNCTION,' "$S/report.csv" | sed 's/^FUNCTION,//; s/,Module$//; s/ (PMCx[0-9A-F]*)//g; s/"//g' | tr ',' '|')
check "the columns are info --view-config's, in its order ($got)" [ "$got|" = "$want" ]
title=$(awk '$1 == "ipc_assess" { $1 = $2 = $3 = ""; sub(/^ +/, ""); print }' "$SCRATCH/views")
check "Selected View names it ($title)" grep -qx "Selected View:,\"$title (ipc_assess)\"" "$S/report.csv"
check "sorted by the view's first column" grep -q 'ALL FUNCTIONS (Sort Event - CYCLES_NOT_IN_HALT (PMCx076))' "$S/report.csv"
check "--detail's sections have the view's columns" grep -q '^MODULE,"CYCLES_NOT_IN_HALT (PMCx076)","RETIRED_INST (PMCx0C0)","IPC","CPI"$' "$S/report.csv"
csvq "$S/report.csv" "ALL FUNCTIONS" >"$SCRATCH/view"
csvq "$S/report.csv" "ALL PROCESSES" >"$SCRATCH/procs"
bad=$(awk -F'\t' '{ if ($2 > 0 && ($3 / $2 - $4)^2 > 1e-8) n++; if ($3 > 0 && ($2 / $3 - $5)^2 > 1e-8) n++; if (NR > 1 && $2 > prev) n++; prev = $2 } END { print n + 0 }' "$SCRATCH/view")
check "IPC = RETIRED_INST / CYCLES and CPI its inverse on every row, largest CYCLES first ($bad wrong)" [ "$bad" -eq 0 ]
pbad=$(awk -F'\t' '$2 > 0 && $3 > 0 { both++; if (($3 / $2 - $4)^2 > 1e-8 || ($2 / $3 - $5)^2 > 1e-8) n++ } END { print (both ? n + 0 : "no row with both") }' "$SCRATCH/procs")
check "processes (which have both counts): IPC and CPI from them ($pbad wrong)" [ "$pbad" = 0 ]
awk -F'\t' '{ print $1 "|" $6 "\t" $2 "\t" $3 }' "$SCRATCH/view" | sort >"$SCRATCH/viewed"
n=$(wc -l <"$SCRATCH/viewed")
check "each function's counts are the default report's ($n rows)" bash -c "[ $n -gt 0 ] && join -t\$'\t' '$SCRATCH/viewed' '$SCRATCH/default' | awk -F'\t' '\$2 != \$4 || \$3 != \$5 { bad = 1 } END { exit bad }' && [ \$(join -t\$'\t' '$SCRATCH/viewed' '$SCRATCH/default' | wc -l) -eq $n ]"
# the terminal: the view's title and columns, and report.csv's hottest rows in them
"$UPROF" report -i "$S" --view ipc_assess --cutoff 0 >"$SCRATCH/term" 2>/dev/null
check "the terminal names the view ($title)" grep -qx "View: $title" "$SCRATCH/term"
check "the terminal's columns are the view's, the sort event's share after the first" \
	grep -qE '^ *CYCLES_NOT_IN_HALT +% +RETIRED_INST +IPC +CPI +FUNCTION +MODULE$' "$SCRATCH/term"
tbad=$("$PYTHON" - "$SCRATCH/term" "$SCRATCH/view" <<'PY'
import sys
term = [l.split() for l in open(sys.argv[1]).read().split("\n")[2:] if l.strip()]
csv = [l.rstrip("\n").split("\t") for l in open(sys.argv[2]) if l.strip()][:10]
def same(t, c):  # a terminal cell against report.csv's: "-" for an empty (undefined) one
    return (t == "-" and c == "") or (t != "-" and c != "" and abs(float(t) - float(c)) < 5e-5)
bad = len(term) != len(csv) or not term
for t, c in zip(term, csv):
    bad |= not (t[5] == c[0] and all(same(t[i], c[j]) for i, j in ((0, 1), (2, 2), (3, 3), (4, 4))))
print(int(bad))
PY
)
check "the terminal's rows are report.csv's hottest functions, value for value" [ "$tbad" = 0 ]
expect_fail 2 "triage_assess on it names only the 7 events it lacks" \
	"has no RETIRED_BR_INST_MISP, RETIRED_BR_INST, L1_DC_ACCESSES_ALL, L2_CACHE_ACCESS_FROM_L1_DC_MISS, L1_DEMAND_DC_REFILLS_LOCAL, L1_DEMAND_DC_REFILLS_REMOTE, MISALIGNED_LOADS \(7 of the view's 9 events\)" \
	"$UPROF" report -i "$S" --view triage_assess

# ---- an MPI job: its tables are the job's own; --view is a rank session's ----
if command -v mpirun >/dev/null && [ -x "$TGT/mpi_spin.openmpi" ]; then
	timeout 300 mpirun --allow-run-as-root --oversubscribe -np 2 "$UPROF" collect --mpi \
		-o "$SCRATCH/job" "$TGT/mpi_spin.openmpi" 20 >/dev/null 2>&1
	J=$(ls -d "$SCRATCH"/job/*/ 2>/dev/null | head -1)
	check "a 2-rank job was collected" [ -f "$J/job.ini" ]
	expect_fail 2 "--view on a job directory is refused, pointing at a rank's session" \
		"^uprof report: --view ipc_assess: '.*' is an MPI job: its tables are the job's; report a rank's own session with --view" \
		"$UPROF" report -i "$J" --view ipc_assess
else
	ok "--view on a job directory # SKIP no mpirun or $TGT/mpi_spin.openmpi (scripts/install-deps.sh)"
fi
exit 0
