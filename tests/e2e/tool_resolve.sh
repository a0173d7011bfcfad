#!/usr/bin/env bash
# Issue 32: the tool API's core->resolve (1.3). tests/tool/resolver.c resolves the ip of the
# first sample of each function of the profiled program; each answer must be what binutils
# say of that file offset: the module the program, the symbol covering it (nm -S) the
# sampled function, and the function, file and line the innermost of addr2line -f -i's
# (an inlined call names the inlined function). An address no mapping holds, and a
# process that never ran, are -ENOENT.
. "$(dirname "$0")/lib/common.sh"

P=$TGT/callgraph_fp
"$UPROF" collect -o "$SCRATCH/cg" "$P" 500 chain-inline >/dev/null 2>&1
S=$(session_in "$SCRATCH/cg")
"$UPROF" report -i "$S" --tool "$TGT/tools/resolver.so" >/dev/null 2>"$SCRATCH/err"
rc=$?
check "report --tool resolver.so exits 0 ($(grep 'uprof report' "$SCRATCH/err"))" [ $rc -eq 0 ]
csvq "$S/report.csv" "RESOLVED (Tool - resolver)" | grep -v '^unmapped' >"$SCRATCH/rows"
n=0 bad=0
while IFS=, read -r sampled func module off file line; do
	n=$((n + 1))
	cover=
	while read -r addr size _ name; do
		[ -n "$name" ] && [ $((16#$addr)) -le $((16#$off)) ] &&
			[ $((16#$off)) -lt $((16#$addr + 16#$size)) ] && cover=$name
	done < <(nm -S --defined-only "$P")
	read -r a2l_func a2l_loc < <(addr2line -f -i -e "$P" "0x$off" | paste -sd' ' | awk '{ print $1, $2 }')
	want_file=$(basename "${a2l_loc%%:*}")
	want_line=${a2l_loc#*:}
	want_line=${want_line%% *}
	echo "# $sampled @ $off: resolved $func $module $file:$line; nm $cover, addr2line $a2l_func $want_file:$want_line"
	[ "$module" = "$(basename "$P")" ] && [ "$cover" = "$sampled" ] && [ "$func" = "$a2l_func" ] &&
		[ "$file" = "$want_file" ] && [ "$line" = "$want_line" ] || bad=$((bad + 1))
done <"$SCRATCH/rows"
check "every resolved address is what nm and addr2line say ($n addresses, $bad differ)" \
	[ "$n" -ge 2 -a "$bad" -eq 0 ]
check "an inlined call is named by the inlined function (outer_with_inline's inlined_helper)" \
	grep -q '^outer_with_inline,inlined_helper,' "$SCRATCH/rows"
check "an unmapped address and an unknown process: -ENOENT ($(csvq "$S/report.csv" "RESOLVED (Tool - resolver)" | grep '^unmapped'))" \
	bash -c "'$PYTHON' '$HERE/csvq.py' '$S/report.csv' 'RESOLVED (Tool - resolver)' | grep -qx 'unmapped,-2,-2'"

echo "1..$_n"
