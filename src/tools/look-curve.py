#!/usr/bin/env python3
"""look-curve.py - draws the default show's speckle curve, before and after, as an SVG.

usage: look-curve.py BEFORE.txt CLASSIC.look WAVE.look OUT.svg

BEFORE.txt holds the curve of the show before smooth stones (step, then
speckle % and offset px for classic and wave water); CLASSIC.look and
WAVE.look are what `ripple-bench --look` prints for the show as it is now.
The picture: speckle share against time, one panel a model, the target
(5%) as a line.
"""
import sys

TARGET = 5.0


def read_look(path):
    pts = []
    with open(path) as f:
        for line in f:
            if line.startswith('#') or not line.strip():
                continue
            cols = line.split()
            if len(cols) < 4 or not cols[0].isdigit():
                continue
            pts.append((int(cols[0]), float(cols[2].rstrip('%'))))
    return pts


def read_before(path):
    classic, wave = [], []
    with open(path) as f:
        for line in f:
            if line.startswith('#') or not line.strip():
                continue
            c = line.split()
            classic.append((int(c[0]), float(c[1])))
            wave.append((int(c[0]), float(c[3])))
    return classic, wave


def panel(out, x0, y0, w, h, title, before, after, ymax, tmax):
    def px(step):
        return x0 + w * step / (60.0 * tmax)

    def py(v):
        return y0 + h - h * min(v, ymax) / ymax

    out.append(f'<text x="{x0}" y="{y0 - 8}" class="t">{title}</text>')
    out.append(f'<rect x="{x0}" y="{y0}" width="{w}" height="{h}" class="frame"/>')
    for v in range(0, int(ymax) + 1, 10):
        out.append(f'<line x1="{x0}" y1="{py(v):.1f}" x2="{x0 + w}" y2="{py(v):.1f}" class="grid"/>')
        out.append(f'<text x="{x0 - 6}" y="{py(v) + 4:.1f}" class="l" text-anchor="end">{v}%</text>')
    for s in range(0, tmax + 1, 10):
        out.append(f'<text x="{px(s * 60):.1f}" y="{y0 + h + 16}" class="l" '
                   f'text-anchor="middle">{s} s</text>')
    out.append(f'<line x1="{x0}" y1="{py(TARGET):.1f}" x2="{x0 + w}" y2="{py(TARGET):.1f}" '
               f'class="target"/>')
    for pts, cls in ((before, 'before'), (after, 'after')):
        d = ' '.join(f'{px(s):.1f},{py(v):.1f}' for s, v in pts)
        out.append(f'<polyline points="{d}" class="{cls}"/>')


def main(argv):
    if len(argv) != 5:
        sys.stderr.write('usage: look-curve.py BEFORE.txt CLASSIC.look WAVE.look OUT.svg\n')
        return 2
    before_c, before_w = read_before(argv[1])
    after_c, after_w = read_look(argv[2]), read_look(argv[3])
    if not after_c or not after_w or not before_c:
        sys.stderr.write('look-curve.py: no curve in the input\n')
        return 1
    worst_c = max(v for _, v in after_c)
    worst_w = max(v for _, v in after_w)
    W, H, pw, ph = 760, 430, 660, 140
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
           f'viewBox="0 0 {W} {H}" font-family="sans-serif">',
           '<style>.t{font-size:14px;fill:#222}.l{font-size:11px;fill:#555}'
           '.frame{fill:#fff;stroke:#999}.grid{stroke:#eee}'
           '.target{stroke:#c33;stroke-dasharray:4 3}'
           '.before{fill:none;stroke:#aaa;stroke-width:1.5}'
           '.after{fill:none;stroke:#1a6fc4;stroke-width:2}</style>',
           f'<rect width="{W}" height="{H}" fill="#fff"/>']
    panel(out, 70, 40, pw, ph, f'classic water: speckle, before (grey) and now (blue, worst '
          f'{worst_c:.1f}%); the target 5% dashed', before_c, after_c, 75.0, 60)
    panel(out, 70, 250, pw, ph, f'wave water: speckle, before (grey) and now (blue, worst '
          f'{worst_w:.1f}%)', before_w, after_w, 75.0, 60)
    out.append('</svg>')
    with open(argv[4], 'w') as f:
        f.write('\n'.join(out) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
