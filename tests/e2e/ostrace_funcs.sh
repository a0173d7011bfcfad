#!/usr/bin/env bash
# collect --func / --exclude-func (uProf's OS-trace function counts, by uprobes) and report
# --funccount-interval, on tests/targets/ostrace_funcs.c, which calls count_alpha() from
# main, count_beta() from a second thread and other_gamma() from main, counting its own
# calls and writing the counts and thread ids to a file: FUNCTION COUNTS equals those
# counts exactly, per thread too; an excluded function has no row; the slices of
# --funccount-interval add up to the count; a module or pattern that names nothing is one
# line and exit 2; no probe of the target is left in uprobe_events after a run, nor after
# the next run when collect was killed (SIGKILL) while its probes were in place. A C
# library function (pthread_join, called once) is counted once.
. "$(dirname "$0")/lib/common.sh"

T=$TGT/ostrace_funcs
TRACEFS=/sys/kernel/tracing
[ -e $TRACEFS/uprobe_events ] || TRACEFS=/sys/kernel/debug/tracing
if [ ! -w $TRACEFS/uprobe_events ]; then
	ok "# SKIP no writable uprobe_events under tracefs (root and CONFIG_UPROBE_EVENTS needed)"
	exit 0
fi
# the probes of this target's file: its path is this build's, no other test's
probes_of_target() { grep -cF " $(readlink -f "$T"):" $TRACEFS/uprobe_events; }

"$T" "$SCRATCH/bare.facts" >"$SCRATCH/bare.out" 2>/dev/null
check "the target runs bare" [ $? -eq 0 ]
fact() { sed -n "s/^$2 \([0-9]*\)$/\1/p" "$1"; }

# run A: two --func options, a glob, an exclusion
"$UPROF" collect --trace os=funccount --func 'ostrace_funcs:count_*' \
	--func ostrace_funcs:other_gamma --exclude-func ostrace_funcs:count_beta \
	-o "$SCRATCH/a" "$T" "$SCRATCH/a.facts" >"$SCRATCH/a.out" 2>"$SCRATCH/a.err"
rc=$?
check "collect --func exits 0 ($(tail -c 300 "$SCRATCH/a.err" | tr "\n" " "))" [ $rc -eq 0 ]
check "the program's stdout is byte-identical to a bare run's" cmp -s "$SCRATCH/bare.out" "$SCRATCH/a.out"
check "no probe of the target is left in uprobe_events ($(probes_of_target))" [ "$(probes_of_target)" = 0 ]
S=$(session_in "$SCRATCH/a")
"$UPROF" report -i "$S" >/dev/null 2>"$SCRATCH/ra.err"
check "report exits 0 ($(tail -c 300 "$SCRATCH/ra.err" | tr "\n" " "))" [ $? -eq 0 ]
csvq "$S/report.csv" "FUNCTION COUNTS" >"$SCRATCH/a.counts"
csvq "$S/report.csv" "FUNCTION COUNTS BY THREAD" >"$SCRATCH/a.threads"
echo "# FUNCTION COUNTS: $(tr '\t\n' '| ' <"$SCRATCH/a.counts")"
calls() { awk -F'\t' -v f="$2" '$1 == f { print $3 }' "$1"; }
for fn in count_alpha other_gamma; do
	want=$(fact "$SCRATCH/a.facts" $fn)
	check "$fn: $(calls "$SCRATCH/a.counts" $fn) calls counted, the program's own count $want" \
		[ "$(calls "$SCRATCH/a.counts" $fn)" = "$want" ]
done
check "count_beta, excluded, has no row" [ -z "$(calls "$SCRATCH/a.counts" count_beta)" ]
check "exactly the two functions asked for are counted ($(wc -l <"$SCRATCH/a.counts") rows)" \
	[ "$(wc -l <"$SCRATCH/a.counts")" = 2 ]
check_sh "the module is the target's file" \
	'[ "$(cut -f2 "$SCRATCH/a.counts" | sort -u)" = "$(readlink -f "$T")" ]'
main_tid=$(fact "$SCRATCH/a.facts" main_tid)
check_sh "by thread: count_alpha's $(fact "$SCRATCH/a.facts" count_alpha) calls are all main's (tid $main_tid)" \
	'[ "$(awk -F"\t" -v t="$main_tid" "\$1 == \"count_alpha\" && \$4 == t { print \$5 }" "$SCRATCH/a.threads")" = "$(fact "$SCRATCH/a.facts" count_alpha)" ]'
check "by thread: one row per function (main called both)" [ "$(wc -l <"$SCRATCH/a.threads")" = 2 ]

# a collect killed while its probes are in place leaves them; the next one removes them
"$UPROF" collect --trace os --func 'ostrace_funcs:count_alpha' -o "$SCRATCH/k" \
	"$T" "$SCRATCH/k.facts" wait >/dev/null 2>"$SCRATCH/k.err" &
cpid=$!
for _ in $(seq 600); do [ -s "$SCRATCH/k.facts" ] && break; sleep 0.1; done
check "the killed run's target did its calls" [ -s "$SCRATCH/k.facts" ]
check "while collect runs its probe is in uprobe_events ($(probes_of_target))" [ "$(probes_of_target)" -ge 1 ]
tpid=$(pgrep -P $cpid -f ostrace_funcs | head -1)
kill -KILL $cpid
wait $cpid 2>/dev/null
[ -n "$tpid" ] && kill -KILL "$tpid" 2>/dev/null
check "after SIGKILL of collect its probe is still there ($(probes_of_target))" [ "$(probes_of_target)" -ge 1 ]

