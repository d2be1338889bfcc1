// bench/web.mjs - the page against the native demo, measured back to back in one run: the timedemo's CPU a frame (native sse2 against the SIMD module in a headless Chromium), and the main thread's CPU a frame while the page plays.
//
// usage: node --experimental-websocket bench/web.mjs [--dir build/web] [--native ./ripple]
//                                             [--frames 2000] [--rounds 3] [--seconds 5] [--json]
//
// 1. busy-1, --frames frames, --rounds times in turn: the native demo's
//    --benchmark --headless on the sse2 path with one thread (its CPU
//    a frame of stones, step and refraction), then the page's ?benchmark
//    with the SIMD module, in its worker and on the main thread
//    (&worker=0): its step and refraction a frame, timed in the page with
//    nothing else running on that thread, so wall time is CPU time; and
//    on the main thread its whole CPU a frame, read from the DevTools
//    protocol, which has putImageData and the browser's drawing too.
//    Medians of the rounds, and their ratios.
// 2. The page playing at the display's pace (60 fps in headless Chromium):
//    the default show, calm water (?show=0), and the show with the pool on
//    the main thread (?worker=0), --seconds each after two to settle: the
//    main thread's CPU a frame (Performance.getMetrics, TaskDuration over
//    window.ripple.frames), its script part and the rest.
// Timings on a shared machine vary: read the ratios of one run, not
// figures from two runs.

import { execFileSync } from 'node:child_process';
import { serve } from '../src/web/serve.mjs';
import { launch, sleep, webSocketClass } from '../tests/web/cdp.mjs';

const USAGE =
  'usage: node --experimental-websocket bench/web.mjs [--dir DIR] [--native DEMO] [--frames N] [--rounds N] [--seconds S] [--json]';

function usage(msg) {
  console.error(`bench/web: ${msg}\n${USAGE}`);
  process.exit(2);
}

function parseArgs(argv) {
  const o = { dir: 'build/web', native: './ripple', frames: 2000, rounds: 3, seconds: 5, json: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => (i + 1 < argv.length ? argv[++i] : usage(`${a} wants a value`));
    const int = (lo, hi) => {
      const s = val();
      if (!/^\d+$/.test(s) || +s < lo || +s > hi) usage(`bad ${a} '${s}': want a whole number ${lo}..${hi}`);
      return +s;
    };
    if (a === '--dir') o.dir = val();
    else if (a === '--native') o.native = val();
    else if (a === '--frames') o.frames = int(10, 1000000);
    else if (a === '--rounds') o.rounds = int(1, 100);
    else if (a === '--seconds') o.seconds = int(1, 600);
    else if (a === '--json') o.json = true;
    else if (a === '-h' || a === '--help') {
      console.log(USAGE);
      process.exit(0);
    } else usage(`unknown argument '${a}'`);
  }
  return o;
}

const opt = parseArgs(process.argv.slice(2));
if (!webSocketClass()) usage('no WebSocket in this node: run node 20 with --experimental-websocket, or install node-ws');

const median = (v) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const f3 = (x) => x.toFixed(3);

// The native timedemo's report, as JSON.
function native() {
  const out = execFileSync(
    opt.native,
    ['--benchmark', '--headless', '--simd', 'sse2', '--threads', '1', '--frames', String(opt.frames), '--json'],
    { encoding: 'utf8' },
  );
  const j = JSON.parse(out.trim().split('\n').pop());
  const c = j.cpu_ms_per_frame;
  return { crc: j.crc32, path: j.path, work: c.stones + c.step + c.refract, main: c.main_thread };
}

async function metrics(page) {
  const { metrics: m } = await page.send('Performance.getMetrics');
  return Object.fromEntries(m.map((x) => [x.name, x.value]));
}

// The page's timedemo with the SIMD module.
async function page(browser, url, query = '') {
  const p = await browser.newPage();
  try {
    await p.send('Performance.enable', { timeMode: 'threadTicks' });
    const m0 = await metrics(p);
    await p.goto(`${url}?benchmark=${opt.frames}&module=simd${query}`, { timeout: 30000 });
    const r = await p.waitFor(
      '(window.ripple && window.ripple.error) ? { error: window.ripple.error } : (window.rippleReport || false)',
      { timeout: 120000, what: 'window.rippleReport' },
    );
    if (r.error) throw new Error(`the page: ${r.error}`);
    const m1 = await metrics(p);
    const ms = r.ms_per_frame;
    return {
      crc: r.crc32,
      path: r.path,
      work: ms.step + ms.refract,
      present: ms.present,
      main: ((m1.TaskDuration - m0.TaskDuration) * 1000) / r.frames,
    };
  } finally {
    await p.close();
  }
}

