#!/usr/bin/env bash
# A dwarf stack is said to end only where it does: libdwfl ends an unwind without an error
# also where it could not get a caller's return address, and uprof took that as the start
# of the stack (ld.so's _dl_runtime_resolve_xsavec, whose CFA is %rbx, ended stacks so).
# tests/targets/cfa_rbx.c: main -> outer_rbx_cfa (CFA = %rbx + 16) -> leaf_undef_rbx
# (.cfi_undefined %rbx) -> spin: no unwinder gets past outer_rbx_cfa; then main ->
# spin_plain, ordinary frames to _start. Both spin about 0.3 s.
. "$(dirname "$0")/lib/common.sh"

[ -x "$TGT/cfa_rbx" ] || { ok "# SKIP cfa_rbx is x86-64 assembly: not built here"; echo "1..$_n"; exit 0; }
"$UPROF" collect --call-graph dwarf -o "$SCRATCH/c" "$TGT/cfa_rbx" >/dev/null 2>&1
S=$(session_in "$SCRATCH/c")
"$UPROF" report -i "$S" --export folded >/dev/null 2>"$SCRATCH/err"
F=$S/stacks.folded
cut=$(grep ';leaf_undef_rbx;' "$F" | awk '{ n += $NF } END { print n + 0 }')
cut_marked=$(grep -E '^cfa_rbx;\[(unwind failed|truncated)\];outer_rbx_cfa;leaf_undef_rbx;' "$F" |
	awk '{ n += $NF } END { print n + 0 }')
plain=$(grep ';spin_plain' "$F" | awk '{ n += $NF } END { print n + 0 }')
plain_whole=$(grep -E '^cfa_rbx;_start;__libc_start_main;__libc_start_call_main;main;spin_plain' "$F" |
	awk '{ n += $NF } END { print n + 0 }')
failed=$(sed -n 's/.* \([0-9]*\) could not be unwound to the end.*/\1/p' "$SCRATCH/err")
check "samples under outer_rbx_cfa: each said cut where it stopped ($cut_marked of $cut)" \
	bash -c "[ '$cut' -gt 0 ] && [ '$cut_marked' = '$cut' ]"
check "report counts them as not unwound to the end ($failed >= $cut_marked)" \
	bash -c "[ -n '$failed' ] && [ '$failed' -ge '$cut_marked' ]"
check "samples under spin_plain: each unwound whole to _start, no mark ($plain_whole of $plain)" \
	bash -c "[ '$plain' -gt 0 ] && [ '$plain_whole' = '$plain' ]"
echo "1..$_n"
