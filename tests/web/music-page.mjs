// tests/web/music-page.mjs - the expression a page of the served folder evaluates to play music-crc.js with one of the page's modules (browser.mjs in Chromium, embed.mjs in Firefox): {crc, ms, loadMs}.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const PLAY = fs.readFileSync(path.join(here, 'music-crc.js'), 'utf8').replace(/^\/\/.*\n/gm, '');

// Both modules define the global RippleModule: each is loaded and made before the next.
export function musicExpr(mod, steps) {
  if (!/^(simd|scalar)$/.test(mod) || !Number.isInteger(steps) || steps < 1)
    throw new Error(`musicExpr: module ${mod}, ${steps} steps`);
  return `(async () => {
    const t0 = performance.now();
    delete window.RippleModule;
    await new Promise((resolve, reject) => {
      const s = document.createElement('script');
      s.src = 'ripple-${mod}.js';
      s.onload = resolve;
      s.onerror = () => reject(new Error('ripple-${mod}.js did not load'));
      document.head.append(s);
    });
    const M = await window.RippleModule({ locateFile: (f) => new URL(f, location.href).href });
    const text = async (f) => {
      const r = await fetch(f);
      if (!r.ok)
        throw new Error(f + ': HTTP ' + r.status);
      return r.text();
    };
    const [show, score] = await Promise.all([text('default.show'), text('default.score')]);
    const t1 = performance.now();
    const crc = (${PLAY})(M, show, score, ${steps});
    return { crc, ms: performance.now() - t1, loadMs: t1 - t0 };
  })()`;
}
