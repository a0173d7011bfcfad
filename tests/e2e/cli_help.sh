#!/usr/bin/env bash
# A CLI that helps: "did you mean" for every kind of name uprof refuses (and none where no
# name is near), info --list for every list, pcm's command words never run as programs,
# bash completion of options and values checked against the binary both ways, a man page
# for every command with every --help option, and uProf's documented options (the
# coverage table of scripts/uprof_cli_coverage.py): none built is unknown.
. "$(dirname "$0")/lib/common.sh"
FIX=$PWD/tests/fixtures
fake() { UPROF_SYSFS_ROOT=$FIX/sysfs UPROF_PROCFS_ROOT=$FIX/procfs "$UPROF" "$@"; }

# ---- did you mean: one line, exit 2, the real name; none when nothing is near ----
expect_fail 2 "a command one letter off" "^uprof: 'colect' is not a command \(did you mean collect\?\)" "$UPROF" colect
expect_fail 2 "help of a command with two letters swapped" "'cmopare' is not a command \(did you mean compare\?\)" "$UPROF" help cmopare
expect_fail 2 "an option with two letters swapped" "unknown option '--timer-intreval' \(did you mean --timer-interval\?\)" "$UPROF" collect --timer-intreval 2 /bin/true
expect_fail 2 "a report option with a letter missing" "unknown option '--cutofff' \(did you mean --cutoff\?\)" "$UPROF" report --cutofff 3 -i /nonexistent
expect_fail 2 "a config with a letter missing (collect)" "unknown config 'hotspot' \(did you mean hotspots\?\); known configs: " "$UPROF" collect --config hotspot /bin/true
expect_fail 2 "a config with a letter missing (info)" "--collect-config 'asess': no such config \(did you mean assess\?\)" "$UPROF" info --collect-config asess
expect_fail 2 "a pcm metric group with a letter more" "-m l33: no such metric group \(did you mean l3\?\)" fake pcm --dry-run -m l33
expect_fail 2 "an export name with a letter missing" "--export 'flamegrph' \(did you mean flamegraph\?\): use folded, " "$UPROF" report --export flamegrph -i /nonexistent
expect_fail 2 "a --list name with a letter missing" "--list 'predefind-events': no such list \(did you mean predefined-events\?\); lists: " "$UPROF" info --list predefind-events
# far from every name: no suggestion (no bogus word offered)
for args in "xyzzy" "collect --qwertyuiop /bin/true" "collect --config zzzzqq /bin/true" \
	"info --collect-config zzzzqq" "info --list zzzzqq" "report --export zzzzqq -i /nonexistent"; do
	# shellcheck disable=SC2086
	expect_fail 2 "uprof $args: refused without a suggestion" "^uprof[^(]*$" "$UPROF" $args
done
expect_fail 2 "pcm -m far from every group: no suggestion" "^uprof pcm: -m zzzzqq: no such metric group \(see" fake pcm --dry-run -m zzzzqq

# ---- pcm: its command words are never run as programs ----
expect_fail 2 "pcm -m swi top: a pcm command in a program's place, not top(1)" \
	"^uprof pcm: 'top' is a pcm command, not a program: put it first .*runs after --" "$UPROF" pcm -m swi top
expect_fail 2 "pcm hreport x: a directory that is not there, said" "^uprof pcm hreport: cannot open 'x': No such file" "$UPROF" pcm hreport x
mkdir -p "$SCRATCH/bin"
printf '#!/bin/sh\necho ran > "%s/ran"\n' "$SCRATCH" >"$SCRATCH/bin/top" && chmod +x "$SCRATCH/bin/top"
PATH=$SCRATCH/bin:$PATH "$UPROF" pcm -m swi -d 0.1 -- top >/dev/null 2>"$SCRATCH/top.err"
check "pcm -m swi -- top: after --, a program named top runs" [ "$(cat "$SCRATCH/ran" 2>/dev/null)" = ran ]
rm -f "$SCRATCH/ran"
PATH=$SCRATCH/bin:$PATH "$UPROF" pcm -m swi top >/dev/null 2>&1
check "... and without -- it does not" [ ! -e "$SCRATCH/ran" ]

# ---- info --list: every list uProf has ----
lists=$("$UPROF" info --list lists)
check "info --list lists: uProf's eight lists and uprof's three" \
	[ "$(sort <<<"$lists" | tr '\n' ' ')" = "cacheline-events collect-configs export-formats gpu-events lists metric-groups ostrace-events pmu-events predefined-events trace-events view-configs " ]
check "info --list view-configs lists report --view's views" bash -c "'$UPROF' info --list view-configs | grep -q '^triage_assess  *available  *assess '"
for l in cacheline-events gpu-events; do
	expect_fail 2 "info --list $l: refused with the reason" "^uprof info: --list $l: uprof (has no|profiles CPUs)" "$UPROF" info --list $l
done
for ev in $("$UPROF" info --list ostrace-events | awk '{ print $1 }'); do
	check "ostrace-events lists $ev: collect --trace os=$ev takes it" bash -c "'$UPROF' collect --trace os=$ev --help >/dev/null 2>&1"
