// tests/web/browser.mjs - the web page in headless chromium: both modules' benchmarks (busy-2 in rounds by default, busy-1 by name, the side view's side-3 and side-waves-3), the results panel and its copy button, both modules' sound with the music against the native demo's, the page's music in step with the water and U, a click on calm water, Tab to the side view (its hint clear of the overlay, the music going on) and a click that drops a body, the console.
//
// Usage: node --experimental-websocket tests/web/browser.mjs --dir build/web --crc XXXXXXXX
//            [--crc2 XXXXXXXX] [--frames 2000] [--side-crc X --side-waves-crc X --side-frames N]
//            [--music-crc X --music-steps N] [--shots DIR] [--chromium PATH] [--timeout S] [--verbose]
// --crc is the native busy-1's water after --frames frames, --crc2 busy-2's
// (without it the page's busy-2 is held to its own rounds and to the other
// module); --side-crc and --side-waves-crc the native side-3's and
// side-waves-3's state and picture after --side-frames frames (default 1000); --music-crc the
// native demo's sound of --music-steps steps of the default show and score at
// 160x120 (tests/web/music-crc.js plays the same with each module).
// (What a frame costs is measured by bench/web.mjs, not asserted here.)
// Serves DIR on 127.0.0.1 (a free port), drives chromium over the DevTools
// protocol, prints one line per check ("ok  ..." or "FAIL ...") and a
// summary with the time each part took.  Exit 0: all passed; 1: a check
// failed; 2: usage.

import fs from 'node:fs';
import path from 'node:path';
import { serve } from '../../src/web/serve.mjs';
import { launch, sleep, webSocketClass } from './cdp.mjs';
import { musicExpr } from './music-page.mjs';

const USAGE =
  'usage: node --experimental-websocket tests/web/browser.mjs --dir DIR --crc XXXXXXXX [--crc2 XXXXXXXX] [--frames N] [--side-crc X --side-waves-crc X --side-frames N] [--music-crc X --music-steps N] [--shots DIR] [--chromium PATH] [--timeout S] [--verbose]';

