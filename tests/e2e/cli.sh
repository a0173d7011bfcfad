#!/usr/bin/env bash
# The command line: help and version, info, options that change collection (-w,
# --no-inherit, hotspots, --timer-interval, -m), exit status passthrough, C++ names,
# report options (--cutoff, --stdout, --report-output), and man pages in step with --help.
. "$(dirname "$0")/lib/common.sh"

check "--version prints the version" bash -c "'$UPROF' --version | grep -q '^uprof [0-9]'"
check "--help lists the commands" bash -c "'$UPROF' --help | grep -q collect"
for c in collect report annotate compare diff profile translate info pcm; do
	check "$c --help exits 0" bash -c "'$UPROF' $c --help >/dev/null"
	check "help $c prints $c --help" bash -c "[ \"\$('$UPROF' help $c)\" = \"\$('$UPROF' $c --help)\" ]"
done
expect_fail 2 "help of an unknown command" "'nope' is not a command" "$UPROF" help nope

# A failed write to stdout (here /dev/full) is an error for every command: the output is
# lost, so the exit is non-zero and stderr says why. (The reason is known only where the
# last write failed; a command that flushed earlier leaves just the stream's error flag.)
wfail="^uprof: writing to standard output failed(: No space left on device)?$"
for args in --version --help help "help collect" "collect --help" "report --help" \
	"info --help" "pcm --help" "info --system" "info --list collect-configs" \
	"info --collect-config tbp" "pcm -m swi -- /bin/true" "pcm --dry-run -m swi"; do
	expect_fail 1 "uprof $args >/dev/full" "$wfail" bash -c "'$UPROF' $args >/dev/full"
done
# collect's stdout is the program's: collect writes nothing there, so a full one is the
# program's business (/bin/true writes nothing: exit 0) and collect's lines, the session
# path last, are all on stderr
"$UPROF" collect -o "$SCRATCH/full" /bin/true >/dev/full 2>"$SCRATCH/full.err"
rc=$?
check "collect >/dev/full: the program's exit 0 ($rc), the session path last on stderr" \
	bash -c "[ $rc = 0 ] && tail -1 '$SCRATCH/full.err' | grep -qx 'Generated data files path: $(session_in "$SCRATCH/full")'"
check "... and the session can be reported" \
	bash -c "'$UPROF' report -i '$(session_in "$SCRATCH/full")' >/dev/null 2>&1"
# report's table goes to stdout: a full one is a failed write, said last, after report.csv
"$UPROF" report -i "$(session_in "$SCRATCH/full")" >/dev/full 2>"$SCRATCH/full.err"
rc=$?
check "report >/dev/full: exit 1 ($rc), the last line on stderr says why" \
	bash -c "[ $rc = 1 ] && tail -1 '$SCRATCH/full.err' | grep -qE '$wfail'"
# --stdout sends the CSV to stdout (the table to stderr) and says itself that the write
# failed: main adds no second line
"$UPROF" report -i "$(session_in "$SCRATCH/full")" --stdout >/dev/full 2>"$SCRATCH/full.err"
rc=$?
check "report --stdout >/dev/full: exit 1 ($rc) and one line that says why" \
	bash -c "[ $rc = 1 ] && [ \$(grep -c '^uprof' '$SCRATCH/full.err') = 1 ] && tail -1 '$SCRATCH/full.err' | grep -q '^uprof report: writing to stdout: '"

cfgs=$("$UPROF" info --list collect-configs)
check "info lists tbp and hotspots with descriptions" bash -c "grep -q '^tbp  *Time' <<<'$cfgs' && grep -q '^hotspots  *Hot' <<<'$cfgs'"
out=$("$UPROF" info --collect-config cpi)
check "info --collect-config cpi: its two events and the IPC formula" \
	bash -c "grep -q 'event=CYCLES_NOT_IN_HALT,interval=' <<<'$out' && grep -q 'event=RETIRED_INST,interval=' <<<'$out' && grep -qx '    IPC = RETIRED_INST / CYCLES_NOT_IN_HALT' <<<'$out'"
