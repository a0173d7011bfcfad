#!/usr/bin/env python3
"""Drive report.html's time-axis zoom controls (report.js's timeAxis: the Timeline page and
a job's MPI timeline) in a browser, and judge what they did.

zoomprobe.py probe PAGE OUT PAGEID VIEWID KEY  a copy of PAGE at OUT with a probe appended: on
        load it sends #page-PAGEID's canvas + + ArrowRight ArrowLeft x3 - (keys), the wheel
        up over the plot's point at 3/4 of its width, a 120 px drag to the right and 0, and
        writes "name from to" after each (VIEWID's data-from-us, data-to-us) into the
        body's data-probe attribute, ';'-separated, after "span SPAN WIDTH" (SPAN: the
        embedded data's KEY.span, "timeline" or "mpi_timeline")
zoomprobe.py judge STEPS  each step (a line of STEPS) against the one before as the
        controls are specified: "ok|bad what" per step
"""
import sys

PROBE = r"""<script>
window.addEventListener('load', function () {
	const out = [], cv = document.querySelector('#page-PAGE canvas'), v = document.getElementById('VIEW');
	const D = JSON.parse(document.getElementById('data').textContent);
	const at = name => out.push([name, v.dataset.fromUs, v.dataset.toUs].join(' '));
	const key = k => cv.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }));
	const r = cv.getBoundingClientRect(), W = parseFloat(cv.style.width), y = r.top + 30;
	out.push('span ' + D.DATAKEY.span + ' ' + W);
	at('start');
	key('+'); at('plus'); key('+'); at('plus');
	key('ArrowRight'); at('right'); key('ArrowLeft'); at('left'); key('ArrowLeft'); at('left');
	key('ArrowLeft'); at('left'); // past the start: stops at 0
	key('-'); at('minus');
	// the wheel, up (in), over the plot's point at 3/4 of its width (the plot starts at 230
	// px); a whole clientX, as the browser gives the page (Chromium truncates a fraction)
	const cx = Math.round(r.left + 230 + 0.75 * (W - 240)), px = cx - r.left;
	cv.dispatchEvent(new WheelEvent('wheel', { deltaY: -100, clientX: cx, clientY: y, bubbles: true, cancelable: true }));
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


def probe(page, out, page_id, view_id, key):
    s = open(page, encoding="utf-8").read()
    p = PROBE.replace("PAGE", page_id).replace("VIEW", view_id).replace("DATAKEY", key)
    i = s.rindex("</body>")
    open(out, "w", encoding="utf-8").write(s[:i] + p + s[i:])


def judge(path):
    lines = [l.split() for l in open(path) if l.strip()]
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


if sys.argv[1] == "probe":
    probe(*sys.argv[2:7])
else:
    judge(sys.argv[2])
