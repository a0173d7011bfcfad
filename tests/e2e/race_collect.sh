#!/usr/bin/env bash
# collect run by root with -o in a directory another user can write (issue 27, the
# directory-fd rule of docs/DESIGN.md §4), with that user (uid 65534) swapping the directory
# at every step: swaptrace (tests/tool/swaptrace.c) stops collect at its K-th file call
# that names something in D, renames every entry of D to NAME.moved and puts a symlink
# NAME -> V in its place (V: a root-only directory holding a setuid-mode file), plants
# symlinks at the session names collect will try, then lets the call run. For K = 1 .. N
# (N counted by swaptrace --count) and a few past the end, with -o D and with -o D/out:
#  - nothing new in V, V and the setuid file keep their mode and owner;
#  - collect completed into the directory it made (renamed now, found without following a
#    symlink) or refused with exactly one error line.
# Then an strace of collect: none of collect's own calls names a path inside its session
# (only single names beneath the -o directory's fd and the session's fd; the profiled
# program's loader and exec are another process and are left out).
. "$(dirname "$0")/lib/common.sh"

if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
	ok "# SKIP the race needs root and setpriv (an unprivileged attacker user)"
	exit 0
fi
SWAP=$TGT/swaptrace
if [ ! -x "$SWAP" ]; then
	not_ok "no $SWAP: make builds it (tests/targets/module.mk)"
	exit 0
fi
if ! "$SWAP" --count -- /bin/true 2>/dev/null; then
	ok "# SKIP ptrace is not allowed here (seccomp or yama): swaptrace cannot run"
	exit 0
fi
echo "# race_collect: another user swaps -o's entries at each of collect's file calls"

# the attacker must reach D: the scratch dir is ours, 0700 by mktemp
chmod 711 "$SCRATCH"
V=$SCRATCH/victim
mkdir "$V" && chmod 0750 "$V" && : >"$V/suid" && chmod 4755 "$V/suid"
victim_state() { stat -c '%a %u %g %s' "$V" "$V/suid"; ls -A "$V"; }
V0=$(victim_state)
D=$SCRATCH/D
mkdir "$D" && chown 65534:65534 "$D" && chmod 0777 "$D"

# The session names collect tries this second and the next few: planted as symlinks to V
# when the swap comes (mkdirat then finds them taken and goes on to the next suffix).
plants() {
	local t i
	t=$(date +%s)
	for i in 0 1 2 3; do
		echo "--plant"
		echo "uprof-true-TBP_$(LC_ALL=C date -d "@$((t + i))" +%b-%d-%Y_%H-%M-%S)"
	done
}

