#!/usr/bin/env bash
# Must-show 5: bad input gets a one-line error naming the problem and a non-zero exit,
# never a crash (run this under `make check SANITIZE=1` for ASan/UBSan).
. "$(dirname "$0")/lib/common.sh"

O=$SCRATCH/o
expect_fail 1 "missing program" "not found in PATH" "$UPROF" collect -o "$O" no-such-program-xyz
expect_fail 1 "missing program path" "No such file" "$UPROF" collect -o "$O" ./no/such/prog
printf 'not a program\n' >"$SCRATCH/plain"
expect_fail 1 "non-executable file" "not executable" "$UPROF" collect -o "$O" "$SCRATCH/plain"
expect_fail 1 "a directory as program" "is a directory" "$UPROF" collect -o "$O" "$SCRATCH"
chmod +x "$SCRATCH/plain"
printf '\x7fELF garbage' >"$SCRATCH/badelf"; chmod +x "$SCRATCH/badelf"
expect_fail 1 "an executable that cannot be exec'd" "cannot exec" "$UPROF" collect -o "$O" "$SCRATCH/badelf"
printf '#!/nonexistent/bin/interp -x\necho hi\n' >"$SCRATCH/badsh"; chmod +x "$SCRATCH/badsh"
expect_fail 1 "a script whose #! interpreter is missing: named" \
	"cannot exec .*: its interpreter '/nonexistent/bin/interp' \(the #! line\) does not exist" \
	"$UPROF" collect -o "$O" "$SCRATCH/badsh"
"$PYTHON" - "$TGT/demo" "$SCRATCH/badld" <<'PY'
import sys
d = bytearray(open(sys.argv[1], "rb").read())
i = d.find(b"/lib64/ld-linux-x86-64.so.2")
d[i:i + 27] = b"/lib64/ld-nowhere-x86.so.99"
open(sys.argv[2], "wb").write(d)
PY
chmod +x "$SCRATCH/badld"
expect_fail 1 "an ELF file whose loader is missing: named" \
	"its program interpreter '/lib64/ld-nowhere-x86.so.99' does not exist" \
	"$UPROF" collect -o "$O" "$SCRATCH/badld"
check "no session is left behind by a failed start" bash -c "[ -z \"\$(ls -A '$O' 2>/dev/null)\" ]"
expect_fail 2 "unknown config" "unknown config 'nope'.*tbp" "$UPROF" collect --config nope -o "$O" /bin/true
expect_fail 1 "unwritable -o" "cannot create output directory|not writable" "$UPROF" collect -o /proc/uprof-x /bin/true
expect_fail 1 "-o is a file" "cannot create output directory|Not a directory" "$UPROF" collect -o "$SCRATCH/plain/x" /bin/true
for v in 0 -1 abc 1x "" nan inf; do
	expect_fail 2 "--timer-interval '$v'" "timer-interval" "$UPROF" collect --timer-interval "$v" -o "$O" /bin/true
done
expect_fail 2 "--timer-interval too small" "out of range" "$UPROF" collect --timer-interval 0.001 -o "$O" /bin/true
expect_fail 2 "-d text" "duration" "$UPROF" collect -d soon -o "$O" /bin/true
expect_fail 2 "-m not a power of two" "mmap-pages" "$UPROF" collect -m 3 -o "$O" /bin/true
expect_fail 1 "-w missing dir" "working directory" "$UPROF" collect -w /no/such/dir -o "$O" /bin/true
expect_fail 2 "unknown collect option" "unknown option '--frobnicate'" "$UPROF" collect --frobnicate /bin/true
expect_fail 2 "option without its value" "needs a value" "$UPROF" collect -o
expect_fail 2 "no program" "no program" "$UPROF" collect -o "$O"
expect_fail 2 "unknown command" "not a command" "$UPROF" frobnicate
# a near name is suggested, in the one line (options: from the command's table)
expect_fail 2 "a misspelt option is suggested" "unknown option '--detial' \\(did you mean --detail\\?\\)" \
	"$UPROF" report --detial /no/such/dir
expect_fail 2 "a shared option is suggested in translate" "did you mean --bin-path\\?" \
	"$UPROF" translate --bin-paht /tmp /no/such/dir