check "info --collect-config tbp: the timer" bash -c "'$UPROF' info --collect-config tbp | grep -q 'timer: CPU_TIME every 1 ms'"
expect_fail 2 "info --collect-config of an unknown config" "no such config; known: .*tbp" "$UPROF" info --collect-config nope
out=$(LIBPFM_FORCE_PMU=amd64_fam19h_zen3 UPROF_SYSFS_ROOT="$PWD/tests/fixtures/sysfs" "$UPROF" info --list pmu-events 2>"$SCRATCH/pe.err")
check "info --list pmu-events (Zen3 forced): libpfm4's names with their codes" \
	bash -c "grep -qE '^amd64_fam19h_zen3::RETIRED_INSTRUCTIONS +0x0c0 ' <<<'$out' && grep -qE '^amd64_fam19h_zen3::CYCLES_NOT_IN_HALT +0x076 ' <<<'$out'"
check "... and no note where the kernel has a core PMU (the fake sysfs)" [ ! -s "$SCRATCH/pe.err" ]
if [ ! -e /sys/bus/event_source/devices/cpu ]; then
	LIBPFM_FORCE_PMU=amd64_fam19h_zen3 "$UPROF" info --list pmu-events >/dev/null 2>"$SCRATCH/pe.err"
	check "no core PMU in the kernel: a note says the events cannot be counted here" \
		grep -q "kernel exposes no core PMU here" "$SCRATCH/pe.err"
fi
# info --pmu-event: by code, the events --list pmu-events gives that code; all, every one
Z3=(env LIBPFM_FORCE_PMU=amd64_fam19h_zen3)
"${Z3[@]}" "$UPROF" info --list pmu-events 2>/dev/null | awk '{ print $1, $2 }' | sort >"$SCRATCH/pe.list"
"${Z3[@]}" "$UPROF" info --pmu-event all 2>/dev/null |
	sed -nE 's/^([a-z0-9_]+::[A-Za-z0-9_]+) \(PMCx([0-9A-F]+)\)$/\1 \2/p' |
	awk '{ print $1, "0x" tolower($2) }' | sort >"$SCRATCH/pe.all"
check "info --pmu-event all: every event of --list pmu-events with its code ($(wc -l <"$SCRATCH/pe.list") listed, $(wc -l <"$SCRATCH/pe.all") shown)" \
	bash -c "[ -s '$SCRATCH/pe.list' ] && cmp -s '$SCRATCH/pe.list' '$SCRATCH/pe.all'"
out=$("${Z3[@]}" "$UPROF" info --pmu-event pmcx43)
check "info --pmu-event pmcx43: the events of code 0x043, their uProf names and unit masks" \
	bash -c "[ \"\$(grep -c '(PMCx043)\$' <<<'$out')\" = \"\$(awk '\$2 == \"0x043\"' '$SCRATCH/pe.list' | wc -l)\" ] &&
		grep -q '^  uProf name: L1_DEMAND_DC_REFILLS_LOCAL_L2 (umask 0x01)' <<<'$out' &&
		grep -qE '^    LCL_L2 +0x01 ' <<<'$out'"
expect_fail 2 "info --pmu-event of a code no event has" "no such event on amd64_fam19h_zen3" \
	"${Z3[@]}" "$UPROF" info --pmu-event pmcx999
# pcm -l and -z (AMDuProfPcm's) are info's lists, word for word, under pcm's name
check "pcm -l lists --list pmu-events' events and codes" \
	bash -c "[ -s '$SCRATCH/pe.list' ] && cmp -s '$SCRATCH/pe.list' <(${Z3[*]} '$UPROF' pcm -l 2>/dev/null | awk '{ print \$1, \$2 }' | sort)"
check "pcm -z pmcx43 shows info --pmu-event pmcx43" \
	bash -c "[ -n '$out' ] && [ \"\$(${Z3[*]} '$UPROF' pcm -z pmcx43)\" = '$out' ]"
expect_fail 2 "pcm -z of a code no event has" "uprof pcm: -z pmcx999: no such event on amd64_fam19h_zen3" \
	"${Z3[@]}" "$UPROF" pcm -z pmcx999
if ! env -u LIBPFM_FORCE_PMU "$UPROF" info --list pmu-events >/dev/null 2>&1; then
	expect_fail 1 "pcm -l without a PMU libpfm4 knows" "uprof pcm: no hardware PMU here" env -u LIBPFM_FORCE_PMU "$UPROF" pcm -l
fi
check "info --system mentions perf_event_paranoid" bash -c "'$UPROF' info --system | grep -q perf_event_paranoid"

# exit status passthrough
"$UPROF" collect -o "$SCRATCH/x" /bin/sh -c 'exit 7' >/dev/null 2>&1
check "uprof exits with the program's status" [ $? -eq 7 ]

