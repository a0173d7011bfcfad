#!/usr/bin/env bash
# uprof translate (issue 16): it unwinds a session's dwarf stacks once into translated.bin
# (0600, no CSV); report then writes the same report.csv byte for byte with and without it,
# for a dwarf and an fp session; a touched module or a replaced samples.data makes it stale,
# a corrupt, cut, foreign-version, FIFO or linked file is not used: each time one line on
# stderr says why, the report is still the same; --retranslate; bad input is one line.
# (bench/translate.sh measures how much faster the report is.)
. "$(dirname "$0")/lib/common.sh"

mkdir -p "$SCRATCH/bin"
cp "$TGT/stl_map" "$SCRATCH/bin/stl_map" # the session's own copy: touched below
timeout 120 "$UPROF" collect --call-graph dwarf -o "$SCRATCH/d" "$SCRATCH/bin/stl_map" 20 \
	>/dev/null 2>"$SCRATCH/d.err"
D=$(session_in "$SCRATCH/d")
check "dwarf session collected" [ -s "$D/samples.data" ]
timeout 120 "$UPROF" collect --call-graph fp -o "$SCRATCH/f" "$TGT/callgraph_fp" \
	>/dev/null 2>"$SCRATCH/f.err"
F=$(session_in "$SCRATCH/f")
check "fp session collected" [ -s "$F/samples.data" ]

# rep SESSION NAME: report.csv into $SCRATCH/NAME.csv, stderr into $SCRATCH/NAME.err
rep() {
	timeout 120 "$UPROF" report -i "$1" --cutoff 0 --detail -q "${@:3}" >/dev/null \
		2>"$SCRATCH/$2.err"
	local rc=$?
	cp "$1/report.csv" "$SCRATCH/$2.csv" 2>/dev/null
	return $rc
}
# same NAME BASE WHY: the report NAME equals BASE byte for byte (but the Report Command
# line, with an option added), and its stderr says WHY about translated.bin in exactly
# one line (WHY empty: says nothing of it)
same() {
	local name=$1 base=$2 why=$3 n
	n=$(grep -c 'translated.bin' "$SCRATCH/$name.err")
	if grep -q '^Report Command:.*--retranslate' "$SCRATCH/$name.csv"; then
		check "$name: report.csv identical to $base's (but the Report Command)" \
			cmp -s <(grep -v '^Report Command:' "$SCRATCH/$name.csv") \
			<(grep -v '^Report Command:' "$SCRATCH/$base.csv")
	else
		check "$name: report.csv identical to $base's" cmp -s "$SCRATCH/$name.csv" "$SCRATCH/$base.csv"
	fi
	if [ -z "$why" ]; then
		check "$name: nothing said of translated.bin ($n lines)" [ "$n" -eq 0 ]
	else
		check "$name: one line says '$why' ($n lines: $(grep translated.bin "$SCRATCH/$name.err"))" \
			bash -c "[ $n -eq 1 ] && grep -q -- '$why' '$SCRATCH/$name.err'"
	fi
}
trn() { # trn SESSION [OPTIONS]: translate, stdout into $SCRATCH/tr.out
	timeout 120 "$UPROF" translate -q -i "$@" >"$SCRATCH/tr.out" 2>"$SCRATCH/tr.err"
}

for kind in dwarf fp; do
	S=$D && [ $kind = fp ] && S=$F
	rep "$S" $kind.base
	check "$kind: report without translated.bin exits 0" [ $? -eq 0 ]
	rm -f "$S/report.csv"
	find "$S" -name '*.csv' | sort >"$SCRATCH/csv.before"
	trn "$S"
	check "$kind: translate exits 0, quietly on stderr" bash -c "[ $? -eq 0 ] && [ ! -s '$SCRATCH/tr.err' ]"
	check "$kind: translate names its file" grep -qx "Generated translated file: $S/translated.bin" "$SCRATCH/tr.out"
	check "$kind: translate writes no CSV" bash -c "find '$S' -name '*.csv' | sort | cmp -s - '$SCRATCH/csv.before'"
	check "$kind: translated.bin is 0600" [ "$(stat -c %a "$S/translated.bin")" = 600 ]
	rep "$S" $kind.cached
	same $kind.cached $kind.base ""
done
check "fp: no stacks to unwind, and said so" grep -q "^Translation completed: 0 stacks unwound (no --call-graph dwarf" "$SCRATCH/tr.out"
trn "$D" --retranslate
n=$(sed -n 's/^Translation completed: \([0-9]*\) stacks unwound$/\1/p' "$SCRATCH/tr.out")
check "dwarf: translate unwound stacks (${n:-none})" [ "${n:-0}" -gt 50 ]
trn "$D"
check "dwarf: a second translate has nothing to do" grep -q "translated.bin is up to date ($n stacks): nothing to do" "$SCRATCH/tr.out"

# stale: samples.data touched, the module file touched, samples.data replaced
touch "$D/samples.data"
rep "$D" stale.data
same stale.data dwarf.base "translated.bin is stale (samples.data changed): unwinding again"
trn "$D"
touch "$SCRATCH/bin/stl_map"
rep "$D" stale.module
same stale.module dwarf.base "translated.bin is stale ($SCRATCH/bin/stl_map changed): unwinding again"
trn "$D"
rep "$D" fresh
same fresh dwarf.base ""
cp "$D/samples.data" "$SCRATCH/samples.keep"
head -c $(($(stat -c %s "$D/samples.data") - 4096)) "$SCRATCH/samples.keep" >"$D/samples.data"
rep "$D" replaced
mv "$D/translated.bin" "$SCRATCH/tr.keep"
rep "$D" replaced.base
mv "$SCRATCH/tr.keep" "$D/translated.bin"
same replaced replaced.base "translated.bin is stale (samples.data changed)"
cp "$SCRATCH/samples.keep" "$D/samples.data"
trn "$D" --retranslate

