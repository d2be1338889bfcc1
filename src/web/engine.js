// src/web/engine.js - the pool: loads the WebAssembly module, plays the water on a canvas (its frame loop, input, sound mixing and timedemo), in a Worker or in the page alike.
'use strict';

// The same code runs in two places, for the demo page (web.js) and for the component
// (ripple-water.classic.js) alike.  In a dedicated Worker (the usual case:
// the page's main thread then only forwards input and plays the sound) it
// draws on the OffscreenCanvas the page transferred to it and talks through
// postMessage.  In the page (a browser without what the worker needs, or
// ?worker=0) web.js loads this file with a <script> element and calls
// RippleEngine(post, loadScript) itself: the messages are then plain function
// calls, and the module's script is loaded the way the page loaded this one.
//
// RippleEngine(post[, loadScript]) returns receive(msg), the engine's only way
// in; post(msg, transfer) is its only way out.  The messages are described in
// web.js.

// A global of the page's when this file is loaded there (web.js calls it).
function RippleEngine(post, loadScript) {
  // The demo's pool, as the native demo's window has it (the component asks for its own).
  const W = 640, H = 480;
  let poolW = W, poolH = H;
  const RATE = 48000;        // the sound's rate: the pool mixes at it, the page plays it at it

  // The play's numbers and web_get / web_set's settings, read from the module
  // (web_constant) once it is loaded, so that none is a copy: the steps a second,
  // the most steps a frame (a slow frame drops time rather than stalls), how long
  // the show or the autopilot waits after the user's input, the stones' and the
  // refraction's ranges.
  let STEP_HZ, MAX_STEPS, IDLE_MS, STONE_MIN, STONE_MAX, STRENGTH_MAX, BENCH_FRAMES;
  let RAIN, AUTO, LIGHT, STRENGTH, STONE, AMBIENT, SHOW, WIDTH, HEIGHT, AWAKE, EDGES, MODEL;
  let BODIES, SIDE, MUSIC, HEARD, SCORE, MUSIC_AT;

  // The sound: chunks of CHUNK frames, mixed so that what was sent stays LEAD_MS ahead
  // of the engine's clock; the page reports how far ahead of its audio output it is,
  // and the difference nudges the engine's count (the two clocks drift apart).
  const CHUNK = 1024, LEAD_MS = 90;
  const CHUNK_MS = CHUNK * 1000 / RATE;

  // The timedemo: rounds whose spread is above NOISY percent are said to be noisy;
  // the spread is the native timedemo's, +- half the range over its middle,
  // (max - min) / (max + min), in percent.
  const NOISY = 5;

  const inWorker = typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope;

  // --- talking to the page -----------------------------------------------

  // Only a module that does not load is an error on the console (the page says so).
  function fail(text, genuine) {
    post({ type: 'fail', text, genuine: Boolean(genuine) });
  }

  const say = (text) => post({ type: 'say', text });

  // --- the module --------------------------------------------------------

  // Where the modules are: beside this script in a worker; the page's or the component's
  // wasmBase in the page (start's base).
  let base = typeof document !== 'undefined' ? document.baseURI : self.location.href;

  // In a worker: importScripts, which throws when the script does not load.
  const load = loadScript || ((src) => {
    importScripts(new URL(src, base).href);
    return Promise.resolve();
  });

  let M = null; // the module

  async function loadModule(kind) {
    await load(new URL(`ripple-${kind}.js`, base).href);
    if (typeof self.RippleModule !== 'function')
      throw new Error(`ripple-${kind}.js defines no RippleModule`);
    return self.RippleModule({
      locateFile: (path) => new URL(path, base).href,
      print: (text) => post({ type: 'log', level: 'log', text }),
      printErr: (text) => post({ type: 'log', level: 'warn', text }),
    });
  }

  const cstr = (ptr) => (ptr ? M.UTF8ToString(ptr) : '');

  function readConstants() {
    const c = (name) => {
      const v = withString(name, (ptr) => M._web_constant(ptr));
      if (v < 0)
        throw new Error(`the module knows no ${name}`);
      return v;
    };
    [STEP_HZ, MAX_STEPS, IDLE_MS, STONE_MIN, STONE_MAX, STRENGTH_MAX, BENCH_FRAMES] =
      ['STEP_HZ', 'MAX_STEPS', 'IDLE_MS', 'STONE_MIN', 'STONE_MAX', 'STRENGTH_MAX',
        'BENCH_FRAMES'].map(c);
    [RAIN, AUTO, LIGHT, STRENGTH, STONE, AMBIENT, SHOW, WIDTH, HEIGHT, AWAKE, EDGES, MODEL,
      BODIES, SIDE, MUSIC, HEARD, SCORE, MUSIC_AT] =
      ['RAIN', 'AUTO', 'LIGHT', 'STRENGTH', 'STONE', 'AMBIENT', 'SHOW', 'WIDTH', 'HEIGHT',
        'AWAKE', 'EDGES', 'MODEL', 'BODIES', 'SIDE', 'MUSIC', 'HEARD', 'SCORE', 'MUSIC_AT'].map(c);
  }

  // A pool from web_create or web_bench_create (create(slot) fills the slot): the
  // pool, or an Error saying why not.
  function newPool(create) {
    const slot = M._malloc(4);
    if (!slot)
      throw new Error('out of memory');
    let q = 0, st = 0;
    try {
      st = create(slot);
      q = M.HEAPU32[slot >> 2];
    } finally {
      M._free(slot);
    }
    if (st === 0)
      return q;
    const why = q ? cstr(M._web_error(q)) : 'out of memory';
    M._web_destroy(q);
    throw new Error(why);
  }

  // fn called with text as a NUL-terminated UTF-8 string in the module's memory.
  function withString(text, fn) {
    const n = M.lengthBytesUTF8(text) + 1;
    const ptr = M._malloc(n);
    if (!ptr)
      throw new Error('out of memory');
    try {
      M.stringToUTF8(text, ptr, n);
      return fn(ptr);
    } finally {
      M._free(ptr);
    }
  }

  // --- the picture and the show ------------------------------------------

  // The picture's RGBA bytes as the browser decodes them, untouched by colour management.
  async function fetchPicture(url) {
    return pixelsOf(await createImageBitmap(await fetchBlob(url),
      { premultiplyAlpha: 'none', colorSpaceConversion: 'none' }));
  }

  async function fetchBlob(url) {
    const res = await fetch(url);
    if (!res.ok)
      throw new Error(`${url}: HTTP ${res.status}`);
    return res.blob();
  }

  // A 2D context of w x h pixels: an OffscreenCanvas's when it draws in 2D (some Safaris
  // have one that does not), else a canvas's (only in the page: a worker gets here only
  // with an OffscreenCanvas that draws).
  function scratch(width, height) {
    let g = typeof OffscreenCanvas === 'function'
      ? new OffscreenCanvas(width, height).getContext('2d', { willReadFrequently: true })
      : null;
    if (!g) {
      const c = document.createElement('canvas');
      c.width = width;
      c.height = height;
      g = c.getContext('2d', { willReadFrequently: true });
    }
    return g;
  }

  // An ImageBitmap's pixels as they are (it is closed).
  function pixelsOf(bmp) {
    const { width, height } = bmp;
    const g = scratch(width, height);
    g.drawImage(bmp, 0, 0);
    bmp.close();
    return g.getImageData(0, 0, width, height);
  }

  async function fetchShow(url) {
    const r = await fetch(url);
    if (!r.ok)
      throw new Error(`${url}: HTTP ${r.status}`);
    return r.text();
  }

  // The picture into pool q: null, or why it was refused.
  function givePicture(q, pic) {
    const n = pic.width * pic.height * 4;
    const ptr = M._malloc(n);
    if (!ptr)
      return 'out of memory for the picture';
    M.HEAPU8.set(pic.data, ptr);
    const r = M._web_picture(q, ptr, pic.width, pic.height);
    M._free(ptr);
    return r === 0 ? null : cstr(M._web_error(q));
  }

  // The component's picture fitted to a pool of w x h cells as CSS's background-size
  // would fit it ('cover': cropped about its centre; 'contain': whole, on fill), so that
  // the pool's own cover fit then takes it as it is.  src: an ImageBitmap (kept).
  function fitted(src, w, h, fit, fill) {
    const g = scratch(w, h);
    const sx = w / src.width, sy = h / src.height;
    const k = fit === 'contain' ? Math.min(sx, sy) : Math.max(sx, sy);
    const dw = src.width * k, dh = src.height * k;
    g.fillStyle = fill || '#000';
    g.fillRect(0, 0, w, h);
    g.imageSmoothingQuality = 'high';
    g.drawImage(src, (w - dw) / 2, (h - dh) / 2, dw, dh);
    return g.getImageData(0, 0, w, h);
  }

  // The side view's pictures (the sky, the stone of its basins), fetched once, into
  // side view q (made again with them): null, or why they were refused.
  let sideArt = null;
  async function giveSideArt(q) {
    if (!sideArt)
      sideArt = Promise.all(['side-sky.png', 'side-stone.png'].map((f) => fetchPicture(f)));
    const [sky, stone] = await sideArt;
    const a = M._malloc(sky.data.length), b = M._malloc(stone.data.length);
    try {
      if (!a || !b)
        return 'out of memory for the pictures';
      M.HEAPU8.set(sky.data, a);
      M.HEAPU8.set(stone.data, b);
      const r = M._web_side_art(q, a, sky.width, sky.height, b, stone.width, stone.height);
      return r === 0 ? null : cstr(M._web_error(q));
    } finally {
      M._free(a);
      M._free(b);
    }
  }

  function giveShow(q, text, name) {
    const r = withString(text, (t) => withString(name, (n) => M._web_show(q, t, n)));
    return r === 0 ? null : cstr(M._web_error(q));
  }

  // The score into pool q ('' none), to play from its beginning: null, or why it was
  // refused (the music that played plays on).
  function giveMusic(q, text, name) {
    const r = withString(text, (t) => withString(name, (n) => M._web_music(q, t, n)));
    return r === 0 ? null : cstr(M._web_error(q));
  }

  // --- presenting a frame ------------------------------------------------

  let canvas = null, ctx = null;

  // The frame's ImageData lies over the module's memory: made again only when the
  // frame moved or the memory grew, so a frame allocates nothing.
  let view = null, viewPtr = 0, viewBuf = null, fw = W, fh = H;

  function present(ptr) {
    const buf = M.HEAPU8.buffer;
    if (ptr !== viewPtr || buf !== viewBuf || view.width !== fw || view.height !== fh) {
      view = new ImageData(new Uint8ClampedArray(buf, ptr, fw * fh * 4), fw, fh);
      viewPtr = ptr;
      viewBuf = buf;
    }
    ctx.putImageData(view, 0, 0);
  }

  function sizeCanvas() {
    if (canvas.width !== fw || canvas.height !== fh) {
      canvas.width = fw;
      canvas.height = fh;
    }
  }

  // --- the timedemo --------------------------------------------------------

  const CRC_TABLE = (() => {
    const t = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++)
        c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      t[n] = c >>> 0;
    }
    return t;
  })();

  // CRC-32 as zlib computes it (the reflected polynomial 0xEDB88320).
  function crc32(bytes) {
    let c = 0xffffffff;
    for (let i = 0; i < bytes.length; i++)
      c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  }

  const hex8 = (v) => v.toString(16).padStart(8, '0');

  // The clock's step in ms: browsers coarsen performance.now() (to 0.1 ms in Chrome
  // unless the page is cross-origin isolated), which bounds what one frame's time means.
  function timerStep() {
    let step = Infinity;
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      let t1 = t0;
      while (t1 === t0)
        t1 = performance.now();
      step = Math.min(step, t1 - t0);
    }
    return step;
  }

  // A macrotask without setTimeout's 4 ms clamp: the timedemo yields to the event
  // loop with it so the canvas shows its frames and the page hears how far it got
  // while the frames run as fast as they can.
  const channel = new MessageChannel();
  let onYield = null;
  channel.port1.onmessage = () => onYield();
  const yieldNow = () => new Promise((resolve) => { onYield = resolve; channel.port2.postMessage(0); });

  // A browser's name and major version, and its OS, from its user agent string: what
  // a shared line needs to tell two runs apart (the whole string is in the report).
  function browserName(ua) {
    const m = (re) => ua.match(re);
    let r;
    if ((r = m(/Firefox\/(\d+)/)))
      return `Firefox ${r[1]}`;
    if ((r = m(/Edg\/(\d+)/)))
      return `Edge ${r[1]}`;
    if ((r = m(/OPR\/(\d+)/)))
      return `Opera ${r[1]}`;
    if ((r = m(/(HeadlessChrome|Chromium|Chrome)\/(\d+)/)))
      return `${r[1]} ${r[2]}`;
    if ((r = m(/Version\/(\d+)[.\d]* .*Safari\//)))
      return `Safari ${r[1]}`;
    return 'a browser';
  }

  function osName(ua) {
    let r;
    if ((r = ua.match(/Android (\d+)/)))
      return `Android ${r[1]}`;
    if ((r = ua.match(/(?:iPhone|CPU) OS (\d+)/)))
      return `iOS ${r[1]}`;
    if (/Windows NT/.test(ua))
      return 'Windows';
    if (/CrOS/.test(ua))
      return 'ChromeOS';
    if (/Mac OS X/.test(ua))
      return 'macOS';
    if ((r = ua.match(/Linux ([\w-]+)/)))
      return `Linux ${r[1]}`;
    return /Linux/.test(ua) ? 'Linux' : 'an OS';
  }

  const median = (sorted) => {
    const n = sorted.length, h = n >> 1;
    return n % 2 ? sorted[h] : (sorted[h - 1] + sorted[h]) / 2;
  };

  // The timedemo: the scene's frames as rounds, the scene started again between them,
  // until the rounds asked for or, without them, until the seconds are up; each frame
  // timed, each round's water checksummed.  opt: {scene, frames (a round), rounds (0:
  // by time), seconds}.
  async function benchmark(kind, opt, pic) {
    let q;
    try {
      q = newPool((slot) => withString(opt.scene, (s) => M._web_bench_create(s, slot)));
    } catch (e) {
      fail(`?scene=${opt.scene}: ${e.message}`, false);
      return;
    }
    const side = M._web_get(q, SIDE) === 1;
    const why = side ? await giveSideArt(q).catch((e) => e.message) : givePicture(q, pic);
    if (why)
      fail(`${side ? 'the side view\'s pictures' : 'background.png'}: ${why}`, false);
    fw = M._web_get(q, WIDTH);
    fh = M._web_get(q, HEIGHT);
    sizeCanvas();
    const version = cstr(M._web_version()), path = cstr(M._web_path(q));
    const scene = cstr(M._web_bench_scene(q)), about = cstr(M._web_bench_about(q));
    const frames = opt.frames || BENCH_FRAMES;
    post({
      type: 'started', path, version, width: fw, height: fh, scene, frames,
      rounds: opt.rounds, seconds: opt.seconds,
    });
    await yieldNow(); // the page shows the status before the run takes the thread

    // Every frame's time in ms (the 1% low), grown as the rounds go on.
    let times = new Float64Array(frames * (opt.rounds || 4));
    let msStep = 0, msDraw = 0, msPresent = 0, n = 0;
    const rounds = []; // {ms, fps, crc}
    const start = performance.now();
    for (let round = 1; ; round++) {
      if (round > 1 && M._web_bench_restart(q) !== 0)
        throw new Error(`round ${round}: ${cstr(M._web_error(q))}`);
      if (n + frames > times.length) {
        const more = new Float64Array(2 * times.length + frames);
        more.set(times);
        times = more;
      }
      const t0r = performance.now();
      let done = 0;
      while (done < frames) {
        const until = performance.now() + 16;
        while (done < frames) {
          const t0 = performance.now();
          M._web_bench_frame(q);
          const t1 = performance.now();
          const ptr = M._web_draw(q);
          const t2 = performance.now();
          present(ptr);
          const t3 = performance.now();
          msStep += t1 - t0;
          msDraw += t2 - t1;
          msPresent += t3 - t2;
          times[n++] = t3 - t0;
          done++;
          if (t3 >= until)
            break;
        }
        post({
          type: 'progress', round, rounds: opt.rounds, done, frames,
          elapsed: (performance.now() - start) / 1000, seconds: opt.seconds,
        });
        await yieldNow();
      }
      const ms = performance.now() - t0r;
      // The pool's water, or the side view's state as the scene sums it up, as the
      // native report's "water crc32" and "state crc32".
      const crc = side ? hex8(M._web_bench_crc(q) >>> 0)
        : hex8(crc32(new Uint8Array(M.HEAPU8.buffer, M._web_heights(q), fw * fh * 2)));
      rounds.push({ ms, fps: frames * 1000 / ms, crc });
      if (opt.rounds ? round >= opt.rounds : performance.now() - start >= opt.seconds * 1000)
        break;
    }
    const ms = performance.now() - start;
    M._web_destroy(q);

    // The frame time below which 99% of the frames lie, as frames per second.
    const sorted = times.subarray(0, n).sort();
    const slow = sorted[Math.max(0, Math.ceil(n * 0.99) - 1)];
    const low = slow > 0 ? 1000 / slow : 0;
    const fpsSorted = rounds.map((r) => r.fps).sort((a, b) => a - b);
    const med = median(fpsSorted);
    const min = fpsSorted[0], max = fpsSorted[fpsSorted.length - 1];
    const spread = max + min > 0 ? (max - min) / (max + min) * 100 : 0;
    const crcs = rounds.map((r) => r.crc);
    const agree = crcs.every((c) => c === crcs[0]);
    if (!agree)
      fail(`the rounds' ${side ? 'state' : 'water'} differs (crc32 ${crcs.join(' ')}): the scene did not start again the same`, true);
    const crc = crcs[0];
    const seconds = ms / 1000, all = rounds.length * frames;
    const rest = ms - msStep - msDraw - msPresent;
    const pct = (v) => `\u00b1${v.toFixed(1)}%`;
    const noisy = spread > NOISY ? `noisy: ${pct(spread)} between rounds` : '';
    // What "present" timed: putImageData on the canvas the frames are shown on, which
    // in a worker is the OffscreenCanvas (the browser shows it without the main thread).
    const presentWhat = inWorker ? 'OffscreenCanvas putImageData in a worker' : 'canvas putImageData';
    const ua = navigator.userAgent, browser = browserName(ua), os = osName(ua);
    // One line to paste where machines are compared, in the native --share's shape.
    const share = `ripple ${version} ${scene} ${fw}x${fh}x32 wasm-${kind} 1t canvas: ` +
      `${Math.round(med)} fps (\u00b1${spread.toFixed(1)}%), 1% low ${Math.round(low)}, ` +
      `crc ${crc}, ${browser}, ${os}`;
    const name = scene.replace(/-\d+$/, ''), ver = scene.slice(name.length + 1); // side-waves-3
    const report = {
      version, scene, scene_name: name, scene_version: Number(ver), scene_about: about,
      width: fw, height: fh, bpp: 32, scale: 1, path, threads: 1,
      present: presentWhat, frames, rounds: rounds.length, seconds, fps: all / seconds,
      median_fps: med, spread, fps_min: min, fps_max: max, noisy: spread > NOISY,
      round_fps: rounds.map((r) => r.fps), fps_1pct_low: low,
      ms_per_frame: {
        step: msStep / all, refract: msDraw / all, present: msPresent / all, rest: rest / all,
        total: ms / all,
      },
      crc32: crc, crc_of: side ? 'state' : 'water', round_crc32: crcs, module: kind, browser: ua, browser_name: browser, os,
      in_worker: inWorker, timer_ms: timerStep(), cross_origin_isolated: Boolean(self.crossOriginIsolated),
      share,
    };
    const f1 = (v) => v.toFixed(1), f4 = (v) => v.toFixed(4);
    const text = [
      `ripple ${version} benchmark, scene ${scene}`,
      `scene     ${name} version ${ver}: ${about}`,
      `browser   ${ua}`,
      `field     ${fw}x${fh}, 32 bpp, scale 1, path ${path}, 1 thread (module ${kind})`,
      `present   ${presentWhat}`,
      `rounds    ${rounds.length} of ${frames} frames in ${seconds.toFixed(3)} s: median ` +
        `${f1(med)} fps, spread ${pct(spread)} (${f1(min)} to ${f1(max)})`,
      `frames    ${all}: ${f1(all / seconds)} fps average, ${f1(low)} fps 1% low`,
      `ms/frame  ${side ? 'drops+step' : 'stones+step'} ${f4(msStep / all)}  ` +
        `${side ? 'draw' : 'refract'} ${f4(msDraw / all)}  ` +
        `present ${f4(msPresent / all)}  rest ${f4(rest / all)}  total ${f4(ms / all)}`,
      `${side ? 'state' : 'water'}     crc32 ${crc}${rounds.length > 1 ? (agree ? ', every round' : ` (rounds: ${crcs.join(' ')})`) : ''}`,
      ...(noisy ? [noisy] : []),
      `share     ${share}`,
    ].join('\n');
    post({ type: 'report', report, text, frames: all });
  }

  // --- playing ---------------------------------------------------------------

  let p = 0;                 // the pool
  // The side view (the window's Tab), made the first time it is shown, and which of the
  // two is shown: the frames, the input and the sound are the shown one's.
  let side = 0, sideShown = false, sideComing = null, sideShares = false;
  const cur = () => (sideShown ? side : p);
  let seed = 1, withShow = true;
  let paused = false, stepOnce = false, dirty = true;
  let touched = false, lastInput = 0;
  let last = -1, due = 0;
  let frames = 0, framesEvery = 1;

  function takeOver() {
    touched = true;
    lastInput = performance.now();
  }

  // The pool from the seed, with the picture and the show.
  // The component's: its picture (an ImageBitmap, fitted again to every pool), how it
  // fits, what shows around it, its settings by name (given again to every pool: a
  // resize makes a new one), and whether it is halted (off screen, hidden, paused:
  // no frames at all).
  let source = null, fit = 'cover', fill = '#000', settings = null, halted = false;
  let picture = null, showText = '', showName = 'default.show', rafId = 0, stopped = false;
  // The music: its score ('' none) and name, given again to every pool with the show, so
  // that both start at 0 together; whether it is wanted.  The sound: the drips queued
  // (the audio exists), and the page playing what is mixed (the audio runs).
  let musicText = '', musicName = 'default.score', musicOn = true;
  let ambient = false, heard = false;
  let poolSteps = 0; // the pool's steps since it was made, for the figures

  // A component setting on pool q: null, or why it was refused.
  function apply(q, name, v) {
    const err = () => cstr(M._web_error(q));
    switch (name) {
    case 'rain': M._web_set(q, RAIN, v ? 1 : 0); break;
    case 'autopilot': M._web_set(q, AUTO, v ? 1 : 0); break;
    case 'light': M._web_set(q, LIGHT, v ? 1 : 0); break;
    case 'strength': M._web_set(q, STRENGTH, Math.round(v * 16)); break;
    case 'edges': M._web_set(q, EDGES, v === 'absorb' ? 1 : 0); break;
    case 'speed': case 'viscosity':
      if (settings.speed !== undefined || settings.viscosity !== undefined) {
        const w = (k, d) => (settings[k] === undefined ? d : settings[k]);
        if (M._web_wave_set(q, w('speed', 24), w('viscosity', 1.2)) !== 0)
          return err();
      }
      break;
    case 'model':
      if (M._web_set(q, MODEL, v === 'wave' ? 1 : 0) !== (v === 'wave' ? 1 : 0))
        return err();
      break;
    default: break;
    }
    return null;
  }

  // Every setting, in an order where each holds (the wave's figures before the model).
  function applyAll(q) {
    for (const k of ['edges', 'light', 'strength', 'speed', 'model', 'rain', 'autopilot'])
      if (settings[k] !== undefined) {
        const why = apply(q, k, settings[k]);
        if (why)
          fail(why, false);
      }
  }

  function makePool() {
    let q;
    try {
      q = newPool((slot) => M._web_create(poolW, poolH, seed, RATE, slot));
    } catch (e) {
      throw new Error(`ripple could not start: ${e.message}`);
    }
    const pic = source ? fitted(source, poolW, poolH, fit, fill) : picture;
    if (pic) {
      const why = givePicture(q, pic);
      if (why)
        fail(`${source ? 'the picture' : 'background.png'}: ${why}`, false);
    }
    if (withShow && showText) {
      const why = giveShow(q, showText, showName);
      if (why)
        fail(`the show did not load: ${why}`, false);
    }
    if (!withShow) {
      M._web_set(q, RAIN, 0);
      M._web_set(q, AUTO, 0);
    }
    if (settings)
      applyAll(q);
    soundTo(q);
    if (musicText) { // after the settings: the music starts at the volume they give
      const why = giveMusic(q, musicText, musicName);
      if (why)
        fail(`the music did not load: ${why}`, false);
    }
    poolSteps = 0;
    fw = M._web_get(q, WIDTH);
    fh = M._web_get(q, HEIGHT);
    return q;
  }

  // The sound's settings as the page has them, to pool q.
  function soundTo(q) {
    M._web_set(q, AMBIENT, ambient ? 1 : 0);
    M._web_set(q, MUSIC, musicOn ? 1 : 0);
    M._web_set(q, HEARD, heard ? 1 : 0);
  }

  // Figures over the last quarter second, for the page's overlay.
  let statFrames = 0, statWasm = 0, statPut = 0, statSince = 0;

  function schedule() {
    if (!rafId && !halted && p)
      rafId = requestAnimationFrame(frame);
  }

  function frame(now) {
    rafId = 0;
    if (halted || !p)
      return;
    const q = cur();
    schedule();
    let dt = last < 0 ? 0 : now - last;
    last = now;
    if (dt > 250) // the tab was hidden or the page stalled: no catching up
      dt = 1000 / STEP_HZ;
    let steps = 0;
    if (!paused) {
      // Rounded, not floored: on a 60 Hz display the steps due hover around one a
      // frame, and the clock's jitter would make floored ones judder between 0 and 2.
      due += dt * STEP_HZ / 1000;
      steps = Math.floor(due + 0.5);
      due -= steps;
      if (steps > MAX_STEPS) {
        steps = MAX_STEPS;
        due = 0;
      }
    } else if (stepOnce) {
      steps = 1;
      stepOnce = false;
    }
    if (steps > 0 || dirty) {
      const t0 = performance.now();
      if (steps > 0)
        M._web_steps(q, steps, !touched || now - lastInput > IDLE_MS ? 1 : 0);
      if (q === p)
        poolSteps += steps;
      const ptr = M._web_draw(q);
      const t1 = performance.now();
      present(ptr);
      const t2 = performance.now();
      dirty = false;
      frames++;
      statFrames++;
      statWasm += t1 - t0;
      statPut += t2 - t1;
      // The page's count of frames: in a worker every message costs the main thread a
      // task, so it hears every few frames only (and with the figures).
      if (frames === 1 || frames % framesEvery === 0)
        post({ type: 'frames', frames });
    }
    mixSound(now);
    if (now - statSince >= 250)
      sendStats(now);
  }

  function stateLine() {
    const q = cur();
    const on = (k) => M._web_get(q, k) !== 0;
    const parts = [];
    if (paused)
      parts.push('PAUSED');
    if (sideShown) {
      if (on(AUTO))
        parts.push('auto');
      return parts.join('  ');
    }
    if (on(RAIN))
      parts.push('rain');
    if (on(AUTO))
      parts.push(on(SHOW) ? 'show' : 'auto');
    if (on(LIGHT))
      parts.push('light');
    parts.push(`strength ${M._web_get(p, STRENGTH)}/16`, `stone ${M._web_get(p, STONE)}`);
    return parts.join('  ');
  }

  function sendStats(now) {
    const n = statFrames || 1;
    post({
      type: 'stats',
      frames,
      // the first call has no figures yet: no span to count them over
      fps: statSince > 0 ? statFrames * 1000 / (now - statSince) : -1,
      wasm: statWasm / n,
      put: statPut / n,
      text: cstr(M._web_text(cur())),
      awake: M._web_get(cur(), AWAKE),
      state: stateLine(),
      view: sideShown ? 'side' : 'pool',
      bodies: sideShown ? M._web_get(side, BODIES) : -1,
      // the music: 'none', 'on' or 'off'; frames into its loop, and the pool's steps
      music: !M._web_get(cur(), SCORE) ? 'none' : M._web_get(cur(), MUSIC) ? 'on' : 'off',
      musicAt: M._web_get(cur(), MUSIC_AT),
      steps: poolSteps,
    });
    statSince = now;
    statFrames = 0;
    statWasm = 0;
    statPut = 0;
  }

  // --- sound -------------------------------------------------------------

  // playing: the page's audio runs and wants chunks; soundAt: the engine's time up to
  // which chunks were sent.
  let playing = false, soundAt = 0;

  // The sound due: mixed and sent in one message a frame, LEAD_MS ahead.
  function mixSound(now) {
    if (!playing)
      return;
    if (soundAt < now) // fell behind (a hidden tab, a stall): start again from now
      soundAt = now;
    let n = 0;
    while (soundAt < now + LEAD_MS && n < 8) {
      soundAt += CHUNK_MS;
      n++;
    }
    if (n === 0)
      return;
    const pcm = new Int16Array(n * CHUNK * 2);
    for (let i = 0; i < n; i++) {
      const o = M._web_mix(cur(), CHUNK) >> 1;
      pcm.set(M.HEAP16.subarray(o, o + CHUNK * 2), i * CHUNK * 2);
    }
    post({ type: 'sound', pcm }, [pcm.buffer]);
  }

  // The page's queue of sound was ahead ms ahead of its output: more than wanted, and
  // the engine mixes less for a while; less, more.  Half the gap at a time, so the
  // chunks in flight are not counted twice; a few ms of jitter are left alone.
  function soundAhead(ahead) {
    const gap = ahead - LEAD_MS;
    if (Math.abs(gap) > 8)
      soundAt += gap / 2;
  }

  // --- input -------------------------------------------------------------

  function toggle(k, name) {
    const q = cur();
    const v = M._web_set(q, k, M._web_get(q, k) ? 0 : 1);
    say(`${name} ${v ? 'on' : 'off'}`);
    dirty = true;
  }

  function stoneSize(delta) {
    const s = Math.min(STONE_MAX, Math.max(STONE_MIN, M._web_get(p, STONE) + delta));
    say(`stone size ${M._web_set(p, STONE, s)}`);
  }

  function strength(delta) {
    const s = Math.min(STRENGTH_MAX, Math.max(0, M._web_get(p, STRENGTH) + delta));
    say(`refraction ${M._web_set(p, STRENGTH, s)}/16`);
    dirty = true;
  }

  // W, Z X, V B, D: played by the pool as in the native demo, with its line.
  function waveKey(k) {
    say(cstr(M._web_key(p, k.charCodeAt(0))));
  }

  // The keys that change the water or its look: the show waits after them.
  const TAKE_OVER = new Set(['c', 'Backspace', 'r', 'l', '+', '=', 'ArrowUp', '-', 'ArrowDown',
    '[', ']', 'w', 'z', 'x', 'v', 'b', 'd']);

  // A key the page passed on (already lower case); once: not a held key's repeat.
  // The side view's keys (the window's, app/side.c): K what a click drops, W springs
  // or waves, C clears, A autoplay; the pause keys are both views'.
  function sideKey(k, once) {
    if (!once)
      return false;
    switch (k) {
    case 'k': case 'w': case 'c': case 'Backspace':
      takeOver();
      say(cstr(M._web_key(side, k === 'Backspace' ? 8 : k.charCodeAt(0))));
      dirty = true;
      return true;
    case 'a': toggle(AUTO, 'autoplay'); return true;
    case ' ': case 'p': case 'n': case '.': return false;
    default: return true; // the pool's keys do nothing here
    }
  }

  // The side view shown, or the pool again (Tab).  The side view is made the first
  // time, with its pictures; the pool waits meanwhile, and plays on after.
  async function switchView() {
    if (sideComing)
      return;
    if (!sideShown && !side) {
      sideComing = (async () => {
        const q = newPool((slot) => M._web_side_create(poolW, poolH, seed, RATE, slot));
        const why = await giveSideArt(q).catch((e) => e.message);
        if (why)
          fail(`the side view's pictures: ${why}`, false);
        // the pool's sound, as the window's one mixer: the music goes on across the views
        sideShares = Boolean(p) && M._web_share_sound(q, p) === 0;
        if (!sideShares)
          soundTo(q);
        return q;
      })();
      try {
        side = await sideComing;
      } catch (e) {
        fail(`no side view: ${e.message}`, false);
        return;
      } finally {
        sideComing = null;
      }
      if (!p) { // stopped meanwhile
        M._web_destroy(side);
        side = 0;
        return;
      }
    }
    sideShown = !sideShown;
    dirty = true;
    last = -1;
    post({ type: 'view', view: sideShown ? 'side' : 'pool' });
    say(sideShown ? 'side view: click to drop, K chooses what' : 'the pool from above');
    schedule();
  }

  function key(k, once) {
    if (sideShown && sideKey(k, once))
      return;
    if (TAKE_OVER.has(k))
      takeOver();
    switch (k) {
    case ' ': case 'p':
      if (once) {
        paused = !paused;
        say(paused ? 'paused (N: a step)' : 'playing');
      }
      break;
    case 'n': case '.': paused = true; stepOnce = true; break;
    case 'c': case 'Backspace':
      if (once) { // the water calmed (the settings, the walls and the show's place stay)
        M._web_reset(p);
        dirty = true;
        say('water calmed');
      }
      break;
    case 'r': if (once) toggle(RAIN, 'rain'); break;
    case 'a': if (once) toggle(AUTO, M._web_get(p, SHOW) ? 'show' : 'autopilot'); break;
    case 'l': if (once) toggle(LIGHT, 'light'); break;
    case '+': case '=': case 'ArrowUp': strength(2); break;
    case '-': case 'ArrowDown': strength(-2); break;
    case '[': stoneSize(-1); break;
    case ']': stoneSize(1); break;
    case 'w': case 'd': if (once) { waveKey(k); dirty = true; } break;
    case 'z': case 'x': case 'v': case 'b': waveKey(k); break;
    default: break;
    }
  }

  // The frame as a PNG, for the page to save: null when the browser would not make one.
  function screenshot() {
    const done = (blob) => post({ type: 'shot', blob: blob || null });
    if (typeof canvas.convertToBlob === 'function') // an OffscreenCanvas
      canvas.convertToBlob({ type: 'image/png' }).then(done, () => done(null));
    else
      canvas.toBlob(done, 'image/png');
  }

  // --- the start -------------------------------------------------------------

  async function start(m) {
    canvas = m.canvas;
    // A canvas kept in memory, not on the GPU: its frames come whole from
    // the module by putImageData, and where the GPU is emulated
    // (SwiftShader) a GPU canvas costs a fifth more CPU a frame
    // (make bench-web-peer: 16.2 against 13.1 ms; the same with software
    // compositing, 3.7 against 3.5).
    ctx = canvas.getContext('2d', { alpha: false, willReadFrequently: true });
    if (!ctx)
      throw new Error('the canvas draws no 2D');
    if (m.base)
      base = m.base;
    seed = m.seed;
    framesEvery = Math.max(1, m.framesEvery | 0);
    // The component brings its picture, show and pool size; the demo page its files.
    const own = Boolean(m.width);
    if (own) {
      poolW = m.width;
      poolH = m.height;
      source = m.bitmap || null;
      fit = m.fit || 'cover';
      fill = m.fill || '#000';
      settings = { ...m.settings };
      halted = Boolean(m.halted);
      showName = m.showName || 'show';
      musicText = m.musicText || '';
      musicName = m.musicName || 'score';
      musicOn = settings.music !== false;
    }
    withShow = own ? Boolean(m.showText) : m.show;
    const picturing = own ? Promise.resolve(null) : fetchPicture('background.png').catch((e) => e);
    const showing = own ? Promise.resolve(m.showText || '')
      : withShow && !m.benchmark ? fetchShow('default.show').catch((e) => e) : Promise.resolve('');
    try {
      M = await loadModule(m.kind);
      readConstants();
    } catch (e) {
      post({ type: 'nomodule', text: e && e.message ? e.message : String(e) });
      return;
    }
    picture = await picturing;
    if (picture instanceof Error) {
      fail(`the picture (background.png) did not load: ${picture.message}`, false);
      picture = null;
    }

    if (m.benchmark) {
      const pic = picture || (source ? fitted(source, W, H, 'cover', fill) : new ImageData(W, H));
      try {
        await benchmark(m.kind, m.benchmark, pic);
      } catch (e) {
        fail(`the benchmark failed: ${e.message}`, true);
      }
      return;
    }

    showText = await showing;
    if (stopped)
      return;
    if (showText instanceof Error) {
      fail(`the show did not load: ${showText.message}`, false);
      showText = '';
    }
    try {
      p = makePool();
    } catch (e) {
      fail(e.message, true);
      return;
    }
    sizeCanvas();
    post({
      type: 'started', path: cstr(M._web_path(p)), version: cstr(M._web_version()), width: fw, height: fh,
    });
    // The first frame at once: a browser gives a worker's canvas no animation frames
    // while its element is off screen, and the page waits for a first frame.
    present(M._web_draw(p));
    dirty = false;
    frames = 1;
    post({ type: 'frames', frames });
    schedule();
  }

  // A new pool of w x h cells for a new size (the water starts calm again; the
  // picture, show and settings stay).
  function resize(w, h) {
    if (w === poolW && h === poolH)
      return;
    poolW = w;
    poolH = h;
    const old = p;
    try {
      p = makePool();
    } catch (e) {
      fail(e.message, true);
      return;
    }
    if (side && sideShares && M._web_share_sound(side, p) !== 0) { // before the old pool goes
      fail(`the side view's sound: ${cstr(M._web_error(side))}`, false);
      M._web_share_sound(side, 0);
      sideShares = false;
      soundTo(side);
    }
    M._web_destroy(old);
    sizeCanvas();
    dirty = true;
    last = -1;
  }

  function stop() {
    halted = true;
    if (rafId)
      cancelAnimationFrame(rafId);
    rafId = 0;
    if (side) // first: it plays the pool's sound
      M._web_destroy(side);
    side = 0;
    if (p)
      M._web_destroy(p);
    p = 0;
    sideShown = false;
    if (source)
      source.close();
    source = null;
    post({ type: 'stopped' });
  }

  // The page's messages.  Input before the pool exists is dropped.
  return function receive(m) {
    if (m.type === 'start') {
      start(m).catch((e) => fail(`ripple stopped: ${e && e.message ? e.message : e}`, true));
      return;
    }
    if (m.type === 'stop') {
      stopped = true;
      stop();
      return;
    }
    if (m.type === 'picture' && !p) { // before the pool: the pool starts with it
      if (source && source !== m.bitmap)
        source.close();
      source = m.bitmap;
      post({ type: 'pictured' });
      return;
    }
    if (m.type === 'run' && !p) { // before the pool: it starts as asked
      halted = !m.on;
      post({ type: 'run', on: m.on, frames });
      return;
    }
    if (!p)
      return;
    switch (m.type) {
    case 'stone':
      M._web_stone(cur(), m.x, m.y, m.big ? 1 : 0);
      takeOver();
      dirty = true;
      break;
    case 'trail':
      if (sideShown) // the side view drops at clicks only
        break;
      M._web_trail(p, m.x0, m.y0, m.x1, m.y1);
      takeOver();
      dirty = true;
      break;
    case 'key': key(m.key, m.once); break;
    case 'view': switchView().catch((e) => fail(`no side view: ${e.message}`, false)); break;
    case 'size':
      if (sideShown) // stones are the pool's
        break;
      if (m.delta)
        stoneSize(m.delta);
      takeOver();
      break;
    case 'sound':
      ambient = Boolean(m.ambient);
      heard = Boolean(m.playing);
      soundTo(p);
      if (side && !sideShares)
        soundTo(side);
      if (m.playing && !playing)
        soundAt = 0; // from now on the next frame
      playing = Boolean(m.playing);
      break;
    case 'music': // on or off, and a new score to play from its beginning
      musicOn = Boolean(m.on);
      M._web_set(p, MUSIC, musicOn ? 1 : 0);
      if (typeof m.text === 'string') {
        const why = giveMusic(p, m.text, m.name || 'score');
        if (why)
          fail(`the music did not load: ${why}`, false);
        else {
          musicText = m.text;
          musicName = m.name || 'score';
        }
      }
      post({ type: 'music', on: musicOn, score: M._web_get(p, SCORE) === 1 });
      break;
    case 'ahead': soundAhead(m.ms); break;
    case 'shot': screenshot(); break;
    case 'visible': last = -1; break;
    case 'drop':
      if (M._web_drop(p, m.x, m.y, m.radius, m.permille) !== 0)
        fail(cstr(M._web_error(p)), false);
      dirty = true;
      break;
    case 'set': {
      settings[m.name] = m.value;
      const why = apply(p, m.name, m.value);
      if (why)
        fail(why, false);
      dirty = true;
      post({ type: 'set', name: m.name });
      break;
    }
    case 'run':
      halted = !m.on;
      if (!halted) {
        last = -1;
        dirty = true;
        schedule();
      }
      post({ type: 'run', on: m.on, frames });
      break;
    case 'resize':
      resize(m.width, m.height);
      post({ type: 'resized', width: fw, height: fh, frames });
      break;
    case 'picture':
      if (source && source !== m.bitmap)
        source.close();
      source = m.bitmap;
      {
        const why = givePicture(p, fitted(source, poolW, poolH, fit, fill));
        if (why)
          fail(`the picture: ${why}`, false);
      }
      dirty = true;
      post({ type: 'pictured' });
      break;

    default: break;
    }
  };
}

// In a worker: say what this browser's workers can do (the page transfers its canvas
// only to one that can draw on it and time its frames), then take the page's messages.
if (typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope) {
  let can = typeof requestAnimationFrame === 'function' && typeof OffscreenCanvas === 'function';
  try {
    can = can && Boolean(new OffscreenCanvas(1, 1).getContext('2d'));
  } catch {
    can = false;
  }
  const receive = RippleEngine((msg, transfer) => self.postMessage(msg, transfer || []));
  self.onmessage = (e) => receive(e.data);
  self.postMessage({ type: 'hello', can });
}
