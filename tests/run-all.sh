#!/usr/bin/env bash
# Run every unit test binary given as argument and every tests/e2e/*.sh script.
# Each prints TAP-style "ok"/"not ok" lines; this counts them. An "ok"/"not ok" line with
# a "# SKIP" directive counts as skipped, not passed (cmocka writes "not ok N # SKIP").
# A program that exits non-zero without a "not ok", prints no result at all, or runs past
# its time limit counts as one failure. Last line: "N passed, N failed, N skipped".
#
#   T="name[,name...]"    run only these files: a unit binary (test_session) or an e2e
#                         script (cli or cli.sh); comma or space separated
#   UPROF_TEST_TIMEOUT=S  seconds each file may run (default: 300 unit, 900 e2e)
#   UPROF_TEST_JOBS=N     files run at once (default: the online CPUs; make check J=N)
#
# Files run N at a time, the longest first (by the seconds each took in the last run here,
# kept in $BUILD/test-times, else in tests/test-times, a full run's; a file never timed goes
# by its size, e2e before unit), so the run's tail is short. Each file's block is printed whole when it ends. An e2e script with
# a line "# run-alone: REASON" runs with nothing beside it (one that changes what the whole
# machine sees, or whose checks another test's load or control pages would disturb); those
# run first, one by one, then the rest.
set -u
BUILD=${BUILD:-build}
export UPROF=${UPROF:-$PWD/$BUILD/bin/uprof}
export BUILD
# python resolved once for every file: the system's, not a version manager's shim on PATH
# (tests/e2e/lib/common.sh says why)
if [ -z "${PYTHON:-}" ]; then
	if [ -x /usr/bin/python3 ]; then PYTHON=/usr/bin/python3; else PYTHON=$(command -v python3 || echo python3); fi
