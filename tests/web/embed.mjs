// tests/web/embed.mjs - the component (ripple-water.js) in headless Chromium (DevTools protocol) and Firefox ESR (WebDriver BiDi): the hero example, the cases of embed-cases.js at pixel ratios 1 and 2, a file:// page, its music option, and in Firefox the timedemo's CRCs and the sound with the music with both modules.
//
// Usage: node --experimental-websocket tests/web/embed.mjs --dir build/web [--crc X --crc2 X]
//            [--browsers chromium,firefox] [--shots DIR] [--timeout S] [--verbose]
// --crc and --crc2 are the native busy-1's and busy-2's water after 2000 frames;
// --side-crc the native side-3's state and picture after --side-frames frames
// (the Firefox timedemo checks are skipped without them); --music-crc the native
// demo's sound of --music-steps steps of the default show and score (music-crc.js).  Prints "ok  ..." or
// "FAIL ..." a check and the time each part took; exit 0 when all passed.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../../src/web/serve.mjs';
import { launch, webSocketClass } from './cdp.mjs';
import { launchFirefox } from './bidi.mjs';
import { musicExpr } from './music-page.mjs';

const USAGE = 'usage: node --experimental-websocket tests/web/embed.mjs --dir DIR [--crc X --crc2 X] ' +
  '[--side-crc X --side-frames N] [--music-crc X --music-steps N] ' +
  '[--browsers chromium,firefox] [--shots DIR] [--timeout S] [--verbose]';
const o = { browsers: 'chromium,firefox', timeout: 300, verbose: false };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i], v = () => {
    if (i + 1 >= argv.length) { console.error(`embed: ${a} needs a value\n${USAGE}`); process.exit(2); }
    return argv[++i];
  };
  if (a === '--dir') o.dir = v();
  else if (a === '--crc') o.crc = v();
  else if (a === '--crc2') o.crc2 = v();
  else if (a === '--side-crc') o.sideCrc = v();
  else if (a === '--side-frames') o.sideFrames = Number(v());
  else if (a === '--music-crc') o.musicCrc = v().toLowerCase();
  else if (a === '--music-steps') o.musicSteps = Number(v());
  else if (a === '--browsers') o.browsers = v();
  else if (a === '--shots') o.shots = v();
  else if (a === '--timeout') o.timeout = Number(v());
  else if (a === '--verbose') o.verbose = true;
  else { console.error(`embed: unknown argument ${a}\n${USAGE}`); process.exit(2); }
}
if (!o.dir || !fs.existsSync(path.join(o.dir, 'embed.html'))) {
  console.error(`embed: --dir must be the built page (with embed.html)\n${USAGE}`);
  process.exit(2);
}
if (!webSocketClass()) {
  console.error('embed: no WebSocket in this node: node 20 needs --experimental-websocket, or install node-ws');
  process.exit(2);
}

