#!/usr/bin/env bash
# Issue 11 item 9: moved binaries and debug files. A profiled binary that moved is named
# again from the build-id cache collect filled (perf's ~/.debug layout: perf names it from
# there too, from uprof's own samples.data) or with --bin-path (only a file of the
# recorded build id); a stripped binary gets its names from a debug file under
# --symbol-path, or from a debuginfod server on loopback that alone holds it.
. "$(dirname "$0")/lib/common.sh"

echo "# symbol_paths: moved binaries, build-id cache, --bin-path, --symbol-path, debuginfod"
CACHE=$PERF_BUILDID_DIR # common.sh: the scratch dir's
unset DEBUGINFOD_URLS # only the server of this test, never the network
# the program (tests/targets/symbol_hot.c, built by make), a copy of it per use: this script
# moves and strips them
mkdir -p "$SCRATCH/bin"
cp "$TGT/symbol_hot" "$SCRATCH/bin/hot"
check "the test program is there" [ -x "$SCRATCH/bin/hot" ]
BID=$(readelf -n "$SCRATCH/bin/hot" | awk '/Build ID/ {print $3}')
N=20000000
top() { csvq "$1/report.csv" FUNCTIONS | head -1 | cut -f1; }

# --- collect fills the cache: <cache>/<path>/<build id>/elf, 0600 in 0700 directories,
# linked from .build-id/xx/rest as perf links it
"$UPROF" collect -o "$SCRATCH/o1" "$SCRATCH/bin/hot" $N >/dev/null 2>"$SCRATCH/err"
check "collect exits 0 and says nothing of the cache" bash -c "! grep -q 'build-id' '$SCRATCH/err'"
S=$(session_in "$SCRATCH/o1")
ENTRY=$CACHE$SCRATCH/bin/hot/$BID
check "the binary is in the cache ($ENTRY/elf)" cmp -s "$SCRATCH/bin/hot" "$ENTRY/elf"
check "the copy is 0600, its directories 0700" \
	[ "$(stat -c %a "$ENTRY/elf" "$ENTRY" "$CACHE" | tr '\n' ' ')" = "600 700 700 " ]
check "the build-id link is perf's (.build-id/${BID:0:2}/${BID:2} -> ../..$SCRATCH/bin/hot/$BID)" \
	[ "$(readlink "$CACHE/.build-id/${BID:0:2}/${BID:2}")" = "../..$SCRATCH/bin/hot/$BID" ]
libc=$(ldd "$SCRATCH/bin/hot" | awk '/libc.so/ {print $3}')
check "the libraries it mapped are cached too ($libc)" \
	bash -c "ls -d '$CACHE$(readlink -f "$libc")'/*/elf >/dev/null 2>&1 || ls -d '$CACHE$libc'/*/elf >/dev/null 2>&1"

# --- the binary moves: named from the cache, said as such; without the cache not named
mkdir -p "$SCRATCH/moved" && mv "$SCRATCH/bin/hot" "$SCRATCH/moved/hot"
PERF_BUILDID_DIR=$SCRATCH/none "$UPROF" report -i "$S" >/dev/null 2>"$SCRATCH/err"
check "moved, no cache: unnamed ($(top "$S"))" grep -q '^hot!0x' <<<"$(top "$S")"
check "moved, no cache: the warning says it is gone" grep -q "gone since collection.*$SCRATCH/bin/hot" "$SCRATCH/err"
"$UPROF" report -i "$S" >/dev/null 2>"$SCRATCH/err"
check "moved: named from the build-id cache ($(top "$S"))" [ "$(top "$S")" = spin_hot ]
check "moved: the note says where it was read from" \
	grep -q "^note: 1 profiled file gone or replaced since collection was read from the build-id cache: $SCRATCH/bin/hot$" "$SCRATCH/err"
check "moved: no warning" bash -c "! grep -q '^warning' '$SCRATCH/err'"
check "moved: the module keeps its recorded path" \
	[ "$(csvq "$S/report.csv" FUNCTIONS | head -1 | cut -f3)" = "$SCRATCH/bin/hot" ]
if perf version >/dev/null 2>&1; then
	# perf reads ~/.debug only (its buildid.dir), so it gets a home holding the cache
	mkdir -p "$SCRATCH/home" && cp -a "$CACHE" "$SCRATCH/home/.debug"
	HOME=$SCRATCH/home perf report -i "$S/samples.data" --stdio --sort sym 2>/dev/null |
		grep -v '^#' | grep . | head -1 >"$SCRATCH/perf1"
	check "perf names it from the same cache: $(cat "$SCRATCH/perf1")" grep -q 'spin_hot' "$SCRATCH/perf1"
else
	ok "# SKIP no perf to compare with"
fi

# --- --bin-path: found by name, taken by its build id
PERF_BUILDID_DIR=$SCRATCH/none "$UPROF" report -i "$S" --bin-path "$SCRATCH/moved" >/dev/null 2>"$SCRATCH/err"
check "--bin-path: named ($(top "$S"))" [ "$(top "$S")" = spin_hot ]
check "--bin-path: the note says so" grep -q "^note: 1 profiled file .* found under --bin-path: $SCRATCH/bin/hot$" "$SCRATCH/err"
mkdir -p "$SCRATCH/rebuilt"
cp "$TGT/symbol_hot_rebuilt" "$SCRATCH/rebuilt/hot" # another step in spin_hot: another build id
PERF_BUILDID_DIR=$SCRATCH/none "$UPROF" report -i "$S" --bin-path "$SCRATCH/rebuilt" >/dev/null 2>&1
check "--bin-path: a rebuilt file of the name (another build id) is not taken ($(top "$S"))" \
	grep -q '^hot!0x' <<<"$(top "$S")"
