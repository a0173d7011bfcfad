#!/usr/bin/env bash
# Must-show 2: report --export folded|flamegraph|perfetto. Folded stacks sum to the
# sample count; the SVG parses as XML and every frame's width is its folded count; the
# trace JSON parses, has the required fields, timestamps in order on each track, task
# slices that nest, and one sample event per sample. Exports work without -g too.
. "$(dirname "$0")/lib/common.sh"

stk() { "$PYTHON" "$HERE/stacks.py" "$@"; }

# exports NAME: all three exports of session $S checked
exports() {
	local n
	timeout 60 "$UPROF" report -i "$S" --export folded --export flamegraph,perfetto \
		>/dev/null 2>"$SCRATCH/$1.err"
	check "$1: report --export exits 0" [ $? -eq 0 ]
	n=$(csvq "$S/report.csv" --key Samples)
	check "$1: stacks.folded sums to the $n samples" [ "$(stk sum "$S/stacks.folded")" = "$n" ]
	check "$1: flamegraph.svg is well-formed and its widths match the folded counts" \
		stk svg "$S/flamegraph.svg" "$S/stacks.folded"
	check "$1: trace.json is valid, ordered per track, nested, one event per sample" \
		stk trace "$S/trace.json" "$n"
	check "$1: the report names the files it wrote" \
		bash -c "grep -q 'Generated flame graph file: $S/flamegraph.svg' '$SCRATCH/$1.err'"
}

# with frame-pointer stacks
"$UPROF" collect -g -o "$SCRATCH/g" "$TGT/callgraph_fp" 1000 >/dev/null 2>&1
S=$(session_in "$SCRATCH/g")
exports fp
check "fp: folded lines start with the comm and end at the leaf" \
	grep -q '^callgraph_fp;.*;main;chain_a;chain_b;chain_leaf [0-9]*$' "$S/stacks.folded"
check "fp: the SVG is self-contained (script inside, no external references)" \
	bash -c "grep -q '<script' '$S/flamegraph.svg' && ! grep -qE '(href|src)=\"http' '$S/flamegraph.svg'"
check "fp: trace samples carry their stacks" \
	grep -q '"stack":"[^"]*main;chain_a;chain_b;chain_leaf"' "$S/trace.json"
check "fp: trace has process and thread names" \
	bash -c "grep -q '\"process_name\"' '$S/trace.json' && grep -q '\"thread_name\"' '$S/trace.json'"

# with dwarf stacks and a child thread and process (multi)
"$UPROF" collect --call-graph dwarf -o "$SCRATCH/d" "$TGT/multi" "$TGT/exec_child" "$TGT/libplugin.so" >/dev/null 2>&1
S=$(session_in "$SCRATCH/d")
exports dwarf-multi
tracks=$("$PYTHON" -c "import json,sys; print(len({(e['pid'],e['tid']) for e in json.load(open(sys.argv[1]))['traceEvents'] if e['ph']=='i'}))" "$S/trace.json")
check "dwarf-multi: one track per sampled thread ($tracks)" [ "$tracks" -ge 3 ]

# without call stacks: each sample is its leaf function
"$UPROF" collect -o "$SCRATCH/n" "$TGT/demo" 300 >/dev/null 2>&1
S=$(session_in "$SCRATCH/n")
exports no-stacks
check "no-stacks: folded lines are comm;function" grep -q '^demo;heavy_work [0-9]*$' "$S/stacks.folded"

# tasks and pauses on the timeline
"$UPROF" collect -g -o "$SCRATCH/t" "$TGT/tasks" >/dev/null 2>&1
S=$(session_in "$SCRATCH/t")
exports tasks
check "tasks: task and event slices on the threads, Inner inside Outer" \
	stk trace-tasks "$S/trace.json" Twice,Outer,Inner,Over1,Over2,Sleep,Threaded,Child,Ev
check "tasks: paused intervals on a 'paused' track" \
	bash -c "grep -q '\"name\":\"paused\"' '$S/trace.json' && grep -q '\"cat\":\"pause\"' '$S/trace.json'"
"$UPROF" report -i "$S" >/dev/null 2>&1
check "tasks: the task view lists each hot task's own functions" \
	bash -c "\"$PYTHON\" '$HERE/csvq.py' '$S/report.csv' 'TASKS - HOTTEST FUNCTIONS' | grep -qP '^DomA\tOuter\tspin\t'"

# odd names: ';' and spaces in a function name, a process name with a space and ';',
# threads named with quotes, a newline, UTF-8, and bytes that are not UTF-8
mkdir -p "$SCRATCH/o"
cp "$TGT/odd_frames" "$SCRATCH/o/odd f;x"
"$UPROF" collect -g -o "$SCRATCH/o" "$SCRATCH/o/odd f;x" >/dev/null 2>&1
S=$(session_in "$SCRATCH/o")
exports odd-names
"$UPROF" report -i "$S" --detail --group-by thread --cutoff 0 >/dev/null 2>&1
check "odd-names: folded stacks have ':' for ';' in the comm and frames" \
	grep -q '^odd f:x;.*;main;weird:name with spaces;spin[.a-z0-9]* [0-9]*$' "$S/stacks.folded"
check "odd-names: trace.json keeps the names, and its ';'-separated args.stack has ':'" \
	"$PYTHON" - "$S/trace.json" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1], encoding="utf-8"))
names = {e["args"]["name"] for e in ev["traceEvents"] if e.get("name") == "thread_name"}
stacks = {e["args"]["stack"] for e in ev["traceEvents"] if e.get("cat") == "sample"}
frames = {f["name"] for f in ev.get("stackFrames", {}).values()}
sys.exit(not ({"odd f;x", 'q"t\'<&>\nnl', "\u00fcn\u00ef\u20acode"} <= names
              and any(";main;weird:name with spaces;spin" in s for s in stacks)
              and {"weird;name with spaces", "quote'<&>"} <= frames))
PY
check "odd-names: report.csv is UTF-8, one title line per thread section" \
	"$PYTHON" -c "import sys; t = open(sys.argv[1], encoding='utf-8').read(); \
sys.exit(not (t.count('PROFILE REPORT FOR THREAD - ') == 4 and 'PROFILE REPORT FOR THREAD - q\"t\'<&> nl (PID:' in t))" \
	"$S/report.csv"

# options
mkdir -p "$SCRATCH/x"
"$UPROF" report -i "$S" --export all --export-dir "$SCRATCH/x/out" >/dev/null 2>&1
check "--export all --export-dir DIR writes the three files there" \
	bash -c "[ -s '$SCRATCH/x/out/stacks.folded' ] && [ -s '$SCRATCH/x/out/flamegraph.svg' ] && [ -s '$SCRATCH/x/out/trace.json' ]"
"$UPROF" report -i "$S" --export pdf >/dev/null 2>&1
check "--export pdf is a usage error (2)" [ $? -eq 2 ]
"$UPROF" report -i "$S" --stdout --export folded >"$SCRATCH/x/csv" 2>/dev/null
check "--stdout with --export: CSV on stdout, export in the session" \
	bash -c "grep -q 'HOTTEST FUNCTIONS' '$SCRATCH/x/csv' && [ -s '$S/stacks.folded' ]"
exit 0