fi
export PYTHON
T=${T:-}
JOBS=${UPROF_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
[[ "$JOBS" =~ ^[1-9][0-9]*$ ]] || { echo "run-all.sh: UPROF_TEST_JOBS must be a positive number, not '$JOBS'" >&2; exit 2; }
TIMES=$BUILD/test-times
pass=0 fail=0 skip=0
failed_names=()
work=$(mktemp -d /tmp/uprof-run-all.XXXXXX)
declare -A running=() # pid of a file's runner -> its index

# Every process a test file starts inherits this variable; after the file ends, any that
# still carries it (one that left the process group timeout kills, or outlived its parent)
# is killed, so no test leaves anything running into the next.
stragglers() {
	grep -lzxF "UPROF_TEST_RUN=$1" /proc/[0-9]*/environ 2>/dev/null |
		sed -n 's|^/proc/\([0-9]*\)/environ$|\1|p' | grep -vxF "$$"
}
# Interrupted (Ctrl-C, make killed): timeout runs each file in a process group of its own,
# which the terminal's signal does not reach, so what is still running is ended here.
cleanup() {
	local pid left
	for pid in "${!running[@]}"; do
		kill -TERM "$pid" 2>/dev/null
		left=$(stragglers "$$.${names[${running[$pid]}]}")
		# shellcheck disable=SC2086
		[ -n "$left" ] && kill -KILL $left 2>/dev/null
	done
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# run_one INDEX NAME LIMIT CMD...: runs the file (in the background, beside others); its
# block of lines goes to $work/INDEX.block, then "PASSED FAILED SKIPPED SECONDS" to
# $work/INDEX.res (renamed into place last: its presence says the file is done).
run_one() {
	local i=$1 name=$2 limit=$3; shift 3
	local rc p f s start tag left timed_out= out=$work/$i.out block=$work/$i.block
	tag="$$.$name"
	start=$SECONDS
	# timeout (not --foreground) runs the file in its own process group and signals the
	# whole group: TERM at the limit, KILL 10 s later if anything is still there.
	# Output goes to a file, not a pipe: a straggler holding the pipe cannot hang the run.
	UPROF_TEST_RUN=$tag timeout -k 10 "$limit" "$@" >"$out" 2>&1 </dev/null
	rc=$?
	if { [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; } && [ $((SECONDS - start)) -ge "$limit" ]; then
		timed_out=1
	fi
	left=$(stragglers "$tag")
	# shellcheck disable=SC2086
	[ -n "$left" ] && kill -KILL $left 2>/dev/null
	s=$(grep -ciE '^(not )?ok\b.*#[[:space:]]*skip' "$out")
	p=$(grep -E '^ok\b' "$out" | grep -civE '#[[:space:]]*skip')
	f=$(grep -E '^not ok\b' "$out" | grep -civE '#[[:space:]]*skip')
	local why=""
	if [ -n "$timed_out" ]; then
		f=$((f + 1)) why="timed out after ${limit} s"
	elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1 why="exit $rc"
	elif [ $((p + f + s)) -eq 0 ]; then
		f=1 why="no test results"
	elif [ "$rc" -ne 0 ]; then
		why="exit $rc"
	fi
	local line="== $name: $p passed"
	[ "$f" -ne 0 ] && line+=", $f failed"
	[ "$s" -ne 0 ] && line+=", $s skipped"
	[ -n "$why" ] && line+=" ($why)"
	line+=" [$((SECONDS - start)) s]" # where the suite's time goes
	{
		echo "$line"
		[ -n "$left" ] && echo "   killed what it left running: pids $(echo $left)"
		if [ "$f" -ne 0 ]; then
			grep -vE '^ok\b' "$out" | tail -40
		elif [ "$s" -ne 0 ]; then
			grep -iE '^(not )?ok\b.*#[[:space:]]*skip' "$out"
		fi
	} >"$block"
	echo "$p $f $s $((SECONDS - start)) ${timed_out:+(timed out)}" >"$work/$i.res.tmp"
	mv "$work/$i.res.tmp" "$work/$i.res"
}

# The files to run: every unit binary and e2e script, or those T names.
units=("$@")
e2es=()
for sc in tests/e2e/*.sh; do [ -e "$sc" ] && e2es+=("$sc"); done
if [ -n "$T" ]; then
	want_u=() want_e=() unknown=()
	for n in ${T//,/ }; do
		found=
		for u in "${units[@]}"; do
			[ "$(basename "$u")" = "$n" ] && want_u+=("$u") found=1
		done
		for sc in "${e2es[@]}"; do
			b=$(basename "$sc")
			{ [ "$b" = "$n" ] || [ "$b" = "$n.sh" ]; } && want_e+=("$sc") found=1
		done
		[ -n "$found" ] || unknown+=("$n")
	done
	if [ ${#unknown[@]} -gt 0 ] || [ $((${#want_u[@]} + ${#want_e[@]})) -eq 0 ]; then
		echo "run-all.sh: no test file named: ${unknown[*]:-(none given)}" >&2
		echo "unit tests: $(for u in "${units[@]}"; do basename "$u"; done | tr '\n' ' ')" >&2
		echo "e2e tests:  $(for sc in "${e2es[@]}"; do basename "$sc" .sh; done | tr '\n' ' ')" >&2
		exit 2
	fi
	units=(${want_u[@]+"${want_u[@]}"}) e2es=(${want_e[@]+"${want_e[@]}"})
fi

# names[i], cmds[i] (the command, words joined by tabs), limits[i], alone[i], est[i]: the
# seconds it is expected to take (the last run's, else a guess from its size)
names=() cmds=() limits=() alone=() est=()
declare -A last=() seed=()
if [ -r "$TIMES" ]; then
	while read -r n secs; do [[ "$secs" =~ ^[0-9]+$ ]] && last[$n]=$secs; done <"$TIMES"
fi
# a fresh clone's order: tests/test-times, the seconds of a full run (committed)
if [ -r tests/test-times ]; then
	while read -r n secs; do [[ "$secs" =~ ^[0-9]+$ ]] && seed[$n]=$secs; done <tests/test-times
fi
add_file() { # NAME LIMIT ALONE GUESS CMD...
	local n=$1
	names+=("$n") limits+=("$2") alone+=("$3") est+=("${last[$n]:-${seed[$n]:-$4}}")
	shift 4
	local IFS=$'\t'
	cmds+=("$*")
}
for t in ${units[@]+"${units[@]}"}; do
	add_file "$(basename "$t")" "${UPROF_TEST_TIMEOUT:-300}" "" 1 "$t"
done
for sc in ${e2es[@]+"${e2es[@]}"}; do
	a=$(grep -m1 -E '^# run-alone:' "$sc")
	add_file "$(basename "$sc")" "${UPROF_TEST_TIMEOUT:-900}" "${a:+1}" $(($(stat -c %s "$sc") / 300 + 2)) bash "$sc"
done
# the order: run-alone files, then the rest, each part longest first (ties: as listed)
order=()
while read -r _ _ i; do order+=("$i"); done < <(
	for i in "${!names[@]}"; do
		echo "${alone[$i]:-0} ${est[$i]} $i"
	done | sort -s -k1,1nr -k2,2nr)

# start INDEX: the file's runner in the background
start() {
	local i=$1 cmd
	IFS=$'\t' read -r -a cmd <<<"${cmds[$i]}"
	if [[ "${names[$i]}" == *.sh ]]; then
		run_one "$i" "${names[$i]}" "${limits[$i]}" "${cmd[@]}" &
	else
		CMOCKA_MESSAGE_OUTPUT=TAP run_one "$i" "${names[$i]}" "${limits[$i]}" "${cmd[@]}" &
	fi
	running[$!]=$i
}
# reap: print and count each file that ended, once
declare -A took=()
alone_now= # the index of the run-alone file running, if one is
reap() {
	local pid i p f s secs to
	for pid in "${!running[@]}"; do
		i=${running[$pid]}
		if [ ! -e "$work/$i.res" ]; then
			kill -0 "$pid" 2>/dev/null && continue
			# its runner ended without a result (killed): counted as a failure
			wait "$pid" 2>/dev/null
			[ -e "$work/$i.res" ] || {
				echo "== ${names[$i]}: 0 passed, 1 failed (its runner ended without a result)" >"$work/$i.block"
				echo "0 1 0 0" >"$work/$i.res"
			}
		fi
		wait "$pid" 2>/dev/null
		unset "running[$pid]"
		read -r p f s secs to <"$work/$i.res"
		cat "$work/$i.block"
		pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
		[ "$f" -ne 0 ] && failed_names+=("${names[$i]}${to:+ $to}")
		took[${names[$i]}]=$secs
		[ "$i" = "$alone_now" ] && alone_now=
	done
}
for i in "${order[@]}"; do
	# a run-alone file waits for everything before it to end, and holds every slot
	while [ ${#running[@]} -gt 0 ] && { [ ${#running[@]} -ge "$JOBS" ] || [ -n "${alone[$i]}" ] ||
		[ -n "$alone_now" ]; }; do
		wait -n
		reap
	done
	start "$i"
	[ -n "${alone[$i]}" ] && alone_now=$i
done
while [ ${#running[@]} -gt 0 ]; do
	wait -n
	reap
done

# this run's seconds per file, for the next run's order (files not run keep theirs)
for n in "${!last[@]}"; do [ -n "${took[$n]:-}" ] || took[$n]=${last[$n]}; done
if [ -d "$BUILD" ]; then
	for n in "${!took[@]}"; do echo "$n ${took[$n]}"; done | sort >"$work/times" &&
		mv "$work/times" "$TIMES" 2>/dev/null
fi
[ ${#failed_names[@]} -gt 0 ] && echo "failed: ${failed_names[*]}"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
