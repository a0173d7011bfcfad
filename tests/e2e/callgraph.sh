#!/usr/bin/env bash
# Call stacks (-g, --call-graph). One program, built with and without frame pointers:
#   main -> chain_a -> chain_b -> chain_leaf, main -> recurse x6 -> recurse_leaf, and an
#   always-inlined helper.
# Must-show 1: fp on the fp build and dwarf on both give the source's chains; dwarf agrees
# with perf on the same samples.data; perf report -g reads it.
# Must-show 3: 1000-deep recursion and a corrupted stack (in the target, and in the file)
# neither crash nor hang report, and stacks end in a marked frame, never in garbage.
. "$(dirname "$0")/lib/common.sh"

stk() { "$PYTHON" "$HERE/stacks.py" "$@"; }
have_perf() { command -v perf >/dev/null; }
FUNCS=main,chain_a,chain_b,chain_leaf,recurse,recurse_leaf,outer_with_inline
CHAIN="main;chain_a;chain_b;chain_leaf"
RECUR="main;recurse;recurse;recurse;recurse;recurse;recurse;recurse_leaf"

# run NAME BINARY MODE COLLECT-OPTIONS...: collect, report --detail --export folded;
# leaves $S (session), $F (folded) and $N (samples)
run() {
	local name=$1 bin=$2 mode=$3
	shift 3
	rm -rf "$SCRATCH/$name"
	timeout 120 "$UPROF" collect "$@" -o "$SCRATCH/$name" "$TGT/$bin" "${UNITS:-1000}" "$mode" \
		>/dev/null 2>"$SCRATCH/$name.err"
	S=$(session_in "$SCRATCH/$name")
	timeout 60 "$UPROF" report -i "$S" --detail --cutoff 0 --export folded \
		>/dev/null 2>"$SCRATCH/$name.report.err"
	check "$name: report exits 0" [ $? -eq 0 ]
	F=$S/stacks.folded
	N=$(csvq "$S/report.csv" --key Samples)
	check "$name: folded stacks sum to the $N samples" [ "$(stk sum "$F")" = "$N" ]
}

# chains_match NAME: the leaves' inclusive chains are the source's
chains_match() {
	local a b
	a=$(stk share "$F" "$CHAIN" chain_leaf)
	b=$(stk share "$F" "$RECUR" recurse_leaf)
	echo "# $1: $a% of chain_leaf under $CHAIN, $b% of recurse_leaf under 6 recurse"
	check "$1: chain_leaf's stacks are $CHAIN ($a%)" near "$a" 100 3
	check "$1: recurse_leaf's stacks hold main and 6 levels of recurse ($b%)" near "$b" 100 3
	callers=$(csvq "$S/report.csv" "CALLGRAPH FOR PROCESS" | awk -F'\t' '$2=="function"{f=$1} $2=="caller"{print f">"$1}')
	check "$1: CALLGRAPH: chain_leaf's caller is chain_b" grep -qx 'chain_leaf>chain_b' <<<"$callers"
	check "$1: CALLGRAPH: chain_b's caller is chain_a, chain_a's is main" \
		bash -c "grep -qx 'chain_b>chain_a' <<<'$callers' && grep -qx 'chain_a>main' <<<'$callers'"
	check "$1: CALLGRAPH: recurse calls itself" grep -qx 'recurse>recurse' <<<"$callers"
	check "$1: no stack was cut or broken" \
		bash -c "! grep -qE '\\[(truncated|unwind failed)\\];(.*;)?main' '$F'"
	total=$(csvq "$S/report.csv" "BY TOTAL TIME" | awk -F'\t' '$1=="main"{print $2}')
	cpu=$(csvq "$S/report.csv" --key "Total CPU_TIME" 2>/dev/null || true)
	tt=$(csvq "$S/report.csv" "BY TOTAL TIME" | awk -F'\t' '$1=="chain_a"{a=$2} $1=="chain_leaf"{l=$2; s=$3} END{print a" "l" "s}')
	# chain_a does nothing but call chain_b, which only calls chain_leaf
	check "$1: total time: chain_a = chain_leaf >= chain_leaf's self time ($tt)" \
		bash -c "\"$PYTHON\" -c 'import sys; a,t,s=map(float,sys.argv[1:4]); sys.exit(0 if abs(a-t)<=0.01*a+0.002 and t>=s>0 else 1)' $tt"
	check "$1: main's total time is set ($total s)" [ -n "$total" ]
}

# perf_agree NAME: perf script unwinds the same samples.data to the same stacks
perf_agree() {
	if ! have_perf; then
		ok "$1: agreement with perf # SKIP perf not installed"
		return
	fi
	perf script -i "$S/samples.data" >"$SCRATCH/$1.perf" 2>/dev/null
	d=$(stk perf-agree "$F" "$SCRATCH/$1.perf" "$FUNCS")
	echo "# $1: uprof and perf disagree on $d% of the samples"
	check "$1: stacks agree with perf script on the same file (${d}% differ)" near "$d" 0 2
	perf report -i "$S/samples.data" --stdio -g caller --no-children >"$SCRATCH/$1.pr" 2>/dev/null
	check "$1: perf report -g reads samples.data and shows chain_b in chain_leaf's graph" \
		bash -c "grep -A8 'chain_leaf\$' '$SCRATCH/$1.pr' | grep -q chain_b"
}