expect_fail 2 "a misspelt command is suggested" "'reprot' is not a command \\(did you mean report\\?\\)" \
	"$UPROF" reprot
expect_fail 2 "an ambiguous abbreviation names its options" \
	"option '--no' is ambiguous \\(--no-inherit, --no-buildid-cache" "$UPROF" collect --no /bin/true
expect_fail 2 "report without -i" "no session given" "$UPROF" report
expect_fail 1 "report on a missing dir" "/no/such/dir.: No such file or directory" "$UPROF" report -i /no/such/dir
expect_fail 1 "report on a non-session dir" "not a uprof session" "$UPROF" report -i "$SCRATCH"
expect_fail 2 "report --cutoff -1" "cutoff" "$UPROF" report -i "$SCRATCH" --cutoff -1
expect_fail 2 "report --group-by bad" "group-by" "$UPROF" report -i "$SCRATCH" --group-by cpu

# a real session to damage
"$UPROF" collect -o "$SCRATCH/good" "$TGT/demo" 300 >/dev/null 2>&1
G=$(session_in "$SCRATCH/good")
damage() { # name: fresh copy of the good session in $D
	D=$SCRATCH/d-$1; rm -rf "$D"; cp -r "$G" "$D"
}
damage empty-data; : >"$D/samples.data"
expect_fail 1 "empty samples.data" "samples.data.*too short" "$UPROF" report -i "$D"
damage bad-magic; printf 'XXXXXXXX' | dd of="$D/samples.data" conv=notrunc 2>/dev/null
expect_fail 1 "samples.data with a bad magic" "samples.data.*magic" "$UPROF" report -i "$D"
damage no-data; rm "$D/samples.data"
expect_fail 1 "samples.data missing" "samples.data.*No such file" "$UPROF" report -i "$D"
damage cut-header; truncate -s 10 "$D/samples.data"
expect_fail 1 "samples.data cut inside its header" "samples.data" "$UPROF" report -i "$D"
damage ini-garbage; printf 'garbage line\n' >"$D/session.ini"
expect_fail 1 "session.ini garbage" "session.ini: line 1" "$UPROF" report -i "$D"
damage ini-cut; head -c 40 "$G/session.ini" >"$D/session.ini"
expect_fail 1 "session.ini cut short" "session.ini" "$UPROF" report -i "$D"
damage ini-badnum; sed -i 's/^period = .*/period = lots/' "$D/session.ini"
expect_fail 1 "session.ini with a bad number" "session.ini: line [0-9]+: bad value for 'period'" "$UPROF" report -i "$D"
damage ini-version; sed -i 's/^format_version = .*/format_version = 99/' "$D/session.ini"
expect_fail 1 "session.ini from a future format" "format_version 99" "$UPROF" report -i "$D"

# corruption inside the record stream is survivable: report what can be read
damage flipped
"$PYTHON" - "$D/samples.data" <<'PY'
import sys, random
p = sys.argv[1]; b = bytearray(open(p, 'rb').read()); random.seed(7)
for _ in range(200):
    i = random.randrange(200, len(b)); b[i] ^= random.randrange(1, 256)
open(p, 'wb').write(b)
PY
"$UPROF" report -i "$D" >/dev/null 2>"$SCRATCH/err"
rc=$?
check "report on a bit-flipped samples.data does not crash (exit $rc)" [ "$rc" -lt 128 ]
check "no sanitizer report on the bit-flipped file" bash -c "! grep -q Sanitizer '$SCRATCH/err'"
damage random; head -c 100000 /dev/urandom >>"$D/samples.data"
"$UPROF" report -i "$D" >/dev/null 2>"$SCRATCH/err"
rc=$?
check "report with random bytes appended exits 0 ($rc)" [ "$rc" -eq 0 ]
check "and reports the damage" grep -q "^Data Damage:" "$D/report.csv"
damage readonly; chmod 555 "$D"
if [ "$(id -u)" -ne 0 ]; then
	expect_fail 1 "report into a read-only session" "cannot write" "$UPROF" report -i "$D"
fi
expect_fail 1 "report output into a missing dir" "cannot write" "$UPROF" report -i "$G" --report-output /no/such/dir/r.csv
chmod 755 "$D"
exit 0
