#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Proof that a refactoring changed no output: the same sessions, reported by two builds,
# give byte-identical files. Sessions are collected once (by either build) and kept, with
# copies of the target binaries they ran, so both builds read the very same input.
#
#   scripts/golden-diff.sh sessions UPROF DIR     collect the golden sessions into DIR
#   scripts/golden-diff.sh outputs UPROF DIR OUT  every output of UPROF on DIR's sessions into OUT
#   scripts/golden-diff.sh diff OLD_UPROF NEW_UPROF DIR
#                                                 both builds' outputs, then diff -r of them
#
# The outputs: report.csv with --detail -g --disasm (Function Detail Data) and every
# export (folded, flame graph, Perfetto), the terminal table (stdout), annotate's view,
# compare's CSV, the MPI job report and --group-by program; stderr is left out (it holds
# timings). uprof's own paths in the outputs are the same for both builds because the
# sessions are copied to the same place before each build reads them.
set -u
die() { echo "golden-diff.sh: $*" >&2; exit 2; }
[ $# -ge 3 ] || die "usage: $0 sessions UPROF DIR | outputs UPROF DIR OUT | diff OLD NEW DIR"

collect_sessions() {
	local uprof=$1 dir=$2 tgt=${BUILD:-build}/targets
	mkdir -p "$dir/bin" "$dir/s" || die "cannot make $dir"
	# the binaries run from a copy: a rebuild of tests/targets cannot change the input
	local b
	for b in demo multi exec_child libplugin.so callgraph_fp tasks annotate libannot_lib.so \
		omp_regions cxx_templ mpi_spin.openmpi mpi_spin.mpich compare_two; do
		[ -e "$tgt/$b" ] && cp -p "$tgt/$b" "$dir/bin/"
	done
	local B=$dir/bin S=$dir/s
	"$uprof" collect -o "$S/tbp" "$B/demo" 300 >/dev/null 2>&1
	"$uprof" collect -g -o "$S/fp" "$B/callgraph_fp" 1000 >/dev/null 2>&1
	"$uprof" collect --call-graph dwarf -o "$S/dwarf" "$B/multi" "$B/exec_child" "$B/libplugin.so" >/dev/null 2>&1
	"$uprof" collect -g -o "$S/tasks" "$B/tasks" >/dev/null 2>&1
	"$uprof" collect -g -o "$S/annot" "$B/annotate" 0.5 >/dev/null 2>&1
	"$uprof" collect --call-graph dwarf -o "$S/cxxdwarf" "$B/cxx_templ" >/dev/null 2>&1
	"$uprof" collect -g -o "$S/cxx" "$B/cxx_templ" >/dev/null 2>&1
	KMP_BLOCKTIME=0 "$uprof" collect --trace openmp -o "$S/omp" "$B/omp_regions" balance 10 >/dev/null 2>&1
	"$uprof" collect -o "$S/demo2" "$B/demo" 200 >/dev/null 2>&1
	if command -v mpirun >/dev/null && [ -x "$B/mpi_spin.openmpi" ]; then
		timeout 300 mpirun --allow-run-as-root --oversubscribe -np 2 "$uprof" collect --mpi \
			--trace mpi -o "$S/mpi" "$B/mpi_spin.openmpi" 50 >/dev/null 2>&1
	fi
	if command -v mpirun.mpich >/dev/null && [ -x "$B/mpi_spin.mpich" ]; then
		timeout 300 mpirun.mpich -np 2 "$uprof" collect --mpi --trace mpi \
			-o "$S/mpich" "$B/mpi_spin.mpich" 50 >/dev/null 2>&1
	fi
	ls "$S"
}

# every session directory under DIR/s (the MPI ones hold a job directory)
sessions_of() { find "$1/s" -mindepth 1 -maxdepth 1 -type d | sort; }
one_dir() { find "$1" -mindepth 1 -maxdepth 1 -type d | sort | head -1; }

outputs() {
	local uprof=$1 dir=$2 final=$3 s name sd
	# one private place for both builds ($GOLDEN_TMP, made once by `diff`), so that the
	# paths the outputs name are the same; never a fixed name in a shared /tmp
	local base=${GOLDEN_TMP:-$(mktemp -d "${TMPDIR:-/tmp}/uprof-golden.XXXXXX")}
	local work=$base/work out=$base/out
	rm -rf "$work" "$out" && mkdir -p "$work" "$out" || die "cannot make $base"
	for s in $(sessions_of "$dir"); do
		name=$(basename "$s")
		# the same path for both builds: the copy is made afresh at one place each time
		rm -rf "$work/$name" && cp -a "$s" "$work/$name"
		sd=$(one_dir "$work/$name")
		mkdir -p "$out/$name"
		case $name in
		mpi | mpich)
			"$uprof" report -i "$sd" --report-output "$out/$name/job.csv" \
				>"$out/$name/stdout.txt" 2>/dev/null
			echo "exit $?" >>"$out/$name/stdout.txt"
			local r
			for r in $(find "$sd" -mindepth 1 -maxdepth 1 -type d -name 'rank-*' | sort); do
				"$uprof" report -i "$r" --detail -g --report-output \
					"$out/$name/$(basename "$r").csv" >>"$out/$name/stdout.txt" 2>/dev/null
			done
			continue
			;;
		esac
		"$uprof" report -i "$sd" --detail -g --disasm --cutoff 0 --export all \
			--export-dir "$out/$name" --report-output "$out/$name/report.csv" \
			>"$out/$name/stdout.txt" 2>/dev/null
		echo "exit $?" >>"$out/$name/stdout.txt"
		"$uprof" report -i "$sd" --group-by program --detail \
			--report-output "$out/$name/program.csv" >/dev/null 2>&1
		"$uprof" report -i "$sd" --group-by thread --detail \
			--report-output "$out/$name/thread.csv" >/dev/null 2>&1
		"$uprof" annotate -i "$sd" --cutoff 3 --show-event-count \
			>"$out/$name/annotate.txt" 2>/dev/null
		echo "exit $?" >>"$out/$name/annotate.txt"
	done
	if [ -d "$work/tbp" ] && [ -d "$work/demo2" ]; then
		"$uprof" compare -o "$out/compare.csv" "$(one_dir "$work/tbp")" \
			"$(one_dir "$work/demo2")" >"$out/compare.txt" 2>/dev/null
	fi
	mkdir -p "$final" && cp -a "$out/." "$final/" || die "cannot write $final"
	rm -rf "$work" "$out"
	[ -n "${GOLDEN_TMP:-}" ] || rmdir "$base"
}

case $1 in
sessions) collect_sessions "$2" "$3" ;;
outputs) [ $# -eq 4 ] || die "usage: $0 outputs UPROF DIR OUT"; outputs "$2" "$3" "$4" ;;
diff)
	[ $# -eq 4 ] || die "usage: $0 diff OLD_UPROF NEW_UPROF DIR"
	T=${TMPDIR:-/tmp}
	o=$(mktemp -d "$T/golden-old.XXXXXX") n=$(mktemp -d "$T/golden-new.XXXXXX")
	GOLDEN_TMP=$(mktemp -d "$T/uprof-golden.XXXXXX") || die "mktemp"
	export GOLDEN_TMP
	outputs "$2" "$4" "$o"
	outputs "$3" "$4" "$n"
	echo "files compared: $(find "$o" -type f | wc -l) ($(du -sh "$o" | cut -f1))"
	if diff -r "$o" "$n"; then
		echo "golden-diff: byte-identical"
		rm -rf "$o" "$n" "$GOLDEN_TMP"
	else
		echo "golden-diff: outputs differ ($o vs $n)"
		exit 1
	fi
	;;
*) die "unknown step $1" ;;
esac