function usage(msg) {
  process.stderr.write(`browser: ${msg}\n${USAGE}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const o = { frames: 2000, sideFrames: 1000, chromium: 'chromium', timeout: 240, verbose: false };
  const need = (i, name) => {
    if (i + 1 >= argv.length) usage(`${name} needs a value`);
    return argv[i + 1];
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--dir') o.dir = need(i++, a);
    else if (a === '--crc') o.crc = need(i++, a);
    else if (a === '--crc2') o.crc2 = need(i++, a);
    else if (a === '--frames') o.frames = need(i++, a);
    else if (a === '--side-crc') o.sideCrc = need(i++, a).toLowerCase();
    else if (a === '--side-waves-crc') o.wavesCrc = need(i++, a).toLowerCase();
    else if (a === '--side-frames') o.sideFrames = need(i++, a);
    else if (a === '--music-crc') o.musicCrc = need(i++, a).toLowerCase();
    else if (a === '--music-steps') o.musicSteps = Number(need(i++, a));
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
  if (o.crc2 !== undefined && !/^[0-9a-fA-F]{8}$/.test(o.crc2)) usage(`--crc2 ${o.crc2}: expected 8 hex digits`);
  if (o.crc2) o.crc2 = o.crc2.toLowerCase();
  if (!/^\d+$/.test(String(o.frames)) || +o.frames < 1) usage(`--frames ${o.frames}: expected a positive whole number`);
  o.frames = +o.frames;
  for (const [k, v] of [['--side-crc', o.sideCrc], ['--side-waves-crc', o.wavesCrc]])
    if (v !== undefined && !/^[0-9a-f]{8}$/.test(v)) usage(`${k} ${v}: expected 8 hex digits`);
  if (!/^\d+$/.test(String(o.sideFrames)) || +o.sideFrames < 1) usage(`--side-frames ${o.sideFrames}: expected a positive whole number`);
  if (o.musicCrc !== undefined && (!/^[0-9a-f]{8}$/.test(o.musicCrc) || !(Number.isInteger(o.musicSteps) && o.musicSteps > 0)))
    usage('--music-crc wants 8 hex digits and --music-steps a positive whole number');
  o.sideFrames = +o.sideFrames;
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

// The page's timedemo report at url, once it is in (or the page's error).
async function report(page, what) {
  const got = await page.waitFor(
    `(() => { const r = window.rippleReport; if (r && typeof r === 'object') return { report: r };` +
      ` const e = ${PAGE_ERROR}; return e ? { error: e } : null; })()`,
    { timeout: 90000, interval: 50, what: `window.rippleReport (${what})`, stop: stopper(page) },
  );
  return got.report;
}

// a. A module's single-round benchmark of a scene named: the checksum, the
// scene, the module and the path.  Returns the report's CRC.
async function benchmark(browser, base, mod, scene, want, frames = opt.frames) {
  const kernels = { simd: 'sse2', scalar: 'c' }[mod];
  const what = `${mod} ${scene}`;
  const url = `${base}?benchmark=${frames}&scene=${scene}&module=${mod}`;
  const t0 = Date.now();
  const page = await open(browser, url, `benchmark ${what}`);
  try {
    const r = await report(page, `${what}, ${frames} frames`);
    ok(`${what}: window.rippleReport set ${fmt((Date.now() - t0) / 1000, 1)} s after the load began`);
    const crc = typeof r.crc32 === 'string' ? r.crc32 : String(r.crc32);
    if (!/^[0-9a-f]{8}$/.test(crc)) fail(`${what}: crc32 ${JSON.stringify(r.crc32)} is not 8 hex digits`);
    else if (want) check(crc === want, `${what}: ${r.crc_of} crc32 ${crc}${crc === want ? ", the native demo's" : ''}`,
      `the native demo's is ${want}`);
    check(r.scene === scene && r.rounds === 1 && r.frames === frames,
      `${what}: scene ${r.scene}, ${r.rounds} round of ${r.frames} frames`, `expected ${scene}, 1 round of ${frames}`);
    check(r.module === mod, `${what}: module ${JSON.stringify(r.module)}`, `expected "${mod}"`);
    check(r.path === kernels, `${what}: path ${JSON.stringify(r.path)}`, `expected "${kernels}"`);
    info(`${what}: ${r.frames} frames, ${fmt(r.fps, 1)} fps, ${msPerFrame(r)}`);
    if (opt.verbose) info(`${what}: report ${JSON.stringify(r)}`);
    return crc;
  } catch (e) {
    fail(`${what}: ${e.message}`);
    return null;
  } finally {
    await page.close();
  }
}

const median = (v) => {
  const s = [...v].sort((a, b) => a - b), h = s.length >> 1;
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
};

// The element's box in the page, for a real click.
const BOX = (sel) =>
  `(() => { const e = document.querySelector(${JSON.stringify(sel)}); if (!e) return null;` +
  ` const r = e.getBoundingClientRect(); return { x: r.left + r.width / 2, y: r.top + r.height / 2,` +
  ` left: r.left + scrollX, top: r.top + scrollY, width: r.width, height: r.height,` +
  ` shown: !e.closest('[hidden]') && r.width > 0 }; })()`;

async function click(page, at) {
  const p = { x: at.x, y: at.y, button: 'left', clickCount: 1 };
  await page.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: at.x, y: at.y });
  await page.send('Input.dispatchMouseEvent', { type: 'mousePressed', ...p, buttons: 1 });
  await page.send('Input.dispatchMouseEvent', { type: 'mouseReleased', ...p, buttons: 0 });
}

// The share line the native --share prints, as the page fills it in.
const SHARE = /^ripple (\S+) (busy-\d) (\d+)x(\d+)x32 wasm-(simd|scalar) 1t canvas: (\d+) fps \(±(\d+\.\d)%\), 1% low (\d+), crc ([0-9a-f]{8}), (.+), (.+)$/;

