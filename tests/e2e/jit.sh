#!/usr/bin/env bash
# Issue 11 item 7: JIT code named from perf's /tmp/perf-<pid>.map. The jit target writes
# a loop into anonymous executable memory, names it in its map and runs it: its samples
# are jitted_spin_loop, in module /tmp/perf-<pid>.map, as under perf. A map that is a
# symlink, a FIFO or another user's file (anyone may write in /tmp) names nothing.
# Then perf's other JIT interface, jitdump: the target writes DIR/jit-<pid>.dump (a
# CODE_LOAD, a CODE_MOVE of the code it runs) and maps it exec, as runtimes do; its
# samples are jitdump_spin_loop in that module, with no perf map; refused files likewise
# name nothing. If node is here, node --perf-prof's dump names a hot JS function.
. "$(dirname "$0")/lib/common.sh"

echo "# jit: perf maps name JIT code"
"$UPROF" collect -o "$SCRATCH/out" "$TGT/jit" 400 >"$SCRATCH/jit.out" 2>"$SCRATCH/err"
rc=$?
if [ $rc -ne 0 ] && grep -q 'x86-64 only' "$SCRATCH/jit.out" "$SCRATCH/err"; then
	ok "# SKIP the jit target writes x86-64 code"
	echo "1..$_n"
	exit 0
fi
check "collect of jit exits 0 ($rc)" [ $rc -eq 0 ]
S=$(session_in "$SCRATCH/out")
pid=$(sed -n 's/^pids = //p' "$S/session.ini" | cut -d, -f1)
MAP=/tmp/perf-$pid.map
trap 'rm -f "$MAP"; rm -rf "$SCRATCH"' EXIT
check "the target wrote its map ($MAP)" [ -f "$MAP" ]
addr=$(awk '{print $1}' "$MAP")

# (under a timeout: a FIFO in the map's place, once opened, would block report for ever)
report() { timeout 60 "$UPROF" report -i "$S" --cutoff 0 >"$SCRATCH/table" 2>/dev/null; }
jit_row() { csvq "$S/report.csv" FUNCTIONS | awk -F'\t' -v m="$MAP" '$3==m'; }
report
check "report exits 0" [ $? -eq 0 ]
total=$(csvq "$S/report.csv" --key Samples)
row=$(jit_row | head -1)
echo "# $row (of $total samples)"
check "the JIT code is named from the map: jitted_spin_loop in $MAP" \
	[ "$(cut -f1 <<<"$row")" = jitted_spin_loop ]
secs=$(cut -f2 <<<"$row")
check "it holds most of the samples ($secs s of $total samples)" \
	"$PYTHON" -c "import sys; sys.exit(0 if $secs * 1000 > 0.5 * $total else 1)"
check "the terminal names it too" grep -qE ' jitted_spin_loop +perf-[0-9]+\.map$' "$SCRATCH/table"
check "no anon!0x row is left for it" bash -c "! grep -q '\"anon!0x' '$S/report.csv'"
if perf version >/dev/null 2>&1; then
	perf report -i "$S/samples.data" --stdio --sort sym >"$SCRATCH/perf.txt" 2>/dev/null
	check "perf names it the same from uprof's samples.data" grep -q 'jitted_spin_loop' "$SCRATCH/perf.txt"
else
	ok "# SKIP no perf to compare with"
fi

# what must not be read: the code is anon!0x... again (a regular file that is not ours
# still makes the map the module, as in perf, but names nothing: perf-<pid>.map!0x...)
cp "$MAP" "$SCRATCH/map"
refused() {
	local unnamed=${2:-anon}
	report
	check "$1: report exits 0" [ $? -eq 0 ]
	check "$1: nothing named from it" bash -c "! grep -q jitted_spin_loop '$S/report.csv'"
	check "$1: the code is $unnamed!0x..." grep -q "\"$unnamed!0x" "$S/report.csv"
}
rm -f "$MAP" && ln -s "$SCRATCH/map" "$MAP"
refused "a symlink in the map's place"
rm -f "$MAP" && mkfifo "$MAP"
refused "a FIFO in the map's place"
rm -f "$MAP" && cp "$SCRATCH/map" "$MAP"
if [ "$(id -u)" -eq 0 ]; then
	chown 65534:65534 "$MAP"
	refused "another user's map (uid 65534)" "perf-$pid.map"
else
	ok "# SKIP another user's map: needs root to plant"
fi
rm -f "$MAP"
refused "no map"