done
check "ostrace-events: the five events --trace os takes" [ "$("$UPROF" info --list ostrace-events | awk '{ print $1 }' | tr '\n' ' ')" = "syscall pthread sched pagefault funccount " ]
for t in $("$UPROF" info --list trace-events | awk '{ print $1 }'); do
	check "trace-events lists $t: collect --trace $t takes it" bash -c "'$UPROF' collect --trace $t --help >/dev/null 2>&1"
done
for x in $("$UPROF" info --list export-formats | awk '{ print $1 }'); do
	check "export-formats lists $x: report --export $x takes it" bash -c "'$UPROF' report --export $x --help >/dev/null 2>&1"
done
check "export-formats: the eight exports" [ "$("$UPROF" info --list export-formats | awk '{ print $1 }' | tr '\n' ' ')" = "folded flamegraph perfetto html sqlite pprof wallfolded wallflame " ]
groups=$(fake info --list metric-groups)
# the groups of every generation: configs/pcm's files and those of zen3/zen4/zen5's own directories
check "metric-groups: the files of configs/pcm" [ "$(tr '\n' ' ' <<<"$groups")" = "$(ls configs/pcm/*.ini configs/pcm/zen*/*.ini | xargs -n1 basename | sed 's/\.ini$//' | sort -u | tr '\n' ' ')" ]
for g in $groups; do
	check "metric-groups lists $g: pcm -m $g is a group (fake Zen sysfs)" bash -c "! UPROF_SYSFS_ROOT='$FIX/sysfs' UPROF_PROCFS_ROOT='$FIX/procfs' '$UPROF' pcm --dry-run -m $g 2>&1 | grep -q 'no such metric group'"
done
expect_fail 2 "collect --config energy: uProf's Windows config, refused with the reason" "^uprof collect: --config energy: uProf's energy config is Windows only" "$UPROF" collect --config energy /bin/true
expect_fail 2 "info --bpf: refused with the reason" "^uprof info: --bpf: uprof uses no eBPF" "$UPROF" info --bpf

# ---- bash completion, against the binary both ways ----
comp() { # WORDS...: what completing the last word offers, one per line
	bash -c '. scripts/uprof-completion.bash; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _uprof; printf "%s\n" "${COMPREPLY[@]}"' _ "$@"
}
for c in collect report profile translate annotate compare info pcm; do
	offered=$(comp "$UPROF" $c -)
	helped=$("$UPROF" $c --help | grep -oE -- '^  (-[a-zA-Z0-9], |    )?--?[a-zA-Z0-9][a-z0-9-]*' | grep -oE -- '-[-a-zA-Z0-9]+' | sort -u)
	missing=$(comm -23 <(echo "$helped") <(echo "$offered" | sort -u) | tr '\n' ' ')
	check "completion of '$c -' offers every option of its --help (missing: ${missing:-none})" [ -z "$missing" ]
	bad=
	for o in $offered; do
		"$UPROF" $c "$o" --help >/dev/null 2>"$SCRATCH/o.err" </dev/null
		grep -q "unknown option" "$SCRATCH/o.err" && bad="$bad $o"
	done
	check "every option completion offers for $c is one uprof $c takes (unknown:${bad:- none})" [ -z "$bad" ]
done
check_sh "completion of 'pcm roofline -' offers its --html" 'comp "$UPROF" pcm roofline - | grep -qx -- --html'
check "completion of 'pcm pro' offers the profile command" [ "$(comp "$UPROF" pcm pro | grep -x profile)" = profile ]
check "completion of 'pcm hr' offers the hreport command" [ "$(comp "$UPROF" pcm hr | grep -x hreport)" = hreport ]
check_sh "completion of 'pcm hreport -' offers its -o and --output" 'comp "$UPROF" pcm hreport - | grep -qx -- --output && comp "$UPROF" pcm hreport - | grep -qx -- -o'
mkdir -p "$SCRATCH/hrdir" && : >"$SCRATCH/hrfile"
check "completion of 'pcm hreport <dir>' offers directories only" [ "$(comp "$UPROF" pcm hreport "$SCRATCH/hr")" = "$SCRATCH/hrdir" ]
check "completion: 'collect --config h' offers hotspots" [ "$(comp "$UPROF" collect --config h)" = hotspots ]
check "completion: 'info --list pre' offers predefined-events" [ "$(comp "$UPROF" info --list pre)" = predefined-events ]
check "completion: 'info --collect-config as' offers assess and assess_ext" [ "$(comp "$UPROF" info --collect-config as | tr '\n' ' ')" = "assess assess_ext " ]
check "completion: 'report --export folded,fl' offers folded,flamegraph" [ "$(comp "$UPROF" report --export folded,fl)" = folded,flamegraph ]
check "completion: 'pcm -m ipc,l' offers ipc,l1 ipc,l2 ipc,l3" [ "$(comp "$UPROF" pcm -m ipc,l | tr '\n' ' ')" = "ipc,l1 ipc,l2 ipc,l3 " ]
check "completion: 'collect --trace os=s' offers os=syscall os=sched" [ "$(comp "$UPROF" collect --trace os=s | tr '\n' ' ')" = "os=syscall os=sched " ]
check "completion: 'collect -e RETIRED_BR' offers the two branch events" [ "$(comp "$UPROF" collect -e RETIRED_BR | tr '\n' ' ')" = "RETIRED_BR_INST RETIRED_BR_INST_MISP " ]
check "completion: 'report --view ipc' offers ipc_assess; IBS views are not offered" \
	bash -c "[ \"\$(. scripts/uprof-completion.bash; COMP_WORDS=('$UPROF' report --view ipc); COMP_CWORD=3; _uprof; echo \${COMPREPLY[*]})\" = ipc_assess ] && [ -z \"\$(. scripts/uprof-completion.bash; COMP_WORDS=('$UPROF' report --view ibs_); COMP_CWORD=3; _uprof; echo \${COMPREPLY[*]})\" ]"