# -w: the program runs in the given directory; arguments pass through untouched
mkdir -p "$SCRATCH/wd"
"$UPROF" collect -o "$SCRATCH/w" -w "$SCRATCH/wd" /bin/sh -c 'pwd > where; echo "$1|$2" > args' sh "a b" '--config' >/dev/null 2>&1
check "-w sets the working directory" [ "$(cat "$SCRATCH/wd/where" 2>/dev/null)" = "$SCRATCH/wd" ]
check "program arguments (even option-like ones) pass through" [ "$(cat "$SCRATCH/wd/args" 2>/dev/null)" = "a b|--config" ]

# hotspots: user mode only; the session name carries the label
"$UPROF" collect --config hotspots -o "$SCRATCH/h" "$TGT/demo" 300 >/dev/null 2>&1
S=$(session_in "$SCRATCH/h")
check "hotspots session dir is named uprof-demo-Hotspots_<date>" bash -c "basename '$S' | grep -Eq '^uprof-demo-Hotspots_[A-Z][a-z]{2}-[0-9]{2}-[0-9]{4}_[0-9]{2}-[0-9]{2}-[0-9]{2}$'"
"$UPROF" report -i "$S" >/dev/null 2>&1
check "hotspots has no kernel samples" bash -c "! grep -q 'kernel.kallsyms' '$S/report.csv'"
check "hotspots says user mode only" grep -q 'user mode only' "$S/report.csv"

# --timer-interval: 0.25 ms gives about 4x the samples per CPU second
"$UPROF" collect --timer-interval 0.25 -m 256 -o "$SCRATCH/t" "$TGT/demo" 400 >/dev/null 2>&1
S=$(session_in "$SCRATCH/t")
"$UPROF" report -i "$S" >/dev/null 2>&1
check "timer interval shown as 0.250ms" grep -q 'Timer Interval:,"0.250ms"' "$S/report.csv"
rate_checks "$S" 0.25 "--timer-interval 0.25"
check "no lost samples at 0.25 ms" [ "$(csvq "$S/report.csv" --key "Lost Samples")" = 0 ]

# --no-inherit: only the initial thread is followed
"$UPROF" collect --no-inherit -o "$SCRATCH/n" "$TGT/multi" "$TGT/exec_child" "$TGT/libplugin.so" >/dev/null 2>&1
S=$(session_in "$SCRATCH/n")
"$UPROF" report -i "$S" --cutoff 0 >/dev/null 2>&1
funcs=$(csvq "$S/report.csv" FUNCTIONS | cut -f1)
check "--no-inherit keeps the main thread's main_work" grep -qx main_work <<<"$funcs"
check "--no-inherit drops threads and children" bash -c "! grep -qE '^(thread_a_work|forked_child_work|exec_child_work)$' <<<'$funcs'"

# C++: demangled names with namespaces, templates and parameters
"$UPROF" collect -o "$SCRATCH/c" "$TGT/cxx_templ" >/dev/null 2>&1
S=$(session_in "$SCRATCH/c")
"$UPROF" report -i "$S" >/dev/null 2>&1
top=$(csvq "$S/report.csv" FUNCTIONS | head -1 | cut -f1)
check "C++ template method demangled ($top)" [ "$top" = "ns::Tmpl<double>::step(int)" ]

# report options
"$UPROF" report -i "$S" --stdout >"$SCRATCH/stdout.csv" 2>/dev/null
check "--stdout writes the CSV to stdout" grep -q "HOTTEST FUNCTIONS" "$SCRATCH/stdout.csv"
"$UPROF" report --stdout "$S" >"$SCRATCH/bare.csv" 2>/dev/null
check "report DIR (no -i) reports DIR as -i DIR does (all but the Report Command line)" \
	bash -c "diff <(grep -v '^Report Command' '$SCRATCH/bare.csv') <(grep -v '^Report Command' '$SCRATCH/stdout.csv') >/dev/null && grep -q HOTTEST '$SCRATCH/bare.csv'"
expect_fail 2 "report -i DIR with another argument refuses it" "unexpected argument 'extra'" \
	"$UPROF" report -i "$S" extra