// The page playing: the main thread's CPU a frame over opt.seconds.
async function playing(browser, url, query) {
  const p = await browser.newPage();
  try {
    await p.send('Performance.enable', { timeMode: 'threadTicks' });
    await p.goto(url + query, { timeout: 30000 });
    await p.waitFor('!!(window.ripple && window.ripple.ready === true)', { timeout: 30000, what: 'the page ready' });
    await sleep(2000);
    const sample = async () => {
      const [m, frames] = await Promise.all([metrics(p), p.evaluate('window.ripple.frames')]);
      return { t: Date.now(), frames, m };
    };
    const a = await sample();
    await sleep(opt.seconds * 1000);
    const b = await sample();
    const n = b.frames - a.frames;
    if (!(n > 0)) throw new Error(`no frames drawn in ${opt.seconds} s`);
    const per = (k) => ((b.m[k] - a.m[k]) * 1000) / n;
    return {
      fps: (n * 1000) / (b.t - a.t),
      main: per('TaskDuration'),
      script: per('ScriptDuration'),
      other: per('TaskOtherDuration'),
    };
  } finally {
    await p.close();
  }
}

async function main() {
  const { server, url } = await serve(opt.dir, 0);
  const browser = await launch();
  const result = { frames: opt.frames, rounds: [] };
  try {
    const version = await browser.send('Browser.getVersion').catch(() => ({}));
    result.browser = version.product || 'chromium';
    for (let i = 0; i < opt.rounds; i++) {
      const n = native();
      const w = await page(browser, url);
      const m = await page(browser, url, '&worker=0');
      for (const x of [w, m])
        if (n.crc !== x.crc) throw new Error(`the water's CRC differs: native ${n.crc}, page ${x.crc}`);
      result.rounds.push({ native: n, page: w, in_page: m });
      if (!opt.json)
        console.log(
          `round ${i + 1}: native ${n.path} ${f3(n.work)} ms cpu/frame; page ${w.path} in a worker ${f3(w.work)} ms ` +
            `(+ putImageData ${f3(w.present)}); on the main thread ${f3(m.work)} ms, its whole CPU ` +
            `${f3(m.main)} ms/frame; crc32 ${n.crc}`,
        );
    }
    const nat = median(result.rounds.map((r) => r.native.work));
    const web = median(result.rounds.map((r) => r.page.work));
    const inPage = median(result.rounds.map((r) => r.in_page.work));
    const main = median(result.rounds.map((r) => r.in_page.main));
    result.native_ms = nat;
    result.page_ms = web;
    result.in_page_ms = inPage;
    result.in_page_main_ms = main;
    result.ratio = web / nat;
    result.show = await playing(browser, url, '');
    result.calm = await playing(browser, url, '?show=0');
    result.show_in_page = await playing(browser, url, '?worker=0');
    if (opt.json) {
      console.log(JSON.stringify(result));
    } else {
      console.log(`${result.browser}, busy-1, ${opt.frames} frames, medians of ${opt.rounds} rounds at 640x480, one thread:`);
      console.log(`  native sse2    ${f3(nat)} ms cpu/frame (stones, step, refraction)`);
      console.log(`  page simd      ${f3(web)} ms/frame (the same, in the worker), ${f3(web / nat)}x native`);
      console.log(`  ?worker=0      ${f3(inPage)} ms/frame (the same, on the main thread), ${f3(inPage / nat)}x native;` +
        ` the main thread's whole CPU ${f3(main)} ms/frame (putImageData and the browser's drawing too)`);
      for (const [name, s] of [['show playing', result.show], ['calm water', result.calm],
        ['show, ?worker=0', result.show_in_page]])
        console.log(`  ${name.padEnd(15)} ${s.fps.toFixed(1)} fps, main thread ${f3(s.main)} ms cpu/frame ` +
          `(script ${f3(s.script)}, the browser's other tasks ${f3(s.other)})`);
    }
  } finally {
    await browser.close();
    server.close();
    server.closeAllConnections?.();
  }
}

main().catch((e) => {
  console.error(`bench/web: ${e.message}`);
  process.exit(1);
});
