#!/usr/bin/env bash
# Every fuzz target builds and runs its committed seed corpus clean (no crash, no leak, no
# undefined behaviour). `make fuzz` is not part of the usual build, so without this a
# target stops linking (fuzz_taskmatch once lost lib/report/strmap.c) or a seed that
# crashes goes unnoticed until someone starts a campaign. `make check` builds the targets
# when clang is there; this runs each over a copy of its corpus (-runs=0: the seeds only).
. "$(dirname "$0")/lib/common.sh"

echo "# fuzz_corpus: each fuzz target over its seed corpus"
# target -> corpus directory (fuzz/README.md's table)
corpus_of() {
	case $1 in
	fuzz_taskmatch) echo tasks_reader ;;
	*) echo "${1#fuzz_}" ;;
	esac
}
for src in fuzz/fuzz_*.c; do
	t=$(basename "$src" .c)
	bin=$BUILD/fuzz/$t
	if ! command -v "${FUZZ_CC:-clang}" >/dev/null 2>&1; then
		ok "$t # SKIP no clang: make fuzz cannot build it"
		continue
	fi
	check "$t is built by make check" [ -x "$bin" ]
	[ -x "$bin" ] || continue
	c=fuzz/corpus/$(corpus_of "$t")
	check "$t has a seed corpus ($c)" [ -n "$(ls -A "$c" 2>/dev/null)" ]
	mkdir -p "$SCRATCH/$t"
	cp -r "$c/." "$SCRATCH/$t/"
	(cd "$SCRATCH" && UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
		"$OLDPWD/$bin" -runs=0 "$SCRATCH/$t" >"$SCRATCH/$t.log" 2>&1)
	rc=$?
	check "$t runs its $(ls -A "$c" | wc -l) seeds clean (exit $rc)" [ $rc -eq 0 ]
	[ $rc -eq 0 ] || tail -n 20 "$SCRATCH/$t.log" | sed 's/^/#   /'
done
