#!/usr/bin/env bash
# collect --start-delay, --affinity and --env-var on real targets: the profile starts after
# the delay (samples, tasks, -d and the achieved rate all count from there), the program
# runs on the given CPUs only, gets the extra environment, and bad values are one-line
# usage errors.
. "$(dirname "$0")/lib/common.sh"

key() { csvq "$1" --key "$2"; }
funcs() { csvq "$1" "FUNCTIONS" | awk -F'\t' '$3 !~ /kallsyms/ {print $1}' | sort -u | paste -sd' '; }

# ---- --start-delay: phases spends 0.4 s in phase_one (task one), then 0.4 s in phase_two
# (task two) and prints when each task began and ended (CLOCK_MONOTONIC ns, as session.ini's
# start_mono_ns). Where the profile's start falls among them is the machine's load: the
# checks take it from those times (a task that ended before the start is not reported, one
# running at the start counts from it).
"$UPROF" collect -o "$SCRATCH/sd" --start-delay 0.5 "$TGT/phases" >"$SCRATCH/out" 2>"$SCRATCH/err"
check "--start-delay 0.5: exit 0" [ $? = 0 ]
check "the terminal says when profiling starts" bash -c "grep -q '^Profiling starts in 0.5 s' '$SCRATCH/err' && grep -q '^Profiling started after 0.5 s' '$SCRATCH/err'"
S=$(session_in "$SCRATCH/sd")
"$UPROF" report -i "$S" >/dev/null 2>&1
R=$S/report.csv
start=$(sed -n 's/^start_mono_ns = //p' "$S/session.ini")
read -r e1 b2 e2 <<<"$(awk '$1=="one" && $4=="two" {print $3, $5, $6}' "$SCRATCH/out" |
	"$PYTHON" -c "import sys; print(*['%.6f' % ((int(x) - int(sys.argv[1])) / 1e9) for x in sys.stdin.read().split()])" "$start")"
echo "# task one ends at $e1 s, two runs $b2..$e2 s after the profile start"
if "$PYTHON" -c "import sys; sys.exit(0 if $e1 < 0 else 1)"; then
	check "phase_two sampled, phase_one (before the start) not ($(funcs "$R"))" \
		bash -c "grep -qw phase_two <<<'$(funcs "$R")' && ! grep -qw phase_one <<<'$(funcs "$R")'"
	tasks=$(csvq "$R" "HOTTEST TASKS (Sort" | cut -f1,2 | paste -sd' ')
	check "task one (over before the start) is not reported ($tasks)" [ "$tasks" = "Phases	two" ]
else
	# a loaded machine started phases late: task one still ran at the start
	el=$(csvq "$R" "HOTTEST TASKS (Sort" | awk -F'\t' '$2=="one"{print $4}')
	check "phase_two sampled ($(funcs "$R"))" bash -c "grep -qw phase_two <<<'$(funcs "$R")'"
	check "task one (running at the start) counts from the start: $e1 s ($el)" near "${el:-0}" "$e1" 0.002
fi
el=$(csvq "$R" "HOTTEST TASKS (Sort" | awk -F'\t' '$2=="two"{print $4}')
want=$("$PYTHON" -c "print(min($e2 - $b2, $e2))")
check "task two counts from the start: $want s ($el)" near "${el:-0}" "$want" 0.002
dur=$(key "$R" "Profile Duration" | awk '{print $1}')
check "the profile lasts from the delay's end to the program's end ($dur s >= $e2)" \
	"$PYTHON" -c "import sys; sys.exit(0 if $dur >= $e2 - 0.002 else 1)"
# the CPU time before the delay's end (0.5 s of 0.8) in the rate would put it near 375 Hz
rate_checks "$S" 1 "--start-delay 0.5: CPU time from the delay's end"
check "no pause is reported for the delay" [ "$(key "$R" "Number Of Pauses")" = 0 ]

"$UPROF" collect -o "$SCRATCH/sd2" --start-delay 0.2 -d 0.3 -b "$TGT/demo" 8000 >/dev/null 2>&1
S=$(session_in "$SCRATCH/sd2")
"$UPROF" report -i "$S" >/dev/null 2>&1
# counted from the launch, -d 0.3 would end 0.1 s after the delay's end
duration_checks "$S" 0.3 "--start-delay 0.2 -d 0.3: -d counts from the delay's end"
pid=$(sed -n 's/^pids = //p' "$S/session.ini")
check "--start-delay 0.2 -d 0.3 -b: the target ran to the end (killed by -b, gone)" \
	bash -c "grep -Eq '^exit_signal = [1-9]' '$S/session.ini' && ! kill -0 $pid 2>/dev/null"

"$UPROF" collect -o "$SCRATCH/sd3" --start-delay 5 /bin/true >/dev/null 2>&1
check "a program that ends during the delay: exit 0 and a session with 0 samples" \
	bash -c "[ \$? = 0 ] && S=\$(ls -d '$SCRATCH'/sd3/uprof-*) && '$UPROF' report -i \"\$S\" >/dev/null 2>&1 && grep -q '^Samples:,\"0\"' \"\$S/report.csv\""

"$UPROF" collect -o "$SCRATCH/sd4" --start-delay 0 "$TGT/demo" 300 >/dev/null 2>"$SCRATCH/err"
check "--start-delay 0 is no delay" grep -q "^Profiling started: " "$SCRATCH/err"

# ---- --affinity and --env-var ----
last=$(($(nproc) - 1))
out=$("$UPROF" collect -o "$SCRATCH/af" --affinity "$last" --env-var "UPROF_T1=a b;UPROF_T2=2" \
	--env-var UPROF_T3= /bin/sh -c 'grep Cpus_allowed_list /proc/self/status; echo "[$UPROF_T1][$UPROF_T2][${UPROF_T3-unset}]"' 2>/dev/null)
check "--affinity $last: the program runs on CPU $last only" grep -qP "^Cpus_allowed_list:\t$last\$" <<<"$out"
check "--env-var: NAME=VALUE;NAME=VALUE and repeated, an empty value too" grep -qx "\[a b\]\[2\]\[\]" <<<"$out"
check "uprof itself is not pinned" bash -c "[ \"\$(grep Cpus_allowed_list /proc/self/status | cut -f2)\" != '$last' ] || [ '$last' = 0 ]"
check "the session records the options in its command line" \
	grep -q -- "--affinity $last" "$(session_in "$SCRATCH/af")/session.ini"

expect_fail 2 "--start-delay text" "--start-delay 'x' is not a number of seconds" "$UPROF" collect --start-delay x /bin/true
expect_fail 2 "--start-delay negative" "--start-delay '-1'" "$UPROF" collect --start-delay -1 /bin/true
expect_fail 2 "--affinity offline CPU" "CPU 4096 is not online|CPUs are numbered below" "$UPROF" collect --affinity 4096 /bin/true
expect_fail 2 "--affinity not a list" "give a CPU list such as 0-3,8" "$UPROF" collect --affinity 3-1 /bin/true
expect_fail 2 "--env-var without =" "--env-var 'JUSTANAME': give NAME=VALUE" "$UPROF" collect --env-var JUSTANAME /bin/true
expect_fail 2 "--env-var with an empty name" "--env-var '=x'" "$UPROF" collect --env-var =x /bin/true
expect_fail 2 "--affinity with -p" "apply to a launched program" "$UPROF" collect --affinity 0 -p $$
echo "# launch_options.sh done"
