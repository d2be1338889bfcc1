// bench/web-peer.mjs - ripple's component beside jquery.ripples 0.6.3 in one run: CPU of every browser process a displayed frame, and fps, in headless Chromium with WebGL on SwiftShader and with software compositing.
//
// usage: node --experimental-websocket bench/web-peer.mjs [--dir build/web] [--peer build/web-peer]
//            [--seconds 20] [--runs 3] [--docs docs/web.md | --no-docs] [--json]
//
// --peer is the folder where `make bench-web-peer` put jquery and
// jquery.ripples with npm (its node_modules); the page measured, our own,
// is written into PEER/site beside copies of both libraries, the
// component's files from --dir and the picture, so that one server gives
// everything from one origin (jquery.ripples reads its picture into a
// WebGL texture, which a cross-origin picture would refuse).
//
// Each measurement has a browser of its own: a 640x480 element with the
// picture as its CSS background, the water attached to it, and a drop
// every 100 ms from one fixed schedule through each one's API.  After 2 s
// to settle, over --seconds: the change of utime+stime (/proc/PID/stat) of
// every process of the browser's tree, divided by the frames displayed
// (the component's own counter for ripple, requestAnimationFrame's for
// jquery.ripples, which draws once in each), and fps.  The three columns
// in turn, --runs times, in each configuration; the table has the medians
// and goes into --docs between "<!-- peer: begin -->" and "<!-- peer: end -->".

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve } from '../src/web/serve.mjs';
import { launch, sleep, webSocketClass } from '../tests/web/cdp.mjs';

const USAGE =
  'usage: node --experimental-websocket bench/web-peer.mjs [--dir DIR] [--peer DIR] [--seconds S] [--runs N] ' +
  '[--docs FILE | --no-docs] [--json]';

function usage(msg) {
  console.error(`bench/web-peer: ${msg}\n${USAGE}`);
  process.exit(2);
}

