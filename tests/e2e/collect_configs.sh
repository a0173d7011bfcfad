#!/usr/bin/env bash
# uProf's collect configs ibs, memory and overview: listed; the IBS ones refused on a
# machine without IBS with one line naming the missing PMU (and nothing written); the
# overview config's timer and OS trace as its session records them.
. "$(dirname "$0")/lib/common.sh"

L=$("$UPROF" info --list collect-configs)
for c in ibs memory overview; do
	check "info --list collect-configs has $c" grep -qE "^$c +[A-Z]" <<<"$L"
done

# IBS configs: the PMU each needs first (ibs.ini: fetch, then op)
for c in ibs:ibs_fetch memory:ibs_op; do
	name=${c%%:*} pmu=${c#*:}
	if [ -e /sys/bus/event_source/devices/$pmu ]; then
		ok "--config $name refused without $pmu # SKIP this machine has $pmu"
		continue
	fi
	expect_fail 1 "--config $name without IBS: one line naming $pmu" \
		"^uprof collect: config event 'event=ibs-.*': the IBS PMU '$pmu' is not available .*'uprof info --system'$" \
		"$UPROF" collect --config "$name" -o "$SCRATCH/$name" "$TGT/demo" 10
	check "--config $name refused: no session written" [ -z "$(session_in "$SCRATCH/$name")" ]
done
check "ibs: fetch every 250000, op every 1000000 dispatched ops (cnt_ctl=1)" bash -c "grep -qx 'spec = event=ibs-fetch,interval=250000' configs/ibs.ini && grep -qx 'spec = event=ibs-op,interval=1000000,ibsop-count-control=1' configs/ibs.ini"
check "memory: op every 500000 cycles (cnt_ctl=0), op only" bash -c "[ \"\$(grep -c '^spec' configs/memory.ini)\" = 1 ] && grep -qx 'spec = event=ibs-op,interval=500000,ibsop-count-control=0' configs/memory.ini"

# overview: CPU_TIME every 1 ms and --trace os with system calls and pthread waits
"$UPROF" collect --config overview -o "$SCRATCH/ov" "$TGT/demo" 100 >/dev/null 2>"$SCRATCH/err"; rc=$?
S=$(session_in "$SCRATCH/ov")
if [ $rc != 0 ] && grep -q 'tracefs\|tracepoint' "$SCRATCH/err"; then
	ok "overview session # SKIP no tracefs here: $(head -c 200 "$SCRATCH/err")"
else
	check "overview: exit 0, a session" bash -c "[ $rc = 0 ] && [ -n '$S' ]"
	check "overview: config and label in session.ini" bash -c "grep -qx 'config = overview' '$S/session.ini' && grep -qx 'label = Overview' '$S/session.ini'"
	check "overview: CPU_TIME every 1 ms (period 1000000 ns)" bash -c "sed -n '/^\[event.0\]/,/^\[/p' '$S/session.ini' | grep -qx 'name = CPU_TIME' && sed -n '/^\[event.0\]/,/^\[/p' '$S/session.ini' | grep -qx 'period = 1000000'"
	check "overview: OS trace of system calls and pthread waits (events 3), threshold 1000 ns" bash -c "grep -qx 'threshold_ns: 1000' '$S/tracepoints.format' && grep -qx 'events: 3' '$S/tracepoints.format'"
fi
exit 0