PERF_BUILDID_DIR=$SCRATCH/none "$UPROF" report -i "$S" --bin-path "$SCRATCH/rebuilt" \
	--bin-path "$SCRATCH/moved" >/dev/null 2>&1
check "--bin-path twice: the second directory holds it ($(top "$S"))" [ "$(top "$S")" = spin_hot ]
expect_fail 2 "--bin-path of no directory is refused" "bin-path.*not a directory" \
	"$UPROF" report -i "$S" --bin-path "$SCRATCH/nowhere"

# --- --no-buildid-cache leaves the cache alone
PERF_BUILDID_DIR=$SCRATCH/nocache "$UPROF" collect --no-buildid-cache -o "$SCRATCH/o2" \
	"$SCRATCH/moved/hot" 1000 >/dev/null 2>&1
check "--no-buildid-cache: no cache made" [ ! -e "$SCRATCH/nocache" ]

# --- a stripped binary: names from a debug file under --symbol-path
mkdir -p "$SCRATCH/st" "$SCRATCH/dbg"
cp "$TGT/symbol_hot" "$SCRATCH/st/hot"
objcopy --only-keep-debug "$SCRATCH/st/hot" "$SCRATCH/dbg/hot.debug"
strip -s "$SCRATCH/st/hot"
SBID=$(readelf -n "$SCRATCH/st/hot" | awk '/Build ID/ {print $3}')
"$UPROF" collect --no-buildid-cache -o "$SCRATCH/o3" "$SCRATCH/st/hot" $N >/dev/null 2>&1
S3=$(session_in "$SCRATCH/o3")
"$UPROF" report -i "$S3" >/dev/null 2>&1
check "stripped: unnamed without its debug file ($(top "$S3"))" grep -q '^hot!0x' <<<"$(top "$S3")"
"$UPROF" report -i "$S3" --symbol-path "$SCRATCH/dbg" >/dev/null 2>&1
check "stripped + --symbol-path: named ($(top "$S3"))" [ "$(top "$S3")" = spin_hot ]
check "stripped + --symbol-path: spin_cold too" grep -qx spin_cold <(csvq "$S3/report.csv" FUNCTIONS | cut -f1)
mkdir -p "$SCRATCH/dbg2/.build-id/${SBID:0:2}"
cp "$SCRATCH/dbg/hot.debug" "$SCRATCH/dbg2/.build-id/${SBID:0:2}/${SBID:2}.debug"
"$UPROF" report -i "$S3" --symbol-path "$SCRATCH/dbg2" >/dev/null 2>&1
check "stripped + --symbol-path in the .build-id layout: named ($(top "$S3"))" [ "$(top "$S3")" = spin_hot ]
objcopy --only-keep-debug "$SCRATCH/rebuilt/hot" "$SCRATCH/dbg3.debug"
mkdir -p "$SCRATCH/dbg3" && mv "$SCRATCH/dbg3.debug" "$SCRATCH/dbg3/hot.debug"
"$UPROF" report -i "$S3" --symbol-path "$SCRATCH/dbg3" >/dev/null 2>&1
check "stripped + the debug file of another build: not taken ($(top "$S3"))" grep -q '^hot!0x' <<<"$(top "$S3")"

# --- debuginfod: the debug file only on a local server (loopback), through libdw
if ! command -v debuginfod >/dev/null 2>&1; then
	ok "# SKIP no debuginfod (Debian package debuginfod; scripts/install-deps.sh)"
else
	mkdir -p "$SCRATCH/srv" "$SCRATCH/dcache"
	cp "$SCRATCH/dbg/hot.debug" "$SCRATCH/srv/"
	started=
	for try in 1 2 3 4 5; do
		PORT=$((20000 + RANDOM % 20000))
		debuginfod -d "$SCRATCH/srv.sqlite" -p $PORT -F "$SCRATCH/srv" -t 1 \
			>"$SCRATCH/srv.log" 2>&1 &
		SRV=$!
		trap 'kill $SRV 2>/dev/null; wait $SRV 2>/dev/null; rm -rf "$SCRATCH"' EXIT
		for i in $(seq 1 100); do # until it has scanned the directory (it says so)
			curl -sf -o /dev/null "http://127.0.0.1:$PORT/buildid/$SBID/debuginfo" && { started=1; break; }
			kill -0 $SRV 2>/dev/null || break
			sleep 0.1
		done
		[ -n "$started" ] && break
		kill $SRV 2>/dev/null; wait $SRV 2>/dev/null
	done
	if [ -z "$started" ]; then
		ok "# SKIP debuginfod did not start or serve: $(tail -2 "$SCRATCH/srv.log" | tr '\n' ' ')"
	else
		DEBUGINFOD_URLS=http://127.0.0.1:$PORT DEBUGINFOD_CACHE_PATH=$SCRATCH/dcache \
			"$UPROF" report -i "$S3" >/dev/null 2>&1
		check "stripped + debuginfod: named ($(top "$S3"))" [ "$(top "$S3")" = spin_hot ]
		check "stripped + debuginfod: the debug file came from the server" \
			cmp -s "$SCRATCH/dbg/hot.debug" "$SCRATCH/dcache/$SBID/debuginfo"
		DEBUGINFOD_URLS= "$UPROF" report -i "$S3" >/dev/null 2>&1
		check "stripped, DEBUGINFOD_URLS empty: not named ($(top "$S3"))" grep -q '^hot!0x' <<<"$(top "$S3")"
		kill $SRV 2>/dev/null; wait $SRV 2>/dev/null
	fi
fi
echo "1..$_n"
