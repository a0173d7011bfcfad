# SPDX-License-Identifier: MIT
# The race against another user at each file call (docs/DESIGN.md §4), for the scripts that
# source this after lib/common.sh: they set SWAP (tests/tool/swaptrace), V (the root-only
# victim directory), BEFORE=$(victim_state), CMD (the command, an array) and fresh (a
# function that puts the attacker's directory back as it was before each run).
#
# race WHAT DIR [PLANT OPTIONS...]: CMD counted under DIR, then run once for each of those
# calls K with every entry of DIR swapped for a link to V at the K-th (as uid 65534). Two
# checks: nothing appeared or changed in V, and CMD ended with a line of its own each time
# (exit 0 or 1), never a crash. After it, $failed runs exited 1 and $refused runs said
# $RACE_REFUSED_BY (a pattern, if set) on stderr.
victim_state() { (cd "$V" && find . -printf '%p %m %u %s %T@\n' | sort && cat keep) | md5sum; }

race() {
	local what=$1 dir=$2; shift 2
	local n k rc bad=0 crashed=0 first=""
	failed=0 refused=0
	fresh
	n=$("$SWAP" --count --dir "$dir" -- "${CMD[@]}" 2>&1 >/dev/null |
		sed -n 's/^swaptrace: \([0-9]*\) file calls$/\1/p' | tail -1)
	if [ -z "$n" ] || [ "$n" -lt 1 ]; then
		not_ok "$what: swaptrace counted no file calls under $dir (${n:-none})"
		return
	fi
	for k in $(seq 1 "$n"); do
		fresh
		timeout "${RACE_TIMEOUT:-60}" "$SWAP" --at "$k" --dir "$dir" --victim "$V" \
			--uid 65534 "$@" -- "${CMD[@]}" >/dev/null 2>"$SCRATCH/err"
		rc=$?
		[ "$rc" -gt 1 ] && crashed=$((crashed + 1)) &&
			first=${first:-"K=$k exit $rc: $(grep -v '^swaptrace' "$SCRATCH/err" | tail -1)"}
		[ "$rc" = 1 ] && failed=$((failed + 1))
		[ -n "${RACE_REFUSED_BY:-}" ] && grep -q -- "$RACE_REFUSED_BY" "$SCRATCH/err" &&
			refused=$((refused + 1))
		if [ "$(victim_state)" != "$BEFORE" ]; then
			bad=$((bad + 1))
			[ $bad = 1 ] && echo "# $what K=$k: $(cd "$V" && ls -la)"
		fi
	done
	check_sh "$what, swapped at each of $n calls: nothing written, made or chmodded in the victim" '[ $bad = 0 ]'
	check_sh "$what: ends with its own line every time, never a crash ($failed refused)" \
		'[ $crashed = 0 ] || { echo "# $first"; false; }'
}
