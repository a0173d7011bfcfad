#!/usr/bin/env bash
# report.html's timeline zoom controls (issue 31), driven in headless Chromium: a probe
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
"$PYTHON" - "$S/report.html" "$SCRATCH/probe.html" <<'PY'
import sys
s = open(sys.argv[1], encoding="utf-8").read()
probe = r"""<script>
window.addEventListener('load', function () {
	const out = [], cv = document.querySelector('#page-timeline canvas'), v = document.getElementById('tl-view');
	const D = JSON.parse(document.getElementById('data').textContent);
	const at = name => out.push([name, v.dataset.fromUs, v.dataset.toUs].join(' '));
	const key = k => cv.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }));
	const r = cv.getBoundingClientRect(), W = parseFloat(cv.style.width), y = r.top + 30;
	out.push('span ' + D.timeline.span + ' ' + W);
	at('start');
	key('+'); at('plus'); key('+'); at('plus');
	key('ArrowRight'); at('right'); key('ArrowLeft'); at('left'); key('ArrowLeft'); at('left');
	key('ArrowLeft'); at('left'); // past the start: stops at 0
	key('-'); at('minus');
	// the wheel, up (in), over the plot's point at 3/4 of its width (the plot starts at 230 px)
	const px = 230 + 0.75 * (W - 240);
	cv.dispatchEvent(new WheelEvent('wheel', { deltaY: -100, clientX: r.left + px, clientY: y, bubbles: true, cancelable: true }));
	at('wheel ' + px);
	// a drag 120 px to the right: the view moves back in time
	cv.dispatchEvent(new MouseEvent('mousedown', { clientX: r.left + 600, clientY: y, buttons: 1, bubbles: true }));
	cv.dispatchEvent(new MouseEvent('mousemove', { clientX: r.left + 720, clientY: y, buttons: 1, bubbles: true }));
	window.dispatchEvent(new MouseEvent('mouseup', { clientX: r.left + 720, clientY: y }));
	at('drag 120');
	key('0'); at('reset');
	document.body.setAttribute('data-probe', out.join(';'));
});
</script>"""
i = s.rindex("</body>")
open(sys.argv[2], "w", encoding="utf-8").write(s[:i] + probe + s[i:])
PY
timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$SCRATCH/chrome" \
	--virtual-time-budget=5000 --window-size=1400,900 --enable-logging=stderr --v=0 \
	--dump-dom "file://$SCRATCH/probe.html#timeline" >"$SCRATCH/probe.dom" 2>"$SCRATCH/probe.console"
sed -n 's/.*data-probe="\([^"]*\)".*/\1/p' "$SCRATCH/probe.dom" | tr ';' '\n' >"$SCRATCH/steps"
check "the probe ran on the timeline page, no console message ($(grep -m1 -iE 'CONSOLE|Uncaught' "$SCRATCH/probe.console"))" \
	bash -c "[ \$(wc -l <'$SCRATCH/steps') = 12 ] && ! grep -qiE 'CONSOLE|Uncaught' '$SCRATCH/probe.console'"

# each step against the window before it: prints "ok|bad what"
"$PYTHON" - "$SCRATCH/steps" >"$SCRATCH/verdicts" <<'PY'
import sys
lines = [l.split() for l in open(sys.argv[1]) if l.strip()]
span, W = float(lines[0][1]), float(lines[0][2])
S = max(span, 1.0)
scale_of = lambda v0, v1: (W - 230 - 10) / (v1 - v0)  # pixels per us, as draw() has it
eps = 1e-9 * S + 1e-6
prev = None
def near(a, b):
    return abs(a - b) <= eps
def say(okay, what, got):
    print("%s %s (%.3f..%.3f us)" % ("ok" if okay else "bad", what, got[0], got[1]))
def zoom(v, f, at):
    w = min(S, max((v[1] - v[0]) * f, 1))
    v0 = max(0, min(at - (at - v[0]) * w / (v[1] - v[0]), S - w))
    return (v0, v0 + w)
def pan(v, d):
    w = v[1] - v[0]
    v0 = max(0, min(v[0] + d, S - w))
    return (v0, v0 + w)
for l in lines[1:]:
    name, got = l[0], (float(l[-2]), float(l[-1]))
    if name == "start":
        say(near(got[0], 0) and near(got[1], S), "start: the whole profile, 0 to the embedded span %.3f us" % S, got)
    elif name == "plus":
        want = zoom(prev, 0.8, (prev[0] + prev[1]) / 2)
        say(near(got[0], want[0]) and near(got[1], want[1]) and got[1] - got[0] < prev[1] - prev[0],
            "+: 0.8 of the window, about its middle", got)
    elif name == "minus":
        want = zoom(prev, 1.25, (prev[0] + prev[1]) / 2)
        say(near(got[0], want[0]) and near(got[1], want[1]) and got[1] - got[0] > prev[1] - prev[0],
            "-: 1.25 times the window, about its middle", got)
    elif name in ("right", "left"):
        d = (prev[1] - prev[0]) / 5 * (1 if name == "right" else -1)
        want = pan(prev, d)
        moved = got[0] != prev[0] or prev[0] == 0
        say(near(got[0], want[0]) and near(got[1], want[1]) and moved,
            "arrow %s: a fifth of the window %s, within the profile" % (name, "later" if d > 0 else "earlier"), got)
    elif name == "wheel":
        px = float(l[1])
        t = prev[0] + (px - 230) / scale_of(*prev)  # the time under the pointer before
        want = zoom(prev, 0.8, t)
        t_after = got[0] + (px - 230) / scale_of(*got)
        say(near(got[0], want[0]) and near(got[1], want[1]) and abs(t_after - t) <= 1e-6 * S,
            "wheel up at %.0f px: in by 0.8, %.3f us still under the pointer" % (px, t), got)
    elif name == "drag":
        want = pan(prev, -float(l[1]) / scale_of(*prev))
        say(near(got[0], want[0]) and near(got[1], want[1]) and got[0] < prev[0],
            "drag %s px right: the window %s px earlier in time" % (l[1], l[1]), got)
    elif name == "reset":
        say(near(got[0], 0) and near(got[1], S), "0: the whole profile again", got)
    prev = got
PY
while read -r verdict what; do
	check "timeline: $what" [ "$verdict" = ok ]
done <"$SCRATCH/verdicts"
check "timeline: every control was checked ($(wc -l <"$SCRATCH/verdicts") steps)" [ "$(wc -l <"$SCRATCH/verdicts")" = 11 ]
echo "1..$_n"