function parseArgs(argv) {
  const o = { dir: 'build/web', peer: 'build/web-peer', seconds: 20, runs: 3, docs: 'docs/web.md', json: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => (i + 1 < argv.length ? argv[++i] : usage(`${a} wants a value`));
    const int = (lo, hi) => {
      const s = val();
      if (!/^\d+$/.test(s) || +s < lo || +s > hi) usage(`bad ${a} '${s}': want a whole number ${lo}..${hi}`);
      return +s;
    };
    if (a === '--dir') o.dir = val();
    else if (a === '--peer') o.peer = val();
    else if (a === '--seconds') o.seconds = int(1, 600);
    else if (a === '--runs') o.runs = int(1, 15);
    else if (a === '--docs') o.docs = val();
    else if (a === '--no-docs') o.docs = null;
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

const W = 640;
const H = 480;
const WARMUP_MS = 2000;
const BEGIN = '<!-- peer: begin -->';
const END = '<!-- peer: end -->';

// The two configurations: GPU compositing and WebGL on SwiftShader, and
// software compositing.  In both, headless Chromium 156 gives a page WebGL
// on SwiftShader with the float textures jquery.ripples needs (the page
// records the renderer); a browser that does not makes its cells "no WebGL".
const CONFIGS = [
  {
    key: 'swiftshader',
    name: 'WebGL on SwiftShader (`--use-angle=swiftshader`)',
    without: ['--disable-gpu'],
    args: ['--use-angle=swiftshader'],
  },
  { key: 'software', name: 'software compositing (`--disable-gpu`)', without: [], args: [] },
];
const COLUMNS = [
  { key: 'ripple', name: "ripple's component", query: 'lib=ripple' },
  { key: 'jquery', name: 'jquery.ripples (default)', query: 'lib=jquery' },
  { key: 'jquery512', name: 'jquery.ripples (resolution 512)', query: 'lib=jquery&resolution=512' },
  // What any page pays for a frame: the same element with a 2x2 px corner
  // that changes colour each frame, nothing else.  Ripple cannot go below it.
  { key: 'floor', name: 'a 2 px box changing colour (the floor)', query: 'lib=floor' },
];

// The measured page: our own, not the peer's demo.  Both waters get the
// same element, the same picture and the same drops (a fixed sequence of
// places, one every 100 ms), each at a click's strength in its own units.
const PAGE = `<!doctype html>
<!-- written by bench/web-peer.mjs: a ${W}x${H} element with water on it, ripple's component (?lib=ripple) or jquery.ripples (?lib=jquery[&resolution=N]), a drop every 100 ms. -->
<html lang="en">
<head>
<meta charset="utf-8">
<title>ripple beside jquery.ripples</title>
<style>
  html, body { margin: 0; background: #202428; }
  #water { width: ${W}px; height: ${H}px; background: #123 url("background.png") center / cover no-repeat; }
</style>
</head>
<body>
<div id="water"></div>
<script>
  window.peer = { ready: false, error: null, raf: 0, drops: 0, renders: 0, frames: () => 0 };
  (function tick() {
    peer.raf++;
    requestAnimationFrame(tick);
  })();
</script>
<script type="module">
  const q = new URLSearchParams(location.search);
  const lib = q.get('lib');
  const el = document.getElementById('water');
  const load = (src) => new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = src;
    s.onload = resolve;
    s.onerror = () => reject(new Error(src + ' did not load'));
    document.head.append(s);
  });
  // A fixed sequence of drop places (a small LCG), the same for both.
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const start = (drop) => setInterval(() => {
    drop(Math.floor(next() * ${W}), Math.floor(next() * ${H}));
    peer.drops++;
  }, 100);
  try {
    if (lib === 'ripple') {
      const { attach } = await import('./ripple-water.js');
      const w = await attach(el);
      await new Promise((resolve) => {
        const wait = () => (w.frames > 0 ? resolve() : setTimeout(wait, 20));
        wait();
      });
      peer.frames = () => w.frames;
      peer.inWorker = w.inWorker;
      peer.pool = w.pool;
      peer.module = w.module;
      start((x, y) => w.drop(x, y, 20, 0.5));
    } else if (lib === 'jquery') {
      await load('jquery.min.js');
      await load('jquery.ripples.js');
      const res = q.get('resolution');
      // Its own count of the frames it drew, to see that it draws at all.
      const proto = $.fn.ripples.Constructor.prototype;
      const render = proto.render;
      proto.render = function () {
        peer.renders++;
        return render.apply(this, arguments);
      };
      $(el).ripples(res ? { resolution: +res } : {});
      const r = $(el).data('ripples');
      // Ready once its picture is a texture: it then hides the CSS background.
      await new Promise((resolve, reject) => {
        const t0 = performance.now();
        const wait = () => {
          if (r.backgroundWidth > 0 && peer.renders > 0) resolve();
          else if (performance.now() - t0 > 20000) reject(new Error('jquery.ripples never loaded its picture'));
          else setTimeout(wait, 20);
        };
        wait();
      });
      const gl = r.context;
      const info = gl.getExtension('WEBGL_debug_renderer_info');
      peer.renderer = info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);
      peer.frames = () => peer.raf;
      start((x, y) => $(el).ripples('drop', x, y, 20, 0.04));
    } else if (lib === 'floor') {
      const box = document.createElement('div');
      box.style.cssText = 'width:2px;height:2px';
      el.append(box);
      (function paint() {
        box.style.background = 'rgb(' + (peer.raf & 255) + ',0,0)';
        requestAnimationFrame(paint);
      })();
      peer.frames = () => peer.raf;
      start(() => {});
    } else {
      throw new Error('lib=ripple, lib=jquery or lib=floor, got ' + lib);
    }
    peer.ready = true;
  } catch (e) {
    peer.error = String(e && e.message || e);
  }
</script>
</body>
</html>
`;

const median = (v) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// The page's folder: the page, the picture, jquery and jquery.ripples from
// npm, and the component's files, copied afresh each run.
function site() {
  const mods = path.join(opt.peer, 'node_modules');
  const need = [
    [path.join(mods, 'jquery', 'dist', 'jquery.min.js'), 'jquery.min.js'],
    [path.join(mods, 'jquery.ripples', 'dist', 'jquery.ripples.js'), 'jquery.ripples.js'],
  ];
  for (const f of ['ripple-water.js', 'ripple-water.classic.js', 'engine.js', 'ripple-simd.js', 'ripple-simd.wasm',
    'ripple-scalar.js', 'ripple-scalar.wasm', 'background.png'])
    need.push([path.join(opt.dir, f), f]);
  for (const [from] of need) {
    if (!fs.existsSync(from)) {
      const hint = from.startsWith(mods) ? 'make bench-web-peer fetches it with npm' : 'build the page first: make web';
      throw new Error(`${from} is missing (${hint})`);
    }
  }
  const root = path.join(opt.peer, 'site');
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(root, { recursive: true });
  for (const [from, to] of need) fs.copyFileSync(from, path.join(root, to));
  fs.writeFileSync(path.join(root, 'peer.html'), PAGE);
  const ripples = JSON.parse(fs.readFileSync(path.join(mods, 'jquery.ripples', 'package.json'), 'utf8')).version;
  const jquery = JSON.parse(fs.readFileSync(path.join(mods, 'jquery', 'package.json'), 'utf8')).version;
  return { root, ripples, jquery };
}

// Clock ticks of CPU (utime + stime) of every process of the browser: the
// launched process's descendants and its process group.
const TICK_MS = 1000 / 100; // CLK_TCK is 100 on Linux for every architecture we run on
function treeTicks(rootPid) {
  const procs = new Map();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    let s;
    try {
      s = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
    } catch {
      continue; // gone since the listing
    }
    // The command name may hold spaces and parentheses: fields count from the last ')'.
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    procs.set(+d, { ppid: +f[1], pgrp: +f[2], ticks: +f[11] + +f[12] });
  }
  // Which kind of process (--type= in its command line), and the ticks of
  // its threads named DedicatedWorker (ripple's engine runs in one).
  const kind = (pid) => {
    let cmd = '';
    try {
      cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      return 'gone';
    }
    const m = cmd.match(/--type=([\w-]+)/);
    return m ? m[1] : 'browser';
  };
  const workerTicks = (pid) => {
    let t = 0;
    let tids = [];
    try {
      tids = fs.readdirSync(`/proc/${pid}/task`);
    } catch {
      return 0;
    }
    for (const tid of tids) {
      try {
        const s = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        if (s.slice(s.indexOf('(') + 1, s.lastIndexOf(')')) !== 'DedicatedWorker') continue;
        const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
        t += +f[11] + +f[12];
      } catch {
        /* a thread that ended */
      }
    }
    return t;
  };
  const inTree = (pid) => {
    for (let p = pid, hops = 0; p > 1 && hops < 64; hops++) {
      if (p === rootPid) return true;
      const q = procs.get(p);
      if (!q) return false;
      if (q.pgrp === rootPid) return true;
      p = q.ppid;
    }
    return false;
  };
  const out = new Map();
  for (const [pid, p] of procs) {
    if (!inTree(pid)) continue;
    const type = kind(pid);
    out.set(pid, { ticks: p.ticks, type, worker: type === 'renderer' ? workerTicks(pid) : 0 });
  }
  return out;
}

// CPU ms between two samples: a process that started in between counts
// from nothing; one that ended is lost (none should, in a steady page).
function cpuMs(a, b) {
  let t = 0;
  for (const [pid, p] of b) t += p.ticks - (a.get(pid)?.ticks || 0);
  return t * TICK_MS;
}

// The same by kind: the GPU process, the renderers (their workers apart) and
// the rest (browser, network, utilities).
function cpuSplitMs(a, b) {
  const o = { gpu: 0, renderer: 0, worker: 0, rest: 0 };
  for (const [pid, p] of b) {
    const was = a.get(pid);
    const all = p.ticks - (was?.ticks || 0);
    const w = p.worker - (was?.worker || 0);
    if (p.type === 'gpu-process') o.gpu += all;
    else if (p.type === 'renderer') {
      o.renderer += all - w;
      o.worker += w;
    } else o.rest += all;
  }
  for (const k of Object.keys(o)) o[k] *= TICK_MS;
  return o;
}

async function measure(config, column, url, shot) {
  const browser = await launch({ args: config.args, without: config.without });
  try {
    const version = await browser.send('Browser.getVersion').catch(() => ({}));
    const page = await browser.newPage();
    await page.send('Emulation.setDeviceMetricsOverride', { width: 800, height: 600, deviceScaleFactor: 1, mobile: false });
    await page.goto(`${url}peer.html?${column.query}`);
    const st = await page.waitFor('window.peer && (peer.ready || peer.error) && { error: peer.error }', {
      timeout: 60000,
      what: `the ${column.name} page ready`,
    });
    if (st.error) return { error: st.error, browser: version.product };
    await sleep(WARMUP_MS);
    const sample = async () => {
      const v = await page.evaluate('({ raf: peer.raf, frames: peer.frames(), drops: peer.drops, renders: peer.renders, ' +
        't: performance.now(), inWorker: peer.inWorker, pool: peer.pool, renderer: peer.renderer })');
      return { ...v, cpu: treeTicks(browser.proc.pid) };
    };
    const a = await sample();
    await sleep(opt.seconds * 1000);
    const b = await sample();
    const frames = b.frames - a.frames;
    const secs = (b.t - a.t) / 1000;
    if (!(frames > 0)) return { error: `no frames displayed in ${opt.seconds} s`, browser: version.product };
    if (shot) {
      const { data } = await page.send('Page.captureScreenshot', { format: 'png' });
      fs.writeFileSync(shot, Buffer.from(data, 'base64'));
    }
    return {
      browser: version.product,
      ms: cpuMs(a.cpu, b.cpu) / frames,
      split: Object.fromEntries(Object.entries(cpuSplitMs(a.cpu, b.cpu)).map(([k, v]) => [k, v / frames])),
      fps: frames / secs,
      rafFps: (b.raf - a.raf) / secs,
      drops: b.drops - a.drops,
      processes: b.cpu.size,
      inWorker: b.inWorker,
      pool: b.pool,
      renderer: b.renderer,
    };
  } finally {
    await browser.close();
  }
}

function machine() {
  const cpus = os.cpus();
  let model = cpus[0]?.model?.trim() || 'unknown CPU';
  try {
    const m = fs.readFileSync('/proc/cpuinfo', 'utf8').match(/^model name\s*:\s*(.+)$/m);
    if (m) model = m[1].trim();
  } catch {
    /* os.cpus() has it */
  }
  return { model, cores: cpus.length, arch: os.arch() };
}

const cell = (r) => {
  if (!r) return 'n/a';
  if (r.error) return /WebGL/.test(r.error) ? 'no WebGL' : 'fails';
  const fps = r.fps >= 59 ? r.fps.toFixed(1) : r.fps.toFixed(0);
  return `${r.ms < 10 ? r.ms.toFixed(2) : r.ms.toFixed(1)} (${fps} fps)`;
};

function table(res, env) {
  const date = new Date().toISOString().slice(0, 10);
  const inWorker = res.every((c) => c.cells.ripple?.inWorker !== false);
  const lines = [
    `Measured by \`make bench-web-peer\` (\`bench/web-peer.mjs\`) on ${date}: ${env.machine.model}, ` +
      `${env.machine.cores} cores, ${env.browser} headless; jquery.ripples ${env.ripples} with jQuery ${env.jquery} ` +
      `from npm. A ${W}x${H} element, a drop every 100 ms (the same places for both, through each one's API), ` +
      `medians of ${opt.runs} run${opt.runs > 1 ? 's' : ''} of ${opt.seconds} s` +
      `${opt.seconds < 20 ? ' (shorter than the default 20 s)' : ''} after 2 s to settle, each in a browser of its own; ` +
      'CPU of every browser process from `/proc` over frames displayed (the component\'s own count for ripple, ' +
      "`requestAnimationFrame`'s for jquery.ripples):",
    '',
    `| CPU ms per displayed frame, all processes | ${COLUMNS.map((c) =>
      c.key === 'ripple' ? `${c.name} (${inWorker ? 'worker' : 'main thread'})` : c.name).join(' | ')} |`,
    `|---|${COLUMNS.map(() => '---:').join('|')}|`,
  ];
  for (const c of res) lines.push(`| ${c.config.name} | ${COLUMNS.map((k) => cell(c.cells[k.key])).join(' | ')} |`);
  lines.push('');
  const ratios = res.map((c) => {
    const r = c.cells.ripple;
    const j = c.cells.jquery;
    return r && j && !r.error && !j.error ? `${(r.ms / j.ms).toFixed(2)}x ${c.config.key === 'swiftshader'
      ? 'with SwiftShader' : 'with software compositing'}` : null;
  });
  lines.push(`ripple / jquery.ripples (default), CPU a frame: ${ratios.map((r, i) => r ||
    `no ratio ${res[i].config.key === 'swiftshader' ? 'with SwiftShader' : 'with software compositing'}`).join(', ')} ` +
    '(the target: at most 0.25x in both).');
  const errs = [];
  for (const c of res)
    for (const k of COLUMNS)
      if (c.cells[k.key]?.error) errs.push(`${k.name} with ${c.config.key}: ${c.cells[k.key].error}`);
  // Where the CPU goes, by process: the medians of each part apart (so they
  // need not add up to the cell's median exactly).
  const f = (v) => v.toFixed(v < 10 ? 2 : 1);
  const parts = (r) => `GPU process ${f(r.split.gpu)}, renderer ${f(r.split.renderer)}` +
    `${r.split.worker >= 0.005 ? ` + its worker ${f(r.split.worker)}` : ''}, the rest ${f(r.split.rest)}`;
  lines.push('', 'Where it goes, ms a frame by process (medians):');
  for (const c of res)
    for (const k of COLUMNS.filter((k) => k.key !== 'jquery512'))
      if (c.cells[k.key] && !c.cells[k.key].error)
        lines.push(`- ${c.config.key === 'swiftshader' ? 'SwiftShader' : 'software compositing'}, ${k.name}: ${parts(c.cells[k.key])}`);
  if (env.renderers.length) lines.push('', `jquery.ripples' WebGL renderer: ${env.renderers.map((r) => `\`${r}\``).join(', ')}.`);
  if (errs.length) lines.push('', `Failed: ${errs.join('; ')}.`);
  return lines.join('\n');
}

function writeDocs(text) {
  const doc = fs.readFileSync(opt.docs, 'utf8');
  const a = doc.indexOf(BEGIN);
  const b = doc.indexOf(END);
  if (a < 0 || b < a) throw new Error(`${opt.docs} has no "${BEGIN}" ... "${END}" markers to write the table between`);
  fs.writeFileSync(opt.docs, `${doc.slice(0, a + BEGIN.length)}\n${text}\n${doc.slice(b)}`);
}

async function main() {
  // A file without the markers fails now, not after minutes of measuring.
  if (opt.docs) {
    const doc = fs.readFileSync(opt.docs, 'utf8');
    if (!(doc.indexOf(BEGIN) >= 0 && doc.indexOf(END) > doc.indexOf(BEGIN)))
      throw new Error(`${opt.docs} has no "${BEGIN}" ... "${END}" markers to write the table between`);
  }
  const s = site();
  const shots = path.join(opt.peer, 'shots');
  fs.mkdirSync(shots, { recursive: true });
  const { server, url } = await serve(s.root, 0);
  const runs = {}; // config key -> column key -> [results]
  let browserName = null;
  try {
    for (let run = 1; run <= opt.runs; run++) {
      for (const config of CONFIGS) {
        for (const column of COLUMNS) {
          const shot = run === 1 ? path.join(shots, `${config.key}-${column.key}.png`) : null;
          const r = await measure(config, column, url, shot);
          browserName ||= r.browser;
          ((runs[config.key] ||= {})[column.key] ||= []).push(r);
          if (!opt.json)
            console.log(`run ${run}, ${config.key}, ${column.key}: ` + (r.error ? `fails: ${r.error}` :
              `${r.ms.toFixed(2)} ms cpu/frame, ${r.fps.toFixed(1)} fps (rAF ${r.rafFps.toFixed(1)}), ` +
              `${r.drops} drops, ${r.processes} processes (ms/frame: GPU ${r.split.gpu.toFixed(2)}, ` +
              `renderer ${r.split.renderer.toFixed(2)}, worker ${r.split.worker.toFixed(2)}, rest ${r.split.rest.toFixed(2)})` +
              (r.inWorker !== undefined ? `, ${r.inWorker ? 'worker' : 'main thread'}, pool ${r.pool?.width}x${r.pool?.height}` : '') +
              (r.renderer ? `, ${r.renderer}` : '')));
        }
      }
    }
  } finally {
    server.close();
    server.closeAllConnections?.();
  }
  // A column's cell: the medians of its runs, or its first failure.
  const res = CONFIGS.map((config) => {
    const cells = {};
    for (const column of COLUMNS) {
      const rs = runs[config.key][column.key];
      const bad = rs.find((r) => r.error);
      cells[column.key] = bad ? { error: bad.error } : {
        ms: median(rs.map((r) => r.ms)),
        split: Object.fromEntries(['gpu', 'renderer', 'worker', 'rest'].map((k) => [k, median(rs.map((r) => r.split[k]))])),
        fps: median(rs.map((r) => r.fps)),
        inWorker: rs.every((r) => r.inWorker !== false),
      };
    }
    return { config, cells };
  });
  // The product is named Chrome even in Chromium's build.
  const browser = (browserName || 'Chromium').replace(/^(Headless)?Chrome\//, 'Chromium ').replace('/', ' ');
  const renderers = [...new Set(Object.values(runs).flatMap((c) => Object.values(c).flat()).map((r) => r.renderer)
    .filter(Boolean))];
  const env = { machine: machine(), browser, ripples: s.ripples, jquery: s.jquery, renderers };
  const text = table(res, env);
  if (opt.docs) writeDocs(text);
  if (opt.json) console.log(JSON.stringify({ env, seconds: opt.seconds, runs, table: text }));
  else {
    console.log(`\n${text}`);
    if (opt.docs) console.log(`\n(written into ${opt.docs}; screenshots of the first run in ${shots})`);
  }
  // Any failure fails the run, after the table has said where.
  if (res.some((c) => Object.values(c.cells).some((x) => x.error))) process.exit(1);
}

main().catch((e) => {
  console.error(`bench/web-peer: ${e.message}`);
  process.exit(1);
});