# damaged files: each one note, the normal path, the same CSV
cp "$D/translated.bin" "$SCRATCH/good.bin"
"$PYTHON" -c "import sys; b=bytearray(open(sys.argv[1],'rb').read()); b[len(b)//2]^=1; open(sys.argv[1],'wb').write(b)" "$D/translated.bin"
rep "$D" corrupt
same corrupt dwarf.base "translated.bin is unusable (checksum mismatch"
head -c $(($(stat -c %s "$SCRATCH/good.bin") / 3)) "$SCRATCH/good.bin" >"$D/translated.bin"
rep "$D" cut
same cut dwarf.base "translated.bin is unusable (cut short"
cp "$SCRATCH/good.bin" "$D/translated.bin"
printf '\x02' | dd of="$D/translated.bin" bs=1 seek=8 conv=notrunc status=none
rep "$D" foreign
same foreign dwarf.base "translated.bin is unusable (is version 2; this uprof reads version 1)"
rm "$D/translated.bin"
mkfifo "$D/translated.bin"
rep "$D" fifo
same fifo dwarf.base "translated.bin is unusable (is a FIFO"
rm "$D/translated.bin"
cp "$SCRATCH/good.bin" "$SCRATCH/elsewhere.bin"
ln -s "$SCRATCH/elsewhere.bin" "$D/translated.bin"
rep "$D" link
same link dwarf.base "translated.bin is unusable (a symbolic link"
rep "$D" retr --retranslate
same retr dwarf.base ""
check "report --retranslate replaced the link with a file of its own, 0600" \
	bash -c "[ -f '$D/translated.bin' ] && [ ! -L '$D/translated.bin' ] && [ \$(stat -c %a '$D/translated.bin') = 600 ]"
check "... and left the link's target alone" cmp -s "$SCRATCH/elsewhere.bin" "$SCRATCH/good.bin"
rep "$D" after
same after dwarf.base ""

# options and bad input
trn "$D" --category cpu --retranslate
check "translate --category cpu is taken" [ $? -eq 0 ]
expect_fail 2 "translate --category mpi is refused with its reason" "^uprof translate: --category mpi: only 'cpu'" \
	"$UPROF" translate -i "$D" --category mpi
expect_fail 2 "translate --vmlinux-path is refused with its reason" "^uprof translate: --vmlinux-path x: not used" \
	"$UPROF" translate -i "$D" --vmlinux-path x
expect_fail 2 "translate --inline is refused with its reason" "^uprof translate: --inline: translate keeps every sample's address" \
	"$UPROF" translate -i "$D" --inline
expect_fail 2 "translate --host of a single session is refused" "^uprof translate: --host selects ranks of an MPI job" \
	"$UPROF" translate -i "$D" --host all
# an MPI job directory: each rank's session; --host picks ranks
J=$SCRATCH/uprof-stl_map-HPC_MPI_42
mkdir -p "$J" && chmod 700 "$J"
cp -a "$D" "$J/rank-0" && cp -a "$F" "$J/rank-1" && rm -f "$J"/rank-*/translated.bin
printf '[job]\nformat_version = 1\nid = 42\napp = stl_map\nranks = 2\n[rank.0]\nsession = rank-0\nhost = h0\npid = 1\n[rank.1]\nsession = rank-1\nhost = h1\npid = 2\n' >"$J/job.ini"
chmod 600 "$J/job.ini"
trn "$J" --host h1
check "job --host h1: rank 1 only" bash -c "[ $? -eq 0 ] && grep -qx 'rank 1 (h1):' '$SCRATCH/tr.out' && ! grep -q 'rank 0' '$SCRATCH/tr.out' && [ -f '$J/rank-1/translated.bin' ] && [ ! -e '$J/rank-0/translated.bin' ]"
trn "$J"
check "job: every rank translated (rank 1 up to date)" bash -c "[ $? -eq 0 ] && [ -f '$J/rank-0/translated.bin' ] && grep -q 'up to date' '$SCRATCH/tr.out'"
timeout 120 "$UPROF" report -i "$J" -q >/dev/null 2>"$SCRATCH/job.err"
check "job: report of the job uses the ranks' files (exit $?, nothing said of them)" \
	bash -c "[ $? -eq 0 ] && ! grep -q translated.bin '$SCRATCH/job.err'"
expect_fail 1 "job --host of no rank's host" "^uprof translate: --host nohost: no rank of the job ran on that host" \
	"$UPROF" translate -i "$J" --host nohost
expect_fail 1 "translate of a missing directory" "^uprof translate: '/nonexistent' is not a directory" \
	"$UPROF" translate -i /nonexistent
mkdir -p "$SCRATCH/empty"
expect_fail 1 "translate of a directory that is no session" "^uprof translate: .* is not a uprof session" \
	"$UPROF" translate -i "$SCRATCH/empty"
expect_fail 2 "translate without a session" "no session given" "$UPROF" translate
expect_fail 2 "translate with an unknown option" "unknown option '--nope'" "$UPROF" translate -i "$D" --nope
echo "1..$_n"
