#!/usr/bin/env bash
# make demo: profile the bundled example (two hot functions doing 1:3 work) and show
# the session path and the top of the report.
set -euo pipefail
BUILD=${BUILD:-build}
UPROF=$BUILD/bin/uprof
OUT=${DEMO_OUT:-$BUILD/demo}
rm -rf "$OUT"
echo "\$ $UPROF collect --config tbp -o $OUT $BUILD/targets/demo"
"$UPROF" collect --config tbp -o "$OUT" "$BUILD/targets/demo"
session=$(ls -d "$OUT"/uprof-demo-TBP_* | head -1)
echo
echo "\$ $UPROF report -i $session"
"$UPROF" report -i "$session"
echo
echo "Session: $session"
echo "Top of $session/report.csv:"
sed -n '/HOTTEST FUNCTIONS/,/^$/p' "$session/report.csv"