"$UPROF" report -i "$S" --report-output "$SCRATCH/mine.csv" >/dev/null 2>&1
check "--report-output FILE.csv" grep -q "HOTTEST FUNCTIONS" "$SCRATCH/mine.csv"
mkdir -p "$SCRATCH/rd"
"$UPROF" report -i "$S" --report-output "$SCRATCH/rd" >/dev/null 2>&1
check "--report-output DIR writes DIR/report.csv" [ -s "$SCRATCH/rd/report.csv" ]
"$UPROF" report -i "$S" --cutoff 2 >/dev/null 2>&1
check "--cutoff 2 limits rows" [ "$(csvq "$S/report.csv" FUNCTIONS | wc -l)" -le 2 ]
check "--cutoff 2 titles the section" grep -q '"2 HOTTEST FUNCTIONS' "$S/report.csv"
check "report.csv starts with an empty line, then the version" bash -c "head -2 '$S/report.csv' | tail -1 | grep -q '^\"uprof (Version:'"

# -d on a terminal: a live remaining-time line (script(1) gives uprof a pty; CI unset, as
# progress lines are off where CI is set and the CI runner sets it)
if command -v script >/dev/null; then
	env -u CI script -qfec "'$UPROF' collect -d 1.2 -b -o '$SCRATCH/tty' '$TGT/demo' 8000" /dev/null >"$SCRATCH/tty.out" 2>&1
	check "-d on a terminal shows the remaining time" grep -aq "remaining" "$SCRATCH/tty.out"
fi
"$UPROF" collect -d 0.3 -b -o "$SCRATCH/notty" "$TGT/demo" 8000 >/dev/null 2>"$SCRATCH/notty.err"
check "-d without a terminal prints no progress line" bash -c "! grep -q remaining '$SCRATCH/notty.err'"

# make install: a working uprof, its configs, man pages, header and library
prefix=$SCRATCH/prefix
if make -s install PREFIX="$prefix" ${SANITIZE:+SANITIZE=$SANITIZE} >/dev/null 2>&1; then
	ok "make install PREFIX=... succeeds"
	check "installed uprof runs" bash -c "'$prefix/bin/uprof' --version | grep -q '^uprof '"
	check "installed uprof finds its configs" bash -c "'$prefix/bin/uprof' info --list collect-configs | grep -q '^tbp '"
	for f in share/man/man1/uprof.1 share/man/man1/uprof-collect.1 share/man/man1/uprof-report.1 \
		share/man/man3/AMDProfileController.3 include/AMDProfileController.h \
		lib/libAMDProfileController.so lib/libAMDProfileController.a \
		share/uprof/examples/README.md share/uprof/examples/mpi/ring.c \
		share/uprof/examples/ClassicDomainTaskAPI/ClassicDomainTaskAPI.cpp; do
		check "installed $f" [ -s "$prefix/$f" ]
	done
	# each MPI interposer built is installed beside the API library, where collect looks
	for so in "$BUILD"/lib/libuprof_mpi_*.so; do
		[ -e "$so" ] || continue
		check "installed lib/$(basename "$so")" cmp -s "$so" "$prefix/lib/$(basename "$so")"
	done
	if command -v mpirun >/dev/null && [ -x "$TGT/mpi_spin.openmpi" ] &&
		[ -e "$BUILD/lib/libuprof_mpi_openmpi.so" ]; then
		timeout 120 mpirun --allow-run-as-root --oversubscribe -np 2 "$prefix/bin/uprof" collect \
			--trace mpi -o "$SCRATCH/inst-mpi" "$TGT/mpi_spin.openmpi" >"$SCRATCH/inst-mpi.log" 2>&1
		J=$(session_in "$SCRATCH/inst-mpi")
		timeout 120 "$prefix/bin/uprof" report -i "$J" >/dev/null 2>&1
		check "the installed uprof traces MPI: a 2-rank job's report counts 2 ranks ($(grep -m1 'Total Ranks' "$J/report.csv" 2>/dev/null))" \
			grep -qx 'Total Ranks, 2' "$J/report.csv"
	fi
else
	not_ok "make install PREFIX=... succeeds"
fi

# uProf's options (issue 16, Must show 4): each accepted, or refused in one line with its
# reason, never "unknown option"
"$UPROF" collect -o "$SCRATCH/ulp" --use-linux-perf /bin/true >/dev/null 2>"$SCRATCH/ulp.err"
check "collect --use-linux-perf is accepted (exit 0) with a note" \
	bash -c "[ $? = 0 ] && grep -qx 'uprof collect: note: --use-linux-perf changes nothing: uprof always samples through perf_event_open' '$SCRATCH/ulp.err'"