# one_run K OUT: collect -o OUT under swaptrace --at K; then the facts
bad_victim=()
bad_result=()
completed=0
refused=0
one_run() {
	local k=$1 out=$2 rc errs sessions
	find "$D" -mindepth 1 -delete
	mapfile -t P < <(plants)
	"$SWAP" --at "$k" --dir "$D" --victim "$V" --uid 65534 "${P[@]}" --plant out -- \
		"$UPROF" collect --no-buildid-cache -o "$out" /bin/true \
		>"$SCRATCH/out" 2>"$SCRATCH/err"
	rc=$?
	if [ "$(victim_state)" != "$V0" ]; then
		bad_victim+=("K=$k -o ${out#"$SCRATCH"/}: $(victim_state | tr '\n' ' ')")
		rm -rf "${V:?}"/* && mkdir -p "$V" && chmod 0750 "$V" && : >"$V/suid" &&
			chmod 4755 "$V/suid"
	fi
	# sessions collect completed: found with no symlink followed (find -P)
	sessions=$(find -P "$D" -name session.ini -type f -exec grep -l '^status = complete$' {} + |
		wc -l)
	errs=$(grep '^uprof collect: ' "$SCRATCH/err" | grep -vc '^uprof collect: warning: ')
	if [ "$rc" -eq 0 ] && [ "$sessions" -eq 1 ] && [ "$errs" -eq 0 ]; then
		completed=$((completed + 1))
	elif [ "$rc" -ne 0 ] && [ "$sessions" -eq 0 ] && [ "$errs" -eq 1 ]; then
		refused=$((refused + 1))
		echo "# K=$k -o ${out#"$SCRATCH"/}: $(grep '^uprof collect: ' "$SCRATCH/err" |
			grep -v ': warning: ')"
	else
		bad_result+=("K=$k -o ${out#"$SCRATCH"/}: exit $rc, $sessions sessions, $errs error lines: $(grep -v '^swaptrace' "$SCRATCH/err" | tr '\n' ' ' | head -c 300)")
	fi
}

for out in "$D" "$D/out"; do
	name=${out#"$SCRATCH"/}
	find "$D" -mindepth 1 -delete
	N=$("$SWAP" --count --dir "$D" -- "$UPROF" collect --no-buildid-cache -o "$out" /bin/true \
		2>&1 >/dev/null | sed -n 's/^swaptrace: \([0-9]*\) file calls$/\1/p')
	echo "# -o $name: N = ${N:-?} file calls of collect name something in D"
	if [ -z "$N" ] || [ "$N" -lt 3 ]; then
		not_ok "-o $name: swaptrace counted collect's file calls in D (got '${N:-}')"
		continue
	fi
	bad_victim=()
	bad_result=()
	completed=0
	refused=0
	for k in $(seq 1 $((N + 3))); do
		one_run "$k" "$out"
	done
	check_sh "-o $name, swapped at each of K = 1..$((N + 3)): V and its setuid file untouched" \
		'[ ${#bad_victim[@]} -eq 0 ] || { printf "# %s\n" "${bad_victim[@]}"; false; }'
	check_sh "-o $name: every run completed into its own directory or refused with one line ($completed completed, $refused refused)" \
		'[ ${#bad_result[@]} -eq 0 ] || { printf "# %s\n" "${bad_result[@]}"; false; }'
	# the swaps past the end of collect's calls change nothing it does: it completed
	check "-o $name: K past collect's last call: completed" [ "$completed" -ge 3 ]
done

# ---- strace: collect names nothing inside its session by path ----
if ! command -v strace >/dev/null; then
	ok "# SKIP no strace (scripts/install-deps.sh installs it)"
	exit 0
fi
find "$D" -mindepth 1 -delete
strace -f -qq -e trace=%file,openat2,clone,clone3,fork,vfork -o "$SCRATCH/trace" \
	"$UPROF" collect --no-buildid-cache -o "$D" /bin/true >/dev/null 2>"$SCRATCH/err"
rc=$?
S=$(session_in "$D")
check_sh "strace: collect completed (exit $rc) into a session" '[ "$rc" -eq 0 ] && [ -n "$S" ]'
# collect's own threads: its first pid and the threads it cloned (CLONE_THREAD); the
# program it starts (a process, not a thread) and that program's loader are left out
"$PYTHON" - "$SCRATCH/trace" "$(basename "$S")" >"$SCRATCH/verdict" <<'EOF'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
name = sys.argv[2]
ours = set()
named, fd_rel = [], 0
for ln in lines:
    m = re.match(r'(\d+)\s+(.*)', ln)
    if not m:
        continue
    tid, call = int(m.group(1)), m.group(2)
    if not ours:
        ours.add(tid)
    if tid not in ours:
        continue
    c = re.match(r'(clone3?)\(.*\) = (\d+)$', call)
    if c and 'CLONE_THREAD' in call:
        ours.add(int(c.group(2)))
        continue
    # a single name beneath the -o directory's fd: making and opening the session
    if re.match(r'(mkdirat|openat|openat2)\(\d+, "%s"' % re.escape(name), call):
        continue
    if name in call:
        named.append(call)
    elif re.match(r'(openat2|renameat2?|unlinkat|mkdirat)\(\d+, "(session\.ini|samples\.data|pauses\.csv|vdso\.so)', call):
        fd_rel += 1
print(len(ours), fd_rel, len(named))
for c in named[:5]:
    print(c)
EOF
read -r nthreads fdrel nnamed <"$SCRATCH/verdict"
echo "# strace: $nthreads collect threads, $fdrel session file calls by fd, $nnamed naming the session's path"
check "strace: the session's files were made by name beneath an fd ($fdrel calls)" [ "${fdrel:-0}" -ge 4 ]
check_sh "strace: no call of collect names a path inside $(basename "$S")" \
	'[ "${nnamed:-1}" -eq 0 ] || { sed -n "2,\$s/^/# /p" "$SCRATCH/verdict"; false; }'