# run B: a ? glob, the other thread's function, in slices, and a C library's function
# (called once: main's pthread_join); it sweeps the leftover
"$UPROF" collect --trace os=funccount --func 'ostrace_funcs:count_?eta,libc:pthread_join' \
	-o "$SCRATCH/b" "$T" "$SCRATCH/b.facts" >/dev/null 2>"$SCRATCH/b.err"
check "collect --func exits 0 ($(tail -c 300 "$SCRATCH/b.err" | tr "\n" " "))" [ $? -eq 0 ]
check "it said it removed the killed uprof's probes ($(grep -c 'removed' "$SCRATCH/b.err"))" \
	grep -q 'removed [0-9]* uprobe events a uprof that was killed left' "$SCRATCH/b.err"
check "no probe of the target is left in uprobe_events ($(probes_of_target))" [ "$(probes_of_target)" = 0 ]
S=$(session_in "$SCRATCH/b")
"$UPROF" report --funccount-interval 0.02 -i "$S" >/dev/null 2>"$SCRATCH/rb.err"
check "report --funccount-interval exits 0 ($(tail -c 300 "$SCRATCH/rb.err" | tr "\n" " "))" [ $? -eq 0 ]
want=$(fact "$SCRATCH/b.facts" count_beta)
beta_tid=$(fact "$SCRATCH/b.facts" beta_tid)
got=$(csvq "$S/report.csv" "FUNCTION COUNTS" | calls /dev/stdin count_beta)
check "count_beta: $got calls counted, the program's own count $want" [ "$got" = "$want" ]
check_sh "by thread: all of them the second thread's (tid $beta_tid)" \
	'[ "$(csvq "$S/report.csv" "FUNCTION COUNTS BY THREAD" | awk -F"\t" -v t="$beta_tid" "\$4 == t { print \$5 }")" = "$want" ]'
got=$(csvq "$S/report.csv" "FUNCTION COUNTS" | calls /dev/stdin pthread_join)
check "pthread_join of the C library: $got call counted, the program's one" [ "$got" = 1 ]
check_sh "its module is the C library's file" \
	'csvq "$S/report.csv" "FUNCTION COUNTS" | awk -F"\t" "\$1 == \"pthread_join\"" | cut -f2 | grep -q "/libc\.so"'
csvq "$S/report.csv" "FUNCTION COUNTS BY INTERVAL" | awk -F'\t' '$3 == "count_beta"' >"$SCRATCH/b.slices"
echo "# slices: $(tr '\t\n' '| ' <"$SCRATCH/b.slices")"
check_sh "the slices of 0.02 s add up to the count ($want)" \
	'[ "$(awk -F"\t" "{ s += \$5 } END { print s + 0 }" "$SCRATCH/b.slices")" = "$want" ]'
check_sh "each slice is 0.02 s wide and starts at a multiple of it" \
	'awk -F"\t" "{ w = \$2 - \$1; k = \$1 / 0.02; if (w < 0.0195 || w > 0.0205 || k - int(k + 0.5) > 0.01 || int(k + 0.5) - k > 0.01) bad++ } END { exit bad > 0 || NR == 0 }" "$SCRATCH/b.slices"'

# what names nothing: one line, exit 2, nothing run
expect_fail 2 "a module that is not there" "no module 'nosuchmod'" \
	"$UPROF" collect --trace os --func nosuchmod:foo -o "$SCRATCH/x" "$T" "$SCRATCH/x.facts"
expect_fail 2 "a pattern that matches no function" "no function of .* matches 'nosuch_\*'" \
	"$UPROF" collect --trace os --func 'ostrace_funcs:nosuch_*' -o "$SCRATCH/x" "$T" "$SCRATCH/x.facts"
expect_fail 2 "a --func without MODULE:" "give MODULE:PATTERN" \
	"$UPROF" collect --trace os --func count_alpha -o "$SCRATCH/x" "$T" "$SCRATCH/x.facts"
expect_fail 2 "everything excluded" "nothing to count" \
	"$UPROF" collect --trace os --func ostrace_funcs:count_alpha --exclude-func 'ostrace_funcs:count_*' \
	-o "$SCRATCH/x" "$T" "$SCRATCH/x.facts"
expect_fail 2 "os=funccount without --func" "give --func MODULE:PATTERN" \
	"$UPROF" collect --trace os=funccount -o "$SCRATCH/x" "$T" "$SCRATCH/x.facts"
expect_fail 2 "--func without the OS trace" "give --trace" \
	"$UPROF" collect --func ostrace_funcs:count_alpha -o "$SCRATCH/x" "$T" "$SCRATCH/x.facts"
expect_fail 2 "kernel functions (no kprobes built, or none in this kernel)" "kernel:vfs_read" \
	"$UPROF" collect --trace os --func kernel:vfs_read -o "$SCRATCH/x" "$T" "$SCRATCH/x.facts"
expect_fail 2 "report --funccount-interval that is not seconds" "funccount-interval '0'" \
	"$UPROF" report --funccount-interval 0 -i "$S"
check "the refused runs ran nothing (no facts file)" [ ! -e "$SCRATCH/x.facts" ]
check "and left no probe ($(probes_of_target))" [ "$(probes_of_target)" = 0 ]