# -m sizes are pages: 16K is 4 pages of 4 KiB (a power of two), 12K is 3 (refused), 1M is
# 256; 512M is 131072 pages, past 65536
for m in 16K 1M 4096B 256M; do
	check "collect -m $m is taken as pages" bash -c "'$UPROF' collect -o '$SCRATCH/m$m' -m $m /bin/true >/dev/null 2>&1"
done
for m in 12K 512M 1T 0K 6144B; do
	expect_fail 2 "collect -m $m is refused" "-m/--mmap-pages '$m' must be a power of two" \
		"$UPROF" collect -o "$SCRATCH/mx" -m $m /bin/true
done
expect_fail 2 "collect --config given twice with different names is refused" "--config given twice \('tbp' and 'hotspots'\): a session has one config" \
	"$UPROF" collect -o "$SCRATCH/cc" --config tbp --config hotspots /bin/true
check "collect --config tbp twice is taken" bash -c "'$UPROF' collect -o '$SCRATCH/cc2' --config tbp --config tbp /bin/true >/dev/null 2>&1"
"$UPROF" collect -o "$SCRATCH/rs" /bin/true >/dev/null 2>&1
RS=$(session_in "$SCRATCH/rs")
for o in "--category gputrace"; do
	name=$(sed 's/ .*//' <<<"$o")
	expect_fail 2 "report $o is refused with its reason" "^uprof report: ${name}( [^:]+)?: [a-z]" \
		"$UPROF" report -i "$RS" $o
done
check "report --category cpu is taken" bash -c "'$UPROF' report -i '$RS' --category cpu >/dev/null 2>&1"

# bash completion (scripts/uprof-completion.bash): commands, and options from --help
comp() { # WORDS...: what completing the last word offers, one per line
	bash -c '. scripts/uprof-completion.bash; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _uprof; printf "%s\n" "${COMPREPLY[@]}"' _ "$@"
}
check "completion: 'uprof com' offers compare" [ "$(comp "$UPROF" com)" = compare ]
check "completion: 'uprof tr' offers translate" [ "$(comp "$UPROF" tr)" = translate ]
check "completion: 'uprof translate --retr' offers --retranslate" [ "$(comp "$UPROF" translate --retr)" = --retranslate ]
check "completion: 'uprof compare --cut' offers --cutoff" [ "$(comp "$UPROF" compare --cut)" = --cutoff ]
check "completion: 'uprof report -s event=t' offers event=timer" [ "$(comp "$UPROF" report -s event=t)" = event=timer ]
check "completion: 'uprof report --show-p' offers --show-percentage" [ "$(comp "$UPROF" report --show-p)" = --show-percentage ]
check "completion: 'uprof profile --timer-i' offers collect's --timer-interval" [ "$(comp "$UPROF" profile --timer-i)" = --timer-interval ]
check "completion: 'uprof profile --report-o' offers report's --report-output" [ "$(comp "$UPROF" profile --report-o)" = --report-output ]

# man pages render and document every long option --help shows
for f in man/*.[137]; do
	m=$(basename "$f")
	check "man page $m renders without warnings" bash -c "[ -z \"\$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l $f 2>&1 >/dev/null)\" ] && [ -z \"\$(groff -man -Tutf8 -ww -z $f 2>&1)\" ]"
done
# ... each option of --help's option column heads an entry of its own (a .TP paragraph,
# rendered at the 7-column indent), not text inside another's (-p had lost its .TP)
for c in collect report annotate compare profile translate pcm; do
	heads=$(LC_ALL=C.UTF-8 MANWIDTH=200 man -l "man/uprof-$c.1" 2>/dev/null | col -b | grep -E '^       -')
	for opt in $("$UPROF" $c --help | grep -oE -- '^ +(-[a-zA-Z], )?--[a-z][a-z0-9-]*' | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u); do
		check "man/uprof-$c.1: $opt heads an entry" grep -qE -- "(^|[ ,])$opt([ ,=[]|\$)" <<<"$heads"
	done
done
for c in collect report annotate compare translate; do
	for opt in $("$UPROF" $c --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
		grep -q -- "$(sed 's/-/\\\\-/g' <<<"$opt")" "man/uprof-$c.1" 2>/dev/null ||
			grep -q -- "$opt" "man/uprof-$c.1" 2>/dev/null ||
			{ not_ok "man/uprof-$c.1 documents $opt"; continue; }
		ok "man/uprof-$c.1 documents $opt"
	done
done
exit 0