echo "# jit: jitdump files name JIT code"
DUMPS=$SCRATCH/dumps
mkdir -p "$DUMPS"
"$UPROF" collect -o "$SCRATCH/out2" "$TGT/jit" 400 "$DUMPS" >"$SCRATCH/jit2.out" 2>"$SCRATCH/err2"
check "collect of jit with a jitdump exits 0" [ $? -eq 0 ]
S=$(session_in "$SCRATCH/out2")
pid=$(sed -n 's/^pids = //p' "$S/session.ini" | cut -d, -f1)
DUMP=$DUMPS/jit-$pid.dump
trap 'rm -f "$MAP" "/tmp/perf-$pid.map"; rm -rf "$SCRATCH"' EXIT
check "the target wrote its dump ($DUMP)" [ -f "$DUMP" ]
check "and no perf map" [ ! -e "/tmp/perf-$pid.map" ]
report
check "report exits 0" [ $? -eq 0 ]
total=$(csvq "$S/report.csv" --key Samples)
row=$(csvq "$S/report.csv" FUNCTIONS | awk -F'\t' -v m="$DUMP" '$3==m' | head -1)
echo "# $row (of $total samples)"
check "the moved JIT code is named from the dump: jitdump_spin_loop in $DUMP" \
	[ "$(cut -f1 <<<"$row")" = jitdump_spin_loop ]
secs=$(cut -f2 <<<"$row")
check "it holds most of the samples ($secs s of $total samples)" \
	"$PYTHON" -c "import sys; sys.exit(0 if $secs * 1000 > 0.5 * $total else 1)"
check "the terminal names it too" grep -qE ' jitdump_spin_loop +jit-[0-9]+\.dump$' "$SCRATCH/table"
check "no anon!0x row is left for it" bash -c "! grep -q '\"anon!0x' '$S/report.csv'"
# a dump that must not be read: the module stays the dump (its MMAP named it), unnamed
dump_refused() {
	report
	check "$1: report exits 0" [ $? -eq 0 ]
	check "$1: nothing named from it" bash -c "! grep -q jitdump_spin_loop '$S/report.csv'"
	check "$1: the code is jit-$pid.dump!0x..." grep -q "\"jit-$pid.dump!0x" "$S/report.csv"
}
cp "$DUMP" "$SCRATCH/dump"
rm -f "$DUMP" && ln -s "$SCRATCH/dump" "$DUMP"
dump_refused "a symlink in the dump's place"
rm -f "$DUMP" && mkfifo "$DUMP"
dump_refused "a FIFO in the dump's place"
rm -f "$DUMP" && cp "$SCRATCH/dump" "$DUMP"
if [ "$(id -u)" -eq 0 ]; then
	chown 65534:65534 "$DUMP"
	dump_refused "another user's dump (uid 65534)"
else
	ok "# SKIP another user's dump: needs root to plant"
fi
head -c 100 "$SCRATCH/dump" >"$DUMP" # cut inside the CODE_LOAD record
dump_refused "a dump cut short"
rm -f "$DUMP"
dump_refused "no dump"

mkdir -p "$SCRATCH/node"
# (node writes its dump and log into its working directory: the probe runs in scratch)
if (cd "$SCRATCH/node" && node --perf-prof -e 0) >/dev/null 2>&1; then
	# the hot function runs long per call: optimized on the stack (OSR), not inlined
	rm -f "$SCRATCH"/node/jit-*.dump
	(cd "$SCRATCH/node" && "$UPROF" collect -o "$SCRATCH/out3" node --perf-prof -e \
		'function hot(n){let s=0;for(let i=0;i<n;i++)s+=i%7;return s}
		 let t=Date.now(),x=0; while(Date.now()-t<600) x+=hot(3e6); console.log(x>0)' \
		>"$SCRATCH/node.out" 2>&1)
	check "collect of node --perf-prof exits 0" [ $? -eq 0 ]
	S=$(session_in "$SCRATCH/out3")
	report
	hot=$(csvq "$S/report.csv" FUNCTIONS | awk -F'\t' '$3 ~ /\/jit-[0-9]+\.dump$/ && $1 ~ /^JS:[*~^]?hot /' | head -1)
	echo "# node: $hot"
	check "node's hot JS function is named from its jitdump (JS:*hot [eval]...)" [ -n "$hot" ]
	rm -f "$SCRATCH"/node/jit-*.dump
else
	ok "# SKIP no node with --perf-prof"
fi
echo "1..$_n"