// b. The default timedemo: busy-2 in rounds (2 here, for time), every
// round's water the same, the report's figures, the results panel and its
// "copy result" button (the clipboard, and the field when the clipboard
// refuses).  Returns the CRC.
async function rounds(browser, base, mod, want) {
  const what = `${mod} default`;
  const page = await open(browser, `${base}?benchmark&rounds=2&module=${mod}`, `benchmark ${what}`);
  try {
    const r = await report(page, `${what}, 2 rounds`);
    check(r.scene === 'busy-2' && r.scene_name === 'busy' && r.scene_version === 2,
      `${what}: the default scene is busy-2`, `got ${r.scene}`);
    for (const k of ['rounds', 'median_fps', 'spread', 'fps_1pct_low', 'fps_min', 'fps_max'])
      if (typeof r[k] !== 'number' || !isFinite(r[k]) || r[k] < 0) fail(`${what}: JSON ${k} ${JSON.stringify(r[k])}`);
    check(r.rounds === 2 && r.frames === opt.frames && Array.isArray(r.round_fps) && r.round_fps.length === 2,
      `${what}: ${r.rounds} rounds of ${r.frames} frames`, `expected 2 of ${opt.frames}`);
    const crcs = r.round_crc32 || [];
    check(crcs.length === 2 && crcs.every((c) => c === r.crc32), `${what}: every round's water crc32 ${r.crc32}`,
      `rounds ${JSON.stringify(crcs)}`);
    if (want) check(r.crc32 === want, `${what}: crc32 ${r.crc32} is the native busy-2's`, `expected ${want}`);
    const fpss = Array.isArray(r.round_fps) ? r.round_fps : [NaN];
    const med = median(fpss), lo = Math.min(...fpss), hi = Math.max(...fpss);
    check(Math.abs(r.median_fps - med) < 1e-6 * med && Math.abs(r.spread - (hi - lo) / (hi + lo) * 100) < 1e-9,
      `${what}: median ${fmt(r.median_fps, 1)} fps, spread \u00b1${fmt(r.spread, 1)}% of the rounds' ${fpss.map((v) => fmt(v, 1)).join(', ')}`,
      `expected median ${med}, spread ${(hi - lo) / (hi + lo) * 100}`);
    check(r.fps_1pct_low > 0, `${what}: 1% low ${fmt(r.fps_1pct_low, 1)} fps`);
    const text = await page.evaluate(`document.getElementById('report').textContent`);
    check(r.noisy === r.spread > 5 && text.includes('noisy: ') === r.noisy &&
      (!r.noisy || text.includes(`noisy: \u00b1${r.spread.toFixed(1)}% between rounds`)),
    `${what}: ${r.noisy ? 'says it is noisy' : 'not noisy'} at a spread of \u00b1${fmt(r.spread, 1)}%`);
    check(text.includes(`share     ${r.share}`), `${what}: the text report ends with the share line`);

    // The share line: the native --share's shape, the report's figures.
    const m = SHARE.exec(r.share || '');
    check(m && m[1] === r.version && m[2] === r.scene && m[5] === mod && Number(m[6]) === Math.round(r.median_fps) &&
      m[7] === r.spread.toFixed(1) && Number(m[8]) === Math.round(r.fps_1pct_low) && m[9] === r.crc32 &&
      /^(HeadlessChrome|Chrome|Chromium) \d+$/.test(m[10]) && /^Linux/.test(m[11]),
    `${what}: share line "${r.share}"`, 'not the report\'s figures in the native shape');

    // The results panel, over the water, with the figures.
    const box = await page.evaluate(BOX('#results'));
    const canvas = await page.evaluate(BOX('#water'));
    check(box && box.shown && canvas && box.left >= canvas.left && box.left + box.width <= canvas.left + canvas.width + 1,
      `${what}: the results panel is shown over the water`, JSON.stringify({ box, canvas }));
    const shown = await page.evaluate(`document.getElementById('results').innerText`);
    const expect = [r.scene, `${r.width}x${r.height}`, `wasm-${mod}`, r.path, `${fmt(r.median_fps, 1)} fps`,
      `${fmt(r.fps_1pct_low, 1)} fps`, r.crc32, `ripple ${r.version}`, m ? m[10] : '?', m ? m[11] : '?'];
    const missing = expect.filter((w) => !shown.includes(w));
    check(missing.length === 0, `${what}: the panel shows scene, size, path, fps, 1% low, crc, browser, OS and version`,
      `missing ${JSON.stringify(missing)} in ${JSON.stringify(shown)}`);
    const field = await page.evaluate(`document.getElementById('share').value`);
    check(field === r.share, `${what}: the panel's field holds the share line`, JSON.stringify(field));
    if (opt.shots) {
      const shot = await screenshot(page, { x: canvas.left, y: canvas.top, width: canvas.width, height: canvas.height });
      fs.mkdirSync(opt.shots, { recursive: true });
      fs.writeFileSync(path.join(opt.shots, `results-${mod}.png`), shot);
      info(`${what}: screenshot in ${path.join(opt.shots, `results-${mod}.png`)}`);
    }

    // "copy result": a real click puts the line on the clipboard.
    const origin = new URL(base).origin;
    await browser.send('Browser.grantPermissions', { origin, permissions: ['clipboardReadWrite', 'clipboardSanitizedWrite'] });
    await page.send('Emulation.setFocusEmulationEnabled', { enabled: true });
    const copy = await page.evaluate(BOX('#copy'));
    await click(page, copy);
    const how = await page.waitFor('window.ripple.copied', { timeout: 5000, what: 'window.ripple.copied' });
    const pasted = await page.evaluate(`navigator.clipboard.readText().catch((e) => '(' + e.message + ')')`);
    check(how === 'clipboard' && pasted === r.share, `${what}: "copy result" put the share line on the clipboard`,
      `copied by ${how}, clipboard ${JSON.stringify(pasted)}`);

    // Without a clipboard that takes it: the line is selected in its field.
    await page.evaluate(`window.ripple.copied = null; document.getElementById('share').blur();` +
      ` navigator.clipboard.writeText = () => Promise.reject(new Error('refused')); true`);
    await click(page, copy);
    const how2 = await page.waitFor('window.ripple.copied', { timeout: 5000, what: 'window.ripple.copied (refused)' });
    const selected = await page.evaluate(`(() => { const f = document.getElementById('share');` +
      ` return document.activeElement === f ? f.value.slice(f.selectionStart, f.selectionEnd) : '(not focused)'; })()`);
    check((how2 === 'selection' || how2 === 'field') && selected === r.share,
      `${what}: with the clipboard refused, the line is selected in its field (${how2})`, `selected ${JSON.stringify(selected)}`);
    return r.crc32;
  } catch (e) {
    fail(`${what}: ${e.message}`);
    return null;
  } finally {
    await page.close();
  }
}