# ---- must-show 1 ----
run fp-on-fp callgraph_fp chain -g
check "fp-on-fp: session.ini records the call-graph mode" grep -q '^mode = fp$' "$S/session.ini"
check "fp-on-fp: report says stacks were sampled" grep -q 'Call Stack Sampling:,"True"' "$S/report.csv"
check "fp-on-fp: collect says what it collects" grep -q 'with call stacks (frame pointers' "$SCRATCH/fp-on-fp.err"
chains_match fp-on-fp
perf_agree fp-on-fp

run dwarf-on-nofp callgraph_nofp chain --call-graph dwarf
check "dwarf-on-nofp: session.ini records mode and stack size" \
	bash -c "grep -q '^mode = dwarf$' '$S/session.ini' && grep -q '^stack_bytes = 8192$' '$S/session.ini'"
chains_match dwarf-on-nofp
perf_agree dwarf-on-nofp
check "dwarf-on-nofp: the inlined helper shows as an inlined frame" \
	grep -q ';outer_with_inline;inlined_helper (inlined) ' "$F"

run dwarf-on-fp callgraph_fp chain --call-graph dwarf:4096
chains_match dwarf-on-fp
perf_agree dwarf-on-fp

# without frame pointers, fp stacks lose frames: the report must still be sound
run fp-on-nofp callgraph_nofp chain -g
a=$(stk share "$F" "$CHAIN" chain_leaf)
echo "# fp-on-nofp: $a% of chain_leaf's stacks are complete (frame pointers missing)"

# ---- collect options ----
"$UPROF" collect --call-graph bogus -o "$SCRATCH/bad" /bin/true >/dev/null 2>&1
check "--call-graph bogus is a usage error (2)" [ $? -eq 2 ]
"$UPROF" collect --call-graph dwarf:100 -o "$SCRATCH/bad" /bin/true >/dev/null 2>&1
check "--call-graph dwarf:100 (not a multiple of 8) is a usage error" [ $? -eq 2 ]
"$UPROF" collect --call-graph-depth 1 -o "$SCRATCH/bad" /bin/true >/dev/null 2>&1
check "--call-graph-depth 1 is a usage error" [ $? -eq 2 ]
check "no session is left by refused options" [ -z "$(session_in "$SCRATCH/bad")" ]
"$UPROF" collect --call-graph fpo:512 -o "$SCRATCH/fpo" /bin/true >/dev/null 2>&1
S=$(session_in "$SCRATCH/fpo")
check "uProf 4.0 fpo:512 is dwarf with 512 bytes" \
	bash -c "grep -q '^mode = dwarf$' '$S/session.ini' && grep -q '^stack_bytes = 512$' '$S/session.ini'"
"$UPROF" collect --call-graph 1:64:user:fpo -o "$SCRATCH/u5" /bin/true >/dev/null 2>&1
S=$(session_in "$SCRATCH/u5")
check "uProf 5.x 1:64:user:fpo: dwarf, depth 64, user scope" \
	bash -c "grep -q '^mode = dwarf$' '$S/session.ini' && grep -q '^depth = 64$' '$S/session.ini' && grep -q '^scope = user$' '$S/session.ini'"
"$UPROF" collect --call-graph-mode fp --call-graph-depth 16 -o "$SCRATCH/sep" /bin/true >/dev/null 2>&1
S=$(session_in "$SCRATCH/sep")
check "--call-graph-mode fp --call-graph-depth 16" \
	bash -c "grep -q '^mode = fp$' '$S/session.ini' && grep -q '^depth = 16$' '$S/session.ini'"
"$UPROF" collect -o "$SCRATCH/none" "$TGT/demo" 100 >/dev/null 2>&1
S=$(session_in "$SCRATCH/none")
"$UPROF" report -i "$S" --detail >/dev/null 2>&1
check "without -g: no call-graph sections" \
	bash -c "! grep -qE 'CALLGRAPH|BY TOTAL TIME' '$S/report.csv' && grep -q 'Call Stack Sampling:,\"False\"' '$S/report.csv'"

# ---- must-show 3: deep recursion ----
UNITS=300 run deep-fp callgraph_fp deep -g
check "deep-fp: frame-pointer stacks are cut at the kernel's limit and marked [truncated]" \
	bash -c "[ \"\$(\"$PYTHON\" '$HERE/stacks.py' outermost '$F' '[truncated]')\" != 0.00 ]"
check "deep-fp: no stack is longer than the limit plus its marker" [ "$(stk maxdepth "$F")" -le 129 ]
UNITS=300 run deep-dwarf callgraph_nofp deep --call-graph dwarf
v=$(stk outermost "$F" "[truncated]")
check "deep-dwarf: 8 KB of stack is not 1000 frames: stacks end in [truncated] ($v%)" near "$v" 100 5
UNITS=300 run deep-dwarf-all callgraph_nofp deep --call-graph dwarf:65528 --call-graph-depth 1024
v=$(stk share "$F" "main;recurse;recurse;recurse" recurse)
d=$(stk maxdepth "$F")
echo "# deep-dwarf-all: deepest stack $d frames"
check "deep-dwarf-all: 64 KB and depth 1024 reach main through 1000 frames ($d)" [ "$d" -ge 1000 ]

