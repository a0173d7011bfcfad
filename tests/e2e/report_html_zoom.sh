#!/usr/bin/env bash
# report.html's timeline zoom controls (issue 31), driven in headless Chromium: a probe
# (lib/zoomprobe.py; report_html_mpi.sh drives a job's MPI timeline with it too)
# appended to a copy of a tasks session's page (as report_html_firefox.sh does) sends the
# timeline's canvas the events a user makes (+ + - on the keyboard, the arrow keys, the
# wheel over a point of the plot, a drag, 0) and writes the window shown after each
# (#tl-view's data-from-us and data-to-us, what the ruler and tracks are drawn over) into
# the DOM, which --dump-dom reads back. Each window is checked against what the page
# says the control does, from the one before it: + and - zoom by 0.8 and 1.25 about the
# middle, within the profile; an arrow moves a fifth of the window; the wheel keeps the
# time under the pointer where it was; a drag of D pixels moves D / (pixels per us); 0
# shows the whole profile (the embedded timeline's span) again.
. "$(dirname "$0")/lib/common.sh"

CHROME=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROME" ]; then
	ok "timeline zoom controls # SKIP chromium is not installed (scripts/install-deps.sh installs it)"
	echo "1..$_n"
	exit 0
fi
export HOME=$SCRATCH XDG_CONFIG_HOME=$SCRATCH/.config XDG_CACHE_HOME=$SCRATCH/.cache

"$UPROF" collect -o "$SCRATCH/t" "$TGT/tasks" >/dev/null 2>&1
S=$(session_in "$SCRATCH/t")
timeout 120 "$UPROF" report -i "$S" --export html >/dev/null 2>&1
check "tasks: report --export html wrote report.html" [ -s "$S/report.html" ]

# the probe: each step "name from to", after the page's script drew the timeline
"$PYTHON" "$HERE/zoomprobe.py" probe "$S/report.html" "$SCRATCH/probe.html" timeline tl-view timeline
timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$SCRATCH/chrome" \
	--virtual-time-budget=5000 --window-size=1400,900 --enable-logging=stderr --v=0 \
	--dump-dom "file://$SCRATCH/probe.html#timeline" >"$SCRATCH/probe.dom" 2>"$SCRATCH/probe.console"
sed -n 's/.*data-probe="\([^"]*\)".*/\1/p' "$SCRATCH/probe.dom" | tr ';' '\n' >"$SCRATCH/steps"
check "the probe ran on the timeline page, no console message ($(grep -m1 -iE 'CONSOLE|Uncaught' "$SCRATCH/probe.console"))" \
	bash -c "[ \$(wc -l <'$SCRATCH/steps') = 12 ] && ! grep -qiE 'CONSOLE|Uncaught' '$SCRATCH/probe.console'"

# each step against the window before it: prints "ok|bad what"
"$PYTHON" "$HERE/zoomprobe.py" judge "$SCRATCH/steps" >"$SCRATCH/verdicts"
while read -r verdict what; do
	check "timeline: $what" [ "$verdict" = ok ]
done <"$SCRATCH/verdicts"
check "timeline: every control was checked ($(wc -l <"$SCRATCH/verdicts") steps)" [ "$(wc -l <"$SCRATCH/verdicts")" = 11 ]
echo "1..$_n"
