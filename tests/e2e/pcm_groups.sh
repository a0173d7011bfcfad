#!/usr/bin/env bash
# uprof pcm's nineteen metric groups on fake Zen 3, Zen 4 and Zen 5 machines
# (tests/fixtures/sysfs*, procfs*: make-sysfs.sh [zen4|zen5]): --dry-run shows each group's
# counters for the detected or --family-named generation, or refuses it in one line naming
# the generation; exact encodings of a core and a Data Fabric event through each fixture's
# sysfs format; the groups' refusals on this machine, which has no PMU.
. "$(dirname "$0")/lib/common.sh"

FIX=$PWD/tests/fixtures
# on GEN ARGS...: uprof ARGS on GEN's fake machine
on() {
	local gen=$1; shift
	local s=sysfs p=procfs
	[ "$gen" = zen3 ] || { s=sysfs-$gen; p=procfs-$gen; }
	UPROF_SYSFS_ROOT=$FIX/$s UPROF_PROCFS_ROOT=$FIX/$p "$UPROF" "$@"
}
GROUPS19="ipc fp l1 l2 l3 memory dc swpfdc hwpfdc pipeline_util avx_imix cache_miss tlb xgmi pcie dma umc ccm_bw cxl"
# counters on one CPU (-c core=0: a core event once, an uncore one on CPU 0, the first of
# package 0 in every fixture's cpumask), or "-" for a group the generation lacks
declare -A WANT=(
	[zen3]="9 3 6 8 4 8 7 7 7 - - 6 5 4 - - - - -"
	[zen4]="9 3 6 8 4 24 7 7 7 12 7 6 5 4 8 8 8 16 -"
	[zen5]="9 3 6 8 4 24 7 7 7 12 7 6 5 6 16 16 8 32 -"
)
declare -A NAME=([zen3]="Zen 3" [zen4]="Zen 4" [zen5]="Zen 5")

for gen in zen3 zen4 zen5; do
	read -r -a want <<<"${WANT[$gen]}"
	i=0
	for g in $GROUPS19; do
		w=${want[$i]}
		i=$((i + 1))
		out=$(on $gen pcm -m $g -c core=0 --dry-run 2>"$SCRATCH/err")
		rc=$?
		if [ "$w" = - ]; then
			check_sh "$gen $g: refused, exit 2, one line naming the generation" \
				'[ $rc = 2 ] && [ -z "$out" ] && [ "$(grep -c . "$SCRATCH/err")" = 1 ] && grep -qE "^uprof pcm: -m $g is not available on (${NAME[$gen]}|any Zen): ." "$SCRATCH/err"'
		else
			check_sh "$gen $g: $w counters, the family detected, the group's header" \
				'[ $rc = 0 ] && [ "$(grep -c "^cpu=0 .* event=$g:" <<<"$out")" = "$w" ] && [ "$(grep -c "^cpu=" <<<"$out")" = "$w" ] && grep -qx "# family: ${NAME[$gen]} (detected from cpuinfo), the events it would program" <<<"$out" && grep -q "^# group $g (" <<<"$out"'
		fi
	done
done

# exact encodings: cpu format event:0-7,32-35 umask:8-15 cmask:24-31 (every fixture);
# Zen 4+ DF event:0-7,32-37 umask:8-15,24-27 (event 0x8df: 0xdf at 0, 0x8 at 32; umask
# 0x7fe: 0xfe at 8, 0x7 at 24)
attr_of() { grep -E "$1" | head -1 | sed -E 's/.* attr=//'; }
D=$(on zen4 pcm -m pipeline_util,dma -c core=0 --dry-run 2>&1)
check "zen4 pipeline_util: PMCx1A0 umask 0x01 cmask 6 = config 0x1060001a0" \
	[ "$(attr_of 'event=pipeline_util:NO_DISP_FE_ALL ' <<<"$D")" = "type=4,size=128,config=0x1060001a0,read_format=0x3" ]
check "zen4 dma: IOM 3 read beats (event 0x8df, umask 0x7fe) = config 0x80700fedf on amd_df (type 12)" \
	[ "$(attr_of 'event=dma:DMA_RD_IO3 ' <<<"$D")" = "type=12,size=128,config=0x80700fedf,read_format=0x3" ]
D=$(on zen5 pcm -m umc,memory -c core=0 --dry-run 2>&1)
check "zen5 umc: CAS writes on UMC 2 (event 0x0a, rdwrmask 2) = config 0x20a on amd_umc_2 (type 16)" \
	[ "$(attr_of 'event=umc:UMC2_WR ' <<<"$D")" = "type=16,size=128,config=0x20a,read_format=0x3" ]