check "completion: 'profile --export h' offers html (report's value, under profile)" [ "$(comp "$UPROF" profile --export h)" = html ]
# every value completion offers is one uprof takes
bad=
for v in $(comp "$UPROF" collect --config ''); do "$UPROF" info --collect-config "$v" >/dev/null 2>&1 || bad="$bad config:$v"; done
for v in $(comp "$UPROF" info --list ''); do "$UPROF" info --list "$v" 2>&1 >/dev/null | grep -q "no such list" && bad="$bad list:$v"; done
for v in $(comp "$UPROF" report --export ''); do "$UPROF" report --export "$v" --help >/dev/null 2>&1 || bad="$bad export:$v"; done
for v in $(comp "$UPROF" collect --trace ''); do "$UPROF" collect --trace "$v" --help >/dev/null 2>&1 || bad="$bad trace:$v"; done
for v in $(comp "$UPROF" collect -e ''); do "$UPROF" info --list predefined-events | grep -q "^$v " || bad="$bad event:$v"; done
for v in $(comp "$UPROF" report --view ''); do "$UPROF" report --view "$v" --help >/dev/null 2>&1 || bad="$bad view:$v"; done
for v in $(comp "$UPROF" info --view-config ''); do "$UPROF" info --view-config "$v" >/dev/null 2>&1 || bad="$bad view-config:$v"; done
for v in $(comp "$UPROF" pcm -m ''); do fake pcm --dry-run -m "$v" 2>&1 | grep -q "no such metric group" && bad="$bad group:$v"; done
check "every value completion offers is one uprof takes (refused:${bad:- none})" [ -z "$bad" ]
check "completion offers some of each value kind (configs, lists, exports, traces, events, groups)" \
	bash -c "for w in 'collect --config' 'info --list' 'report --export' 'collect --trace' 'collect -e' 'pcm -m'; do [ \$(. scripts/uprof-completion.bash; COMP_WORDS=('$UPROF' \$w ''); COMP_CWORD=3; _uprof; echo \${#COMPREPLY[@]}) -ge 3 ] || exit 1; done"

# ---- a man page for every command, with every option of its --help ----
for c in $("$UPROF" --help | awk '/^commands:/ { f = 1; next } f && !NF { exit } f { print $1 }'); do
	page=man/uprof-$c.1
	[ "$c" = diff ] && page=man/uprof-compare.1
	check "uprof $c has a man page ($page)" [ -f "$page" ]
	[ -f "$page" ] || continue
	text=$(LC_ALL=C.UTF-8 MANWIDTH=200 man -l "$page" 2>/dev/null | col -b)
	for opt in $("$UPROF" $c --help | grep -oE -- '^ +(-[a-zA-Z], )?--[a-z][a-z0-9-]*' | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u); do
		check "$page documents $c's $opt" grep -qE -- "(^|[ ,])$opt([ ,=[]|\$)" <<<"$text"
	done
done
check "uprof(1) refers to uprof-info(1)" grep -q 'uprof\\-info (1)' man/uprof.1

# ---- uProf's documented options: none that is built is unknown ----
"$PYTHON" scripts/uprof_cli_coverage.py --uprof "$UPROF" --must-know "$FIX/uprof-cli/must-know.tsv" \
	>"$SCRATCH/coverage.md" 2>"$SCRATCH/coverage.err"
rc=$?
check "coverage: no option known to be built is unknown ($(tr '\n' ' ' <"$SCRATCH/coverage.err"))" [ $rc = 0 ]
check "coverage: a row for every probe" [ "$(grep -c '^| [a-z]* | `' "$SCRATCH/coverage.md")" = "$(grep -vc '^#' "$FIX/uprof-cli/options.tsv")" ]
echo "# $(tail -1 "$SCRATCH/coverage.md")"
grep '| unknown |' "$SCRATCH/coverage.md" | cut -d'|' -f2,3 | sed 's/^/# unknown:/'
exit 0