const here = path.dirname(fileURLToPath(import.meta.url));
const CASES = fs.readFileSync(path.join(here, 'embed-cases.js'), 'utf8');
let passes = 0, failures = 0;
const ok = (m) => { passes++; console.log(`ok  ${m}`); };
const fail = (m) => { failures++; console.log(`FAIL ${m}`); };
const info = (m) => console.log(`    ${m}`);
const times = [];
async function timed(part, fn) {
  const t0 = Date.now();
  try {
    return await fn();
  } catch (e) {
    fail(`${part}: ${e.message}`);
    return undefined;
  } finally {
    times.push(`${part} ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
}

// One browser behind the same three calls: load(url, dpr), evaluate(expr), close().
async function chromium() {
  const b = await launch({ verbose: o.verbose });
  const v = await b.send('Browser.getVersion').catch(() => ({}));
  let page = null;
  return {
    name: 'chromium', version: v.product || 'chromium', startMs: b.startMs, errors: [],
    async load(url, dpr) {
      if (page) await page.close();
      page = await b.newPage();
      page.on('Runtime.exceptionThrown', (p) => this.errors.push(p.exceptionDetails?.exception?.description?.split('\n')[0] || 'exception'));
      page.on('Runtime.consoleAPICalled', (p) => {
        if (p.type === 'error') this.errors.push((p.args || []).map((x) => x.value ?? x.description).join(' '));
      });
      await page.send('Emulation.setDeviceMetricsOverride', { width: 800, height: 600, deviceScaleFactor: dpr, mobile: false });
      await page.goto(url);
    },
    ratio: (dpr) => page.send('Emulation.setDeviceMetricsOverride', { width: 800, height: 600, deviceScaleFactor: dpr, mobile: false }),
    async evaluate(expr, timeout = 60000) {
      const v = await page.evaluate(`(async () => JSON.stringify(await (${expr})))()`, { timeout });
      return v === undefined ? undefined : JSON.parse(v);
    },
    async shot(file) {
      const r = await page.send('Page.captureScreenshot', { format: 'png' });
      fs.writeFileSync(file, Buffer.from(r.data, 'base64'));
    },
    close: () => b.close(),
  };
}

async function firefox() {
  const b = await launchFirefox({ verbose: o.verbose });
  const errors = [];
  b.on('log.entryAdded', (e) => {
    if (e.level === 'error') errors.push(e.text);
  });
  return {
    name: 'firefox', version: b.version, startMs: b.startMs, errors,
    async load(url, dpr) {
      await b.viewport(800, 600, dpr);
      await b.goto(url);
    },
    evaluate: (expr, timeout = 60000) => b.evaluate(expr, { timeout }),
    ratio: (dpr) => b.viewport(800, 600, dpr),
    async shot(file) {
      const r = await b.send('browsingContext.captureScreenshot', { context: b.context });
      fs.writeFileSync(file, Buffer.from(r.data, 'base64'));
    },
    close: () => b.close(),
  };
}

async function waitFor(br, expr, ms, what) {
  const t0 = Date.now();
  for (;;) {
    const v = await br.evaluate(expr);
    if (v) return v;
    if (Date.now() - t0 > ms) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// The hero example as it is shipped: the module's three lines on a CSS background.
async function hero(br, url) {
  await br.load(`${url}embed.html`, 1);
  const r = await waitFor(br, `window.hero && window.hero.frames > 10 && { pool: window.hero.pool, worker: window.hero.inWorker,` +
    ` inHero: document.querySelector('.hero > canvas') === window.hero.canvas, live: RippleWater.live() }`, 30000, 'window.hero drawing');
  const hw = await br.evaluate(`[document.querySelector('.hero').clientWidth, document.querySelector('.hero').clientHeight]`);
  (r.inHero && r.pool.width === hw[0] && r.pool.height === hw[1] ? ok : fail)(
    `${br.name}: embed.html: the hero's water, pool ${r.pool.width}x${r.pool.height} for a ${hw[0]}x${hw[1]} element, ${r.worker ? 'in a worker' : 'on the main thread'}`);
  if (o.shots) {
    fs.mkdirSync(o.shots, { recursive: true });
    await br.shot(path.join(o.shots, `embed-${br.name}.png`));
    info(`${br.name}: screenshot in ${path.join(o.shots, `embed-${br.name}.png`)}`);
  }
}

async function cases(br, url, dpr, worker) {
  await br.load(`${url}embed.html?attach=0`, dpr);
  await waitFor(br, `typeof window.RippleWater === 'object'`, 10000, 'window.RippleWater');
  let r;
  try {
    r = await br.evaluate(`(${CASES.replace(/^\/\/.*\n/gm, '')})(${JSON.stringify({ dpr, worker })})`, 60000);
  } catch (e) {
    const at = await br.evaluate('window.__embedStep || null', 5000).catch(() => '?');
    throw new Error(`${e.message} (at "${at}")`);
  }
  for (const [good, text] of r.checks) (good ? ok : fail)(`${br.name}: ${text}`);
  for (const t of r.info) info(`${br.name}: ${t}`);
}

// resolution 'device': the pool follows a change of the pixel ratio while it plays.
async function ratioChange(br, url) {
  await br.load(`${url}embed.html?attach=0`, 1);
  await waitFor(br, `typeof window.RippleWater === 'object'`, 10000, 'window.RippleWater');
  const p1 = await br.evaluate(`(async () => { const d = document.createElement('div');` +
    ` d.style.cssText = 'width:300px;height:200px;background:url(background.png) center/cover'; document.body.prepend(d);` +
    ` window.wd = await RippleWater.attach(d, { resolution: 'device' }); return wd.pool; })()`);
  await br.ratio(2);
  const p2 = await waitFor(br, `window.devicePixelRatio === 2 && wd.pool.width === 600 && wd.pool`, 15000, 'the pool at pixel ratio 2')
    .catch(async (e) => ({ error: e.message, pool: await br.evaluate('[wd.pool, devicePixelRatio]') }));
  (p1.width === 300 && p2.width === 600 && p2.height === 400 ? ok : fail)(
    `${br.name}: resolution 'device': pool ${p1.width}x${p1.height} at pixel ratio 1, ` +
    `${p2.error ? JSON.stringify(p2) : `${p2.width}x${p2.height}`} once the ratio is 2`);
}

// The page's timedemo: a scene's water (or the side view's state) after frames frames
// with one module.
async function timedemo(br, url, mod, scene, want, frames = 2000) {
  await br.load(`${url}index.html?benchmark=${frames}&scene=${scene}&module=${mod}`, 1);
  const r = await waitFor(br, `window.rippleReport ? { crc: rippleReport.crc32, fps: rippleReport.fps, path: rippleReport.path,` +
    ` worker: rippleReport.in_worker } : (window.ripple && window.ripple.error ? { error: window.ripple.error } : null)`,
  90000, `${scene} ${mod}'s report`);
  if (r.error) return fail(`${br.name}: ${mod} ${scene}: ${r.error}`);
  (r.crc === want ? ok : fail)(`${br.name}: ${mod} ${scene}: crc32 ${r.crc}${r.crc === want ? ", the native demo's" : `, native ${want}`} ` +
    `(${r.fps.toFixed(0)} fps, path ${r.path}, ${r.worker ? 'in a worker' : 'on the main thread'})`);
}

// The sound of the default show and score with each module: the native demo's bytes.
async function musicCrc(br, url) {
  await br.load(`${url}embed.html?attach=0`, 1);
  for (const mod of ['simd', 'scalar']) {
    const r = await br.evaluate(musicExpr(mod, o.musicSteps), 60000);
    (r.crc === o.musicCrc ? ok : fail)(`${br.name}: music ${mod}: ${o.musicSteps} steps of the default show's drips and score: ` +
      `crc32 ${r.crc}${r.crc === o.musicCrc ? ", the native demo's" : `, native ${o.musicCrc}`} (${r.ms.toFixed(0)} ms)`);
  }
}

// The music option: the bundled score with the sound by default, none without the
// sound or with 'off', a score refused said in one line (the error event) while the
// water plays on, set('music') off and on, and a score that comes with the sound.
const MUSIC_CASES = `(async () => {
  const until = async (fn, what) => {
    for (let t0 = performance.now(); ; await new Promise((r) => setTimeout(r, 20))) {
      const v = fn();
      if (v !== undefined) return v;
      if (performance.now() - t0 > 15000) throw new Error('waited for ' + what);
    }
  };
  const make = async (opts) => {
    const d = document.createElement('div');
    d.style.cssText = 'width:160px;height:100px;background:#123 url(background.png) center/cover';
    document.body.prepend(d);
    const said = [];
    d.addEventListener('error', (e) => said.push(e.detail.message));
    const x = { said, music: undefined };
    x.w = await RippleWater.attach(d, { ...opts, on: (t, m) => { if (t === 'stats') x.music = m.music; } });
    x.seen = () => { x.music = undefined; return until(() => x.music, 'the figures'); };
    return x;
  };
  // side by side: each waits for its own figures
  const [bad, def, none, later] = await Promise.all([
    make({ sound: true, music: 'ripple-music 1\\ntempo 96 4 4\\nbogus 1\\n' }), make({ sound: true }),
    make({ sound: true, music: 'off' }), make({})]);
  const r = {};
  [r.bad, r.def, r.none, r.silent] = await Promise.all([bad.seen(), def.seen(), none.seen(), later.seen()]);
  r.bad = { said: bad.said, music: r.bad, frames: bad.w.frames };
  [r.off, r.later] = await Promise.all([def.w.set('music', 'off'), later.w.set('sound', true)]);
  r.on = await def.w.set('music', null);
  r.laterSeen = await later.seen();
  for (const x of [bad, def, none, later]) x.w.destroy();
  return r;
})()`;

async function musicOption(br, url) {
  await br.load(`${url}embed.html?attach=0`, 1);
  await waitFor(br, `typeof window.RippleWater === 'object'`, 10000, 'window.RippleWater');
  const r = await br.evaluate(MUSIC_CASES, 60000);
  const said = r.bad.said.join(' | ');
  (r.bad.said.length === 1 && /^ripple-water: the music did not load: score:3:1: .*bogus/.test(said) && r.bad.music === 'none' ?
    ok : fail)(`${br.name}: music: a score refused: "${said}", no music, the water plays (${r.bad.frames} frames)`);
  (r.def === 'on' ? ok : fail)(`${br.name}: music: the bundled default.score with the sound (${r.def})`);
  (r.off && r.off.on === false && r.off.score && r.on && r.on.on && r.on.score ? ok : fail)(
    `${br.name}: music: set('music', 'off') and set('music', null): ${JSON.stringify([r.off, r.on])}`);
  (r.none === 'none' && r.silent === 'none' && r.later && r.later.score && r.laterSeen === 'on' ? ok : fail)(
    `${br.name}: music: none with music 'off' (${r.none}) or without the sound (${r.silent}); the score comes with ` +
    `set('sound', true) (${r.laterSeen})`);
}

// A page opened from a file: a clear message (a console error and the error event).
async function fromFile(br) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ripple-file-'));
  const script = path.resolve(o.dir, 'ripple-water.classic.js');
  const page = path.join(dir, 'page.html');
  fs.writeFileSync(page, `<!doctype html><div id="x" style="width:200px;height:100px"></div>` +
    `<script src="file://${script}"></script><script>window.said = null;` +
    `document.getElementById('x').addEventListener('error', (e) => { window.said = e.detail.message; });` +
    `window.done = RippleWater.attach(document.getElementById('x')).then(() => 'attached', (e) => e.message);</script>`);
  try {
    const n0 = br.errors.length;
    await br.load(`file://${page}`, 1);
    const r = await br.evaluate(`window.done.then((m) => ({ m, said: window.said, live: RippleWater.live() }))`);
    const logged = br.errors.slice(n0).some((t) => /file:\/\//.test(t));
    (/file:\/\/.*serve the folder over http/.test(r.m) && r.said === r.m && logged && r.live.canvases === 0 ? ok : fail)(
      `${br.name}: a file:// page: attach rejects, the error event and a console error say "${r.m}"`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function run(kind, url) {
  let br;
  try {
    br = await timed(`${kind} start`, () => (kind === 'firefox' ? firefox() : chromium()));
    if (!br) return;
    info(`${kind}: ${br.version} started in ${br.startMs} ms`);
    await timed(`${kind} hero`, () => hero(br, url));
    await timed(`${kind} dpr 1`, () => cases(br, url, 1, true));
    await timed(`${kind} dpr 2`, () => cases(br, url, 2, true));
    await timed(`${kind} main thread`, () => cases(br, url, 1, false));
    await timed(`${kind} file://`, () => fromFile(br));
    await timed(`${kind} ratio change`, () => ratioChange(br, url));
    await timed(`${kind} music option`, () => musicOption(br, url));
    if (kind === 'firefox' && o.musicCrc)
      await timed('firefox music crc', () => musicCrc(br, url));
    if (kind === 'firefox' && o.crc && o.crc2)
      await timed('firefox timedemo', async () => {
        for (const mod of ['simd', 'scalar'])
          for (const [scene, want] of [['busy-2', o.crc2], ['busy-1', o.crc]])
            await timedemo(br, url, mod, scene, want);
        if (o.sideCrc) // the side view: its engine and Chipmunk2D are the same C in both modules
          await timedemo(br, url, 'simd', 'side-3', o.sideCrc, o.sideFrames || 1000);
      });
    const errs = br.errors.filter((t) => !/no-such-picture|file:\/\//.test(t));
    (errs.length === 0 ? ok : fail)(`${kind}: no console errors or exceptions but the ones asked for` +
      (errs.length ? `: ${errs.join(' | ')}` : ''));
  } finally {
    if (br) await timed(`${kind} close`, () => br.close());
  }
}

const t0 = Date.now();
const watchdog = setTimeout(() => {
  console.log(`FAIL the whole run took over ${o.timeout} s; stopped`);
  process.exit(1);
}, o.timeout * 1000);
watchdog.unref();
const { server, url } = await serve(o.dir, 0);
try {
  // The browsers side by side: each spends much of its run waiting (frames to come,
  // a pause held), the other's work fills it.  Each line names its browser.
  await Promise.all(o.browsers.split(',').map((kind) => run(kind, url)));
} finally {
  server.close();
  server.closeAllConnections?.();
}
info(`times: ${times.join(', ')}; total ${((Date.now() - t0) / 1000).toFixed(1)} s`);
console.log(`${failures ? 'FAIL' : 'ok  '} embed: ${passes} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