check "zen5 memory: channel 11 writes (event 0x2df, umask 0xfff) = config 0x20f00ffdf" \
	[ "$(attr_of 'event=memory:WR_DRAM11 ' <<<"$D")" = "type=12,size=128,config=0x20f00ffdf,read_format=0x3" ]

# l3: Zen 3's miss-latency pair (0x90 / 0x9a); Zen 4 and 5 the sampled latency (0xac /
# 0xad) on every core and slice: threadmask 3 at config:56, sliceid 3 at 48, enallcores 47,
# enallslices 46 (the kernel's amd_l3 format, in every fixture)
D=$(on zen3 pcm -m l3 -c core=0 --dry-run 2>&1)
check "zen3 l3: miss latency event 0x90 = config 0x90 on amd_l3 (type 11)" \
	[ "$(attr_of 'event=l3:L3_MISS_LAT ' <<<"$D")" = "type=11,size=128,config=0x90,read_format=0x3" ]
for gen in zen4 zen5; do
	D=$(on $gen pcm -m l3 -c core=0 --dry-run 2>&1)
	check "$gen l3: sampled latency 0xac, every core and slice = config 0x303c00000003fac" \
		[ "$(attr_of 'event=l3:L3_MISS_LAT ' <<<"$D")" = "type=11,size=128,config=0x303c00000003fac,read_format=0x3" ]
	check "$gen l3: its requests 0xad = config 0x303c00000003fad" \
		[ "$(attr_of 'event=l3:L3_MISS_REQ ' <<<"$D")" = "type=11,size=128,config=0x303c00000003fad,read_format=0x3" ]
done

# Zen 5's Data Fabric link and core-to-fabric events (perf's amdzen5 data-fabric.json):
# xGMI link 5 out 0xe9f umask 0xf3e; CFI 8 in 0x41f umask 0x7fe (event 0x1f at 0, 0x4 at
# 32; umask 0xfe at 8, 0x7 at 24)
D=$(on zen5 pcm -m xgmi,ccm_bw -c core=0 --dry-run 2>&1)
check "zen5 xgmi: link 5 outbound (event 0xe9f, umask 0xf3e) = config 0xe0f003e9f" \
	[ "$(attr_of 'event=xgmi:XGMI_OUT_5 ' <<<"$D")" = "type=12,size=128,config=0xe0f003e9f,read_format=0x3" ]
check "zen5 ccm_bw: CFI 8 inbound (event 0x41f, umask 0x7fe) = config 0x40700fe1f" \
	[ "$(attr_of 'event=ccm_bw:CFI8_RD ' <<<"$D")" = "type=12,size=128,config=0x40700fe1f,read_format=0x3" ]

# --family: the named generation's events on any fixture, said so
D=$(on zen3 pcm -m avx_imix --family zen4 -c core=0 --dry-run 2>&1)
check_sh "--family zen4 on the Zen 3 machine: avx_imix's 7 counters, 'named by --family'" \
	'[ "$(grep -c "^cpu=" <<<"$D")" = 7 ] && grep -qx "# family: Zen 4 (named by --family), the events it would program" <<<"$D"'
D=$(on zen5 pcm -m xgmi --family zen3 -c core=0 --dry-run 2>&1)
check "--family zen3 on the Zen 5 machine: Zen 3's xGMI event 0x7c7 umask 0x02" \
	[ "$(attr_of 'event=xgmi:XGMI_OUT_0 ' <<<"$D")" = "type=12,size=128,config=0x7000002c7,read_format=0x3,disabled=1" ]

# bad values: one line, exit 2
expect_fail 2 "--family zen9" "--family 'zen9': zen3, zen4 or zen5" \
	"$UPROF" pcm -m ipc --family zen9 --dry-run
expect_fail 2 "--family without --dry-run" "--family needs --dry-run" \
	"$UPROF" pcm -m ipc --family zen4 -d 1
expect_fail 2 "-m cxl" "-m cxl is not available on any Zen: no public" \
	"$UPROF" pcm -m cxl --dry-run
expect_fail 2 "-m no_such_group" "-m no_such_group: no such metric group" \
	"$UPROF" pcm -m no_such_group --dry-run

# this machine: no core/DF/UMC PMU here, so a real run of a group refuses in one line
# naming the missing PMU, or the generation when this CPU lacks the group
for g in dc pipeline_util umc dma; do
	"$UPROF" pcm -m $g -d 1 >"$SCRATCH/out" 2>"$SCRATCH/err"
	rc=$?
	check_sh "this machine: pcm -m $g -d 1 refused in one line (exit $rc)" \
		'[ $rc != 0 ] && [ "$(grep -c . "$SCRATCH/err")" = 1 ] && grep -qE "^uprof pcm: -m .*(is not available|the .*PMU .* is not available)" "$SCRATCH/err" && [ ! -s "$SCRATCH/out" ]'
done
exit 0
