// tests/web/browser.mjs - the web page in headless chromium: both modules' benchmarks, a click on calm water, the console.
//
// Usage: node --experimental-websocket tests/web/browser.mjs --dir build/web --crc XXXXXXXX
//            [--frames 2000] [--shots DIR] [--chromium PATH] [--timeout S] [--verbose]
// (What a frame costs is measured by bench/web.mjs, not asserted here.)
// Serves DIR on 127.0.0.1 (a free port), drives chromium over the DevTools
// protocol, prints one line per check ("ok  ..." or "FAIL ...") and a
// summary with the time each part took.  Exit 0: all passed; 1: a check
// failed; 2: usage.

import fs from 'node:fs';
import path from 'node:path';
import { serve } from '../../src/web/serve.mjs';
import { launch, sleep, webSocketClass } from './cdp.mjs';

const USAGE =
  'usage: node --experimental-websocket tests/web/browser.mjs --dir DIR --crc XXXXXXXX [--frames N] [--shots DIR] [--chromium PATH] [--timeout S] [--verbose]';

function usage(msg) {
  process.stderr.write(`browser: ${msg}\n${USAGE}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const o = { frames: 2000, chromium: 'chromium', timeout: 240, verbose: false };
  const need = (i, name) => {
    if (i + 1 >= argv.length) usage(`${name} needs a value`);
    return argv[i + 1];
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--dir') o.dir = need(i++, a);
    else if (a === '--crc') o.crc = need(i++, a);
    else if (a === '--frames') o.frames = need(i++, a);
    else if (a === '--shots') o.shots = need(i++, a);
    else if (a === '--chromium') o.chromium = need(i++, a);
    else if (a === '--timeout') o.timeout = need(i++, a);
    else if (a === '--verbose') o.verbose = true;
    else if (a === '-h' || a === '--help') {
      process.stdout.write(USAGE + '\n');
      process.exit(0);
    } else usage(`unknown argument ${a}`);
  }
  if (!o.dir) usage('--dir is required');
  if (!o.crc) usage('--crc is required');
  if (!/^[0-9a-fA-F]{8}$/.test(o.crc)) usage(`--crc ${o.crc}: expected 8 hex digits`);
  o.crc = o.crc.toLowerCase();
  if (!/^\d+$/.test(String(o.frames)) || +o.frames < 1) usage(`--frames ${o.frames}: expected a positive whole number`);
  o.frames = +o.frames;
  if (!/^\d+$/.test(String(o.timeout)) || +o.timeout < 1) usage(`--timeout ${o.timeout}: expected seconds`);
  o.timeout = +o.timeout;
  let st;
  try {
    st = fs.statSync(o.dir);
  } catch {
    usage(`--dir ${o.dir}: no such directory`);
  }
  if (!st.isDirectory()) usage(`--dir ${o.dir}: not a directory`);
  return o;
}

const opt = parseArgs(process.argv.slice(2));
if (!webSocketClass()) {
  usage('no WebSocket in this node: run node 20 with --experimental-websocket, or install node-ws');
}

let failures = 0;
let passes = 0;
const ok = (msg) => {
  passes++;
  console.log(`ok  ${msg}`);
};
const fail = (msg) => {
  failures++;
  console.log(`FAIL ${msg}`);
};
const check = (cond, msg, why) => (cond ? ok(msg) : fail(why ? `${msg}: ${why}` : msg));
const info = (msg) => console.log(`    ${msg}`);

const times = []; // [part, ms]
async function timed(part, fn) {
  const t0 = Date.now();
  try {
    return await fn();
  } finally {
    times.push([part, Date.now() - t0]);
  }
}

// Console errors, page exceptions and error log entries of every load.
const problems = [];
let loads = 0;

function watch(page, label) {
  page.thrown = [];
  page.on('Runtime.consoleAPICalled', (p) => {
    if (p.type !== 'error' && p.type !== 'assert') return;
    const text = (p.args || []).map((a) => (a.value !== undefined ? String(a.value) : a.description || a.type)).join(' ');
    problems.push(`${label}: console.${p.type}: ${text}`);
  });
  page.on('Runtime.exceptionThrown', (p) => {
    const d = p.exceptionDetails || {};
    const text = d.exception?.description?.split('\n')[0] || d.text;
    problems.push(`${label}: exception: ${text}`);
    page.thrown.push(text);
  });
  page.on('Log.entryAdded', ({ entry }) => {
    if (entry.level !== 'error') return;
    if (entry.url && /\/favicon\.ico$/.test(entry.url)) return;
    problems.push(`${label}: ${entry.source}: ${entry.text}${entry.url ? ' (' + entry.url + ')' : ''}`);
  });
}

// A fresh tab for each load, so that nothing of one load (timers, state,
// the WebAssembly memory) carries over to the next.
async function open(browser, url, label) {
  const page = await browser.newPage();
  watch(page, label);
  loads++;
  await page.goto(url, { timeout: 30000 });
  return page;
}

// The page's own error, if it has reported one.
const PAGE_ERROR = `(window.ripple && typeof window.ripple.error === 'string' && window.ripple.error) || null`;
// Ends a wait early when the page has reported an error or thrown an
// uncaught exception: what was awaited will not come.
const stopper = (page) => (v) => {
  if (v && typeof v === 'object' && v.error) return `the page reported an error: ${v.error}`;
  if (page.thrown.length) return `the page threw: ${page.thrown[0]}`;
  return undefined;
};

// In-page probe of the canvas: its pixels drawn into an offscreen canvas,
// the number of distinct colours, the mean and variance of the luminance;
// keep: store the pixels as the "before" picture; compare: count the pixels
// that differ from it.
const PROBE = `
window.__rippleProbe = (mode) => {
  const c = document.querySelector('canvas');
  if (!c) return { error: 'no <canvas> in the page' };
  const w = c.width, h = c.height;
  if (!w || !h) return { error: 'the canvas is ' + w + 'x' + h };
  const o = document.createElement('canvas');
  o.width = w; o.height = h;
  const g = o.getContext('2d', { willReadFrequently: true });
  g.drawImage(c, 0, 0);
  const px = new Uint32Array(g.getImageData(0, 0, w, h).data.buffer);
  const seen = new Set();
  let sum = 0, sum2 = 0;
  for (let i = 0; i < px.length; i++) {
    const v = px[i];
    seen.add(v);
    const l = 0.299 * (v & 255) + 0.587 * ((v >>> 8) & 255) + 0.114 * ((v >>> 16) & 255);
    sum += l; sum2 += l * l;
  }
  const n = px.length, mean = sum / n;
  const r = { w, h, colors: seen.size, mean, variance: sum2 / n - mean * mean };
  if (mode === 'compare') {
    const b = window.__rippleBefore;
    if (!b || b.length !== px.length) return { ...r, error: 'no before-picture of the same size' };
    let d = 0;
    for (let i = 0; i < n; i++) if (b[i] !== px[i]) d++;
    r.changed = d / n;
  }
  if (mode === 'keep') window.__rippleBefore = px.slice();
  return r;
};
true`;

async function probe(page, mode) {
  const r = await page.evaluate(`window.__rippleProbe(${JSON.stringify(mode)})`, { timeout: 10000 });
  if (r && r.error) throw new Error(`canvas probe: ${r.error}`);
  return r;
}

const fmt = (x, d = 2) => (typeof x === 'number' && isFinite(x) ? x.toFixed(d) : String(x));
const pct = (x) => `${(100 * x).toFixed(2)}%`;

async function waitFrames(page, n, what) {
  const f0 = await page.evaluate('window.ripple.frames');
  await page.waitFor(`(${PAGE_ERROR}) ? { error: ${PAGE_ERROR} } : window.ripple.frames >= ${f0 + n}`, {
    timeout: 15000,
    what: `window.ripple.frames >= ${f0 + n} (${what})`,
    stop: stopper(page),
  });
}

// The report's time per frame: a number, or an object of parts with a total.
function msPerFrame(r) {
  const out = [];
  for (const key of ['ms_per_frame', 'cpu_ms_per_frame']) {
    const v = r[key];
    const label = key === 'ms_per_frame' ? 'ms/frame' : 'cpu ms/frame';
    if (typeof v === 'number') out.push(`${fmt(v, 3)} ${label}`);
    else if (v && typeof v === 'object') {
      const parts = Object.entries(v).filter(([k]) => k !== 'total');
      out.push(
        `${fmt(v.total, 3)} ${label}` + (parts.length ? ` (${parts.map(([k, x]) => `${k} ${fmt(x, 3)}`).join(', ')})` : ''),
      );
    }
  }
  return out.join(', ') || 'no ms/frame in the report';
}

// a. Each module's benchmark: the checksum, the module and the path.
async function benchmark(browser, base, mod) {
  const want = { simd: 'sse2', scalar: 'c' }[mod];
  const url = `${base}?benchmark=${opt.frames}&module=${mod}`;
  const t0 = Date.now();
  const page = await open(browser, url, `benchmark ${mod}`);
  try {
    const got = await page.waitFor(
      `(() => { const r = window.rippleReport; if (r && typeof r === 'object') return { report: r };` +
        ` const e = ${PAGE_ERROR}; return e ? { error: e } : null; })()`,
      { timeout: 60000, interval: 50, what: `window.rippleReport (${mod}, ${opt.frames} frames)`, stop: stopper(page) },
    );
    const r = got.report;
    const secs = (Date.now() - t0) / 1000;
    ok(`${mod}: window.rippleReport set ${fmt(secs, 1)} s after the load began`);
    const crc = typeof r.crc32 === 'string' ? r.crc32 : String(r.crc32);
    if (!/^[0-9a-fA-F]{8}$/.test(crc)) fail(`${mod}: crc32 ${JSON.stringify(r.crc32)} is not 8 hex digits`);
    else check(crc.toLowerCase() === opt.crc, `${mod}: crc32 ${crc}`, `expected ${opt.crc}`);
    check(r.module === mod, `${mod}: module ${JSON.stringify(r.module)}`, `expected "${mod}"`);
    check(r.path === want, `${mod}: path ${JSON.stringify(r.path)}`, `expected "${want}"`);
    info(`${mod}: ${r.frames ?? opt.frames} frames, ${fmt(r.fps, 1)} fps, ${msPerFrame(r)}`);
    if (opt.verbose) info(`${mod}: report ${JSON.stringify(r)}`);
  } catch (e) {
    fail(`${mod}: ${e.message}`);
  } finally {
    await page.close();
  }
}

async function screenshot(page, rect) {
  const r = await page.send(
    'Page.captureScreenshot',
    { format: 'png', clip: { x: rect.x, y: rect.y, width: rect.width, height: rect.height, scale: 1 } },
    { timeout: 15000 },
  );
  return Buffer.from(r.data, 'base64');
}

// b. Calm water: the canvas shows a picture, a click drops a stone and
// changes the picture.
async function calm(browser, base) {
  const page = await open(browser, `${base}?show=0`, 'calm water');
  try {
    await page.waitFor(
      `(${PAGE_ERROR}) ? { error: ${PAGE_ERROR} } : !!(window.ripple && window.ripple.ready === true && window.ripple.frames > 10)`,
      {
        timeout: 30000,
        what: 'window.ripple.ready === true && window.ripple.frames > 10',
        stop: stopper(page),
      },
    ).catch(async (e) => {
      const seen = await page.evaluate('JSON.stringify(window.ripple)').catch(() => '?');
      throw new Error(`${e.message}; window.ripple = ${seen}`);
    });
    ok('calm water: ready and drawing');
    await page.evaluate(PROBE);
    const rect = await page.evaluate(
      `(() => { const r = document.querySelector('canvas').getBoundingClientRect();` +
        ` return { x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height, cx: r.left + r.width / 2, cy: r.top + r.height / 2 }; })()`,
    );
    const p0 = await probe(page, 'keep');
    info(`calm water: canvas ${p0.w}x${p0.h}, shown at ${fmt(rect.width, 0)}x${fmt(rect.height, 0)} css px`);
    check(
      p0.colors > 50 && p0.variance > 4,
      `calm water: not blank (${p0.colors} colours, mean ${fmt(p0.mean, 1)}, variance ${fmt(p0.variance, 1)})`,
      'want > 50 colours and variance > 4',
    );
    const before = await screenshot(page, rect);

    // Still water stays still: the control for the click below.
    await waitFrames(page, 20, 'idle');
    const idle = await probe(page, 'compare');
    info(`calm water: ${pct(idle.changed)} of the pixels changed over 20 frames untouched`);

    await probe(page, 'keep');
    const stones0 = await page.evaluate('window.ripple.stones');
    const frames0 = await page.evaluate('window.ripple.frames');
    const at = { x: rect.cx, y: rect.cy, button: 'left', clickCount: 1 };
    await page.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: at.x, y: at.y });
    await page.send('Input.dispatchMouseEvent', { type: 'mousePressed', ...at, buttons: 1 });
    await page.send('Input.dispatchMouseEvent', { type: 'mouseReleased', ...at, buttons: 0 });
    // The rings grow as they spread: look after 20 frames, then every 10
    // more, up to 120, until 1% of the pixels have changed.
    let p1;
    for (let n = 20; ; n += 10) {
      await waitFrames(page, n === 20 ? 20 : 10, 'after the click');
      p1 = await probe(page, 'compare');
      if (p1.changed >= 0.01 || n >= 120) break;
    }
    const stones1 = await page.evaluate('window.ripple.stones');
    const frames1 = await page.evaluate('window.ripple.frames');
    const after = await screenshot(page, rect);
    check(
      p1.changed >= 0.01,
      `click: ${pct(p1.changed)} of the pixels changed in ${frames1 - frames0} frames`,
      'want at least 1%',
    );
    check(stones1 === stones0 + 1, `click: window.ripple.stones ${stones0} -> ${stones1}`, `want ${stones0 + 1}`);
    check(!before.equals(after), `click: the screenshots before and after differ (${before.length} and ${after.length} bytes of PNG)`);
    if (opt.shots) {
      fs.mkdirSync(opt.shots, { recursive: true });
      fs.writeFileSync(path.join(opt.shots, 'before.png'), before);
      fs.writeFileSync(path.join(opt.shots, 'after.png'), after);
      info(`calm water: screenshots in ${path.join(opt.shots, 'before.png')} and after.png`);
    }
  } catch (e) {
    fail(`calm water: ${e.message}`);
  } finally {
    await page.close();
  }
}

async function main() {
  const tStart = Date.now();
  // A last resort: the whole run is bounded even if some wait is not.
  const watchdog = setTimeout(() => {
    console.log(`FAIL the whole run took over ${opt.timeout} s; stopped`);
    process.exit(1); // the exit handler in cdp.mjs kills chromium
  }, opt.timeout * 1000);
  watchdog.unref();

  const { server, url } = await timed('server start', () => serve(opt.dir, 0));
  info(`serving ${opt.dir} at ${url}`);
  let browser;
  try {
    browser = await timed('chromium start', () => launch({ chromium: opt.chromium, verbose: opt.verbose }));
    const version = await browser.send('Browser.getVersion').catch(() => ({}));
    info(`${version.product || 'chromium'} started in ${browser.startMs} ms`);

    const parts = [
      ['benchmark simd', () => benchmark(browser, url, 'simd')],
      ['benchmark scalar', () => benchmark(browser, url, 'scalar')],
      ['calm water and click', () => calm(browser, url)],
    ];
    for (const [name, run] of parts) {
      await timed(name, run);
      // A hung or dead browser fails once, not once per remaining check.
      if (!(await browser.alive())) throw new Error(`after ${name}: ${browser.dead}; the remaining checks are skipped`);
    }

    check(
      problems.length === 0,
      `no console errors or exceptions across ${loads} loads`,
      `${problems.length}:\n       ${problems.join('\n       ')}`,
    );
  } catch (e) {
    fail(e.message);
  } finally {
    if (browser) await timed('chromium close', () => browser.close());
    server.close();
    server.closeAllConnections?.();
  }
  const total = Date.now() - tStart;
  info(`times: ${times.map(([p, ms]) => `${p} ${fmt(ms / 1000, 2)} s`).join(', ')}; total ${fmt(total / 1000, 2)} s`);
  console.log(`${failures ? 'FAIL ' : 'ok  '}browser: ${passes} passed, ${failures} failed`);
  process.exit(failures ? 1 : 0);
}

main().catch((e) => {
  console.log(`FAIL ${e.message}`);
  process.exit(1);
});