// c. A scene the page does not play, and a bad count: said in the page
// (a warning, not a console error), nothing played.
async function badOptions(browser, base) {
  for (const [q, want] of [['scene=nosuch', 'busy-2, side-3, side-waves-3, busy-1 or side-2'],
    ['scene=side-4', "no timedemo scene 'side-4'"], ['scene=show-1', "the window demo's"],
    ['scene=side-1', 'is retired: side-2 plays the same drops'],
    ['rounds=0', '?rounds= takes']]) {
    const page = await open(browser, `${base}?benchmark&${q}`, `benchmark ${q}`);
    try {
      const e = await page.waitFor(PAGE_ERROR, { timeout: 20000, what: `the page's error for ?${q}` });
      const rep = await page.evaluate('window.rippleReport || null');
      check(e.includes(want) && !rep, `?benchmark&${q}: "${e}"`, `want "${want}" and no report`);
    } catch (err) {
      fail(`?benchmark&${q}: ${err.message}`);
    } finally {
      await page.close();
    }
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

// The page's music (pageMusic), then Tab to the side view: the picture becomes the side
// view's (most pixels change, the sky's blue across the top), its line clear of the
// overlay, the music going on, and with its autoplay off (A) a click drops one body.
async function sideView(browser, base) {
  const page = await open(browser, `${base}?show=0`, 'side view');
  try {
    await page.waitFor(`(${PAGE_ERROR}) ? { error: ${PAGE_ERROR} } : !!(window.ripple && window.ripple.ready && window.ripple.frames > 5)`,
      { timeout: 30000, what: 'the pool drawing', stop: stopper(page) });
    await pageMusic(page);
    await page.evaluate(PROBE);
    await probe(page, 'keep');
    const key = (k, code, vk) => pressKey(page, k, code, vk);
    await key('Tab', 'Tab', 9);
    await page.waitFor(`(${PAGE_ERROR}) ? { error: ${PAGE_ERROR} } : window.ripple.view === 'side' && window.ripple.bodies >= 0`,
      { timeout: 20000, what: "window.ripple.view === 'side'", stop: stopper(page) });
    await waitFrames(page, 5, 'the side view');
    const p = await probe(page, 'compare');
    // The top row's mean colour: the side view's sky is blue (the pool's picture is not).
    const top = await page.evaluate(`(() => { const c = document.querySelector('canvas'); const o = document.createElement('canvas');` +
      ` o.width = c.width; o.height = 8; const g = o.getContext('2d'); g.drawImage(c, 0, 0);` +
      ` const d = g.getImageData(0, 0, c.width, 8).data; let r = 0, b = 0; for (let i = 0; i < d.length; i += 4) { r += d[i]; b += d[i + 2]; }` +
      ` return { r: r / (d.length / 4), b: b / (d.length / 4) }; })()`);
    check(p.changed > 0.5 && top.b > top.r + 40,
      `Tab: the side view shown (${pct(p.changed)} of the pixels changed; the top's mean red ${fmt(top.r, 0)}, blue ${fmt(top.b, 0)})`,
      'want over half the pixels changed and a blue sky at the top');
    // its line at the top, clear of the overlay's lines (the side view's, once they come)
    await page.waitFor(`/side view, /.test(document.getElementById('overlay').textContent)`, { timeout: 5000, what: "the overlay's side view lines" });
    const note = await page.evaluate(BOX('#note')), over = await page.evaluate(BOX('#overlay'));
    const noteText = await page.evaluate(`document.getElementById('note').textContent`);
    check(/^side view/.test(noteText) && note.shown && over.shown && (note.top >= over.top + over.height || note.left >= over.left + over.width),
      `Tab: "${noteText}" clear of the overlay (the note at y ${fmt(note.top, 0)}, the overlay's last line above ${fmt(over.top + over.height, 0)})`,
      JSON.stringify({ note, over }));
    if (opt.shots) {
      const rect = await page.evaluate(BOX('#water'));
      fs.mkdirSync(opt.shots, { recursive: true });
      fs.writeFileSync(path.join(opt.shots, 'side.png'), await screenshot(page, { x: rect.left, y: rect.top, width: rect.width, height: rect.height }));
      info(`side view: screenshot in ${path.join(opt.shots, 'side.png')}`);
    }
    const m0 = await page.evaluate(`({ music: ripple.music, at: ripple.musicAt })`);
    await key('a', 'KeyA', 65); // autoplay off: only the click drops
    await page.waitFor(`!/\bauto\b/.test(document.getElementById('overlay').textContent)`, { timeout: 5000, what: 'autoplay off' });
    // the count comes with the figures, 4 times a second: read once it holds still
    await sleep(600);
    const b0 = await page.evaluate('window.ripple.bodies');
    const box = await page.evaluate(BOX('#water'));
    await click(page, { x: box.left + box.width * 0.7, y: box.top + box.height * 0.1 });
    const b1 = await page.waitFor(`window.ripple.bodies > ${b0} ? window.ripple.bodies : null`, { timeout: 5000, what: 'a body more' })
      .catch(() => null);
    await sleep(600);
    const b2 = await page.evaluate('window.ripple.bodies');
    check(b1 === b0 + 1 && b2 === b1, `side view: a click drops a body (bodies ${b0} -> ${b2})`, `want ${b0 + 1}, got ${b1} then ${b2}`);
    const m = await page.evaluate(`({ music: ripple.music, at: ripple.musicAt })`);
    check(m.music === 'on' && m.at > m0.at, `side view: the music goes on (${m0.at} to ${m.at} frames into its loop)`, JSON.stringify({ m0, m }));
    await key('Tab', 'Tab', 9);
    await page.waitFor(`window.ripple.view === 'pool'`, { timeout: 5000, what: "window.ripple.view === 'pool'" });
    ok('Tab again: the pool');
  } catch (e) {
    fail(`side view: ${e.message}`);
  } finally {
    await page.close();
  }
}

// The sound of the default show and score, as the window mixes it, with each module:
// the native demo's bytes (its CRC over the same steps).
async function musicCrc(browser, base) {
  const page = await open(browser, `${base}embed.html?attach=0`, 'music');
  try {
    for (const mod of ['simd', 'scalar']) {
      const what = `music ${mod}`;
      try {
        const r = await page.evaluate(musicExpr(mod, opt.musicSteps), { timeout: 60000 });
        check(r.crc === opt.musicCrc, `${what}: ${opt.musicSteps} steps of the default show's drips and score: crc32 ${r.crc}` +
          `${r.crc === opt.musicCrc ? ", the native demo's" : ''} (${fmt(r.ms, 0)} ms)`, `the native demo's is ${opt.musicCrc}`);
      } catch (e) {
        fail(`${what}: ${e.message}`);
      }
    }
  } finally {
    await page.close();
  }
}

const pressKey = async (page, k, code, vk) => {
  for (const type of ['keyDown', 'keyUp'])
    await page.send('Input.dispatchKeyEvent', { type, key: k, code, windowsVirtualKeyCode: vk, text: type === 'keyDown' && k.length === 1 ? k : undefined });
};

// The demo page plays the default score: before any gesture, unheard, it keeps the
// water's time step for step (a step's sound, rate / 60 frames, after each step); U
// (a gesture, which starts the sound) turns it off and on again, said in the note and
// the overlay, and it stays near the water's time once heard.  On a page just loaded.
async function pageMusic(page) {
  const STEP = 48000 / 60; // the page's rate over the steps a second
  try {
    await page.waitFor(`(${PAGE_ERROR}) ? { error: ${PAGE_ERROR} } : window.ripple.ready && window.ripple.music !== 'none' && window.ripple.steps > 30`,
      { timeout: 30000, what: 'the page playing its music', stop: stopper(page) });
    const r = await page.evaluate(`({ music: ripple.music, at: ripple.musicAt, steps: ripple.steps })`);
    check(r.music === 'on' && r.at === r.steps * STEP, `the page's music: the default score, ${r.at} frames in after ${r.steps} steps, ` +
      'unheard before a gesture: in step with the water', JSON.stringify(r));
    const said = async (text) => page.waitFor(`document.getElementById('note').textContent === ${JSON.stringify(text)} &&` +
      ` window.ripple.music === ${JSON.stringify(text === 'music off' ? 'off' : 'on')} &&` +
      ` / music${text === 'music off' ? ' off' : ''}$/.test(document.getElementById('overlay').textContent) && true`,
    { timeout: 5000, what: `the note and the overlay saying ${text}` }).then(() => true, () => false);
    await pressKey(page, 'u', 'KeyU', 85);
    check(await said('music off'), 'U: the music off (the note, the overlay)');
    await pressKey(page, 'u', 'KeyU', 85);
    check(await said('music on'), 'U again: the music on');
    await sleep(500);
    const h = await page.evaluate(`({ at: ripple.musicAt, steps: ripple.steps, sound: document.getElementById('overlay').textContent.split('\\n').pop() })`);
    const off = (h.at - h.steps * STEP) / 48000;
    check(Math.abs(off) < 1 && /(^|  )sound  music$/.test(h.sound), `heard (the overlay's "${h.sound}"): the music ${fmt(off, 3)} s from the water's time`,
      'want within a second of it');
  } catch (e) {
    fail(`the page's music: ${e.message}`);
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

    // busy-2's water: the native one's when given, else the first module's,
    // which the other must then reach.
    let busy2 = opt.crc2 || null;
    const parts = [
      ['rounds simd', async () => {
        const crc = await rounds(browser, url, 'simd', busy2);
        busy2 = busy2 || crc;
      }],
      ['busy-1 simd', () => benchmark(browser, url, 'simd', 'busy-1', opt.crc)],
      ['busy-1 scalar', () => benchmark(browser, url, 'scalar', 'busy-1', opt.crc)],
      ['busy-2 scalar', () => benchmark(browser, url, 'scalar', 'busy-2', busy2)],
      ['bad options', () => badOptions(browser, url)],
      ['calm water and click', () => calm(browser, url)],
      ['side-3 scalar', () => benchmark(browser, url, 'scalar', 'side-3', opt.sideCrc, opt.sideFrames)],
      ['side-waves-3 simd', () => benchmark(browser, url, 'simd', 'side-waves-3', opt.wavesCrc, opt.sideFrames)],
      ['music and the side view', () => sideView(browser, url)],
    ];
    if (opt.musicCrc)
      parts.splice(4, 0, ['music crc', () => musicCrc(browser, url)]);
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