# ---- must-show 3: corrupted stacks ----
for spec in "corrupt:-g" "corrupt:--call-graph dwarf" "corrupt-loop:-g" "corrupt-loop:--call-graph dwarf"; do
	mode=${spec%%:*}
	opt=${spec#*:}
	name=$mode$(tr -d ' -' <<<"$opt")
	run "$name" callgraph_nofp "$mode" $opt
	v=$(stk outer "$F" corrupt_and_spin)
	check "$name: the frame outside corrupt_and_spin is a marker, never garbage ($v%)" near "$v" 100 0.01
done
# the stack copies and callchains in the file itself corrupted
# (a sample's own IP stays: one in code without a symbol, the dynamic loader's before main,
# is module!0x... before and after; garbage is an unresolved frame above a leaf, or a leaf
# that changed)
run filebad callgraph_nofp chain --call-graph dwarf
cp "$F" "$SCRATCH/filebad.folded"
stk corrupt "$S/samples.data"
timeout 60 "$UPROF" report -i "$S" --export folded >/dev/null 2>&1
check "random bytes in every stack copy: report exits 0 in time" [ $? -eq 0 ]
v=$(stk outermost "$F" "_start,[unwind failed],[truncated]")
check "random stack copies: every stack ends in a marker or _start ($v%)" near "$v" 100 0.01
v=$(stk garbage "$SCRATCH/filebad.folded" "$F")
check "random stack copies: no unresolved garbage frames, the leaves are the samples' ($v)" [ "$v" = ok ]
run filebadfp callgraph_fp chain -g
cp "$F" "$SCRATCH/filebadfp.folded"
stk corrupt "$S/samples.data"
timeout 60 "$UPROF" report -i "$S" --export folded >/dev/null 2>&1
check "random callchain addresses: report exits 0 in time" [ $? -eq 0 ]
v=$(stk outermost "$F" "_start,[unwind failed],[truncated],__libc_start_call_main")
# (the corruption keeps each context's first entry: a rare sample whose chain is only that,
# in the dynamic loader before main, say, rightly ends in a real function)
check "random callchain addresses: stacks end in a marker ($v%)" near "$v" 100 0.5
v=$(stk garbage "$SCRATCH/filebadfp.folded" "$F")
check "random callchain addresses: no unresolved garbage frames, the leaves are the samples' ($v)" [ "$v" = ok ]
# dlopen, dlclose, dlopen at another address: dwarf unwinds through every load
rm -rf "$SCRATCH/dl"
"$UPROF" collect --call-graph dwarf -o "$SCRATCH/dl" "$TGT/dlreload" "$TGT/libplugin.so" 3 \
	>"$SCRATCH/dl.out" 2>/dev/null
S=$(session_in "$SCRATCH/dl")
"$UPROF" report -i "$S" --export folded >/dev/null 2>&1
check "dlreload: the library was loaded at 3 addresses" \
	[ "$(awk '/^load/{print $3}' "$SCRATCH/dl.out" | sort -u | wc -l)" -eq 3 ]
v=$(stk share "$S/stacks.folded" "main;call_plugin;plugin_work" plugin_work)
check "dlreload: plugin_work's stacks reach main in all three loads ($v%)" near "$v" 100 3
# --group-by thread: each thread's own call graph
"$UPROF" collect -g -o "$SCRATCH/thr" "$TGT/multi" "$TGT/exec_child" "$TGT/libplugin.so" >/dev/null 2>&1
S=$(session_in "$SCRATCH/thr")
"$UPROF" report -i "$S" --detail --group-by thread --cutoff 0 >/dev/null 2>&1
nthr=$(grep -c '^PROFILE REPORT FOR THREAD' "$S/report.csv")
ncg=$(grep -c '^CALLGRAPH FOR THREAD' "$S/report.csv")
check "--group-by thread: one CALLGRAPH per thread ($ncg of $nthr)" [ "$ncg" -eq "$nthr" ]
row=$(sed -n '/^CALLGRAPH FOR THREAD - worker-a/,/^$/p' "$S/report.csv" | grep '^"thread_a_work",function,')
tot=$(cut -d, -f5 <<<"$row"); self=$(cut -d, -f6 <<<"$row")
check "worker-a's call graph: thread_a_work is mostly self time ($self of $tot samples)" \
	"$PYTHON" -c "import sys; sys.exit(0 if ${tot:-0} > 0 and ${self:-0} >= 0.9 * ${tot:-0} else 1)"
check "and none of the other threads' functions" \
	bash -c "! sed -n '/^CALLGRAPH FOR THREAD - worker-a/,/^\$/p' '$S/report.csv' | grep -q '\"thread_b_work\"\\|\"main_work\"'"
exit 0
