// src/web/web.js - the page: picks and loads the WebAssembly module, plays the pool on a canvas with its input, sound and overlay, and runs the timedemo.
'use strict';

(() => {
  // The field and the clock, as the native demo has them (src/app/app.h).
  const W = 640, H = 480;
  const STEP_HZ = 60;
  const MAX_STEPS = 4;       // steps a frame at most: a slow frame drops time rather than stalls
  const IDLE_MS = 6000;      // the show or the autopilot waits this long after the user's input
  const RATE = 48000;        // the sound's rate: the pool mixes at it, AudioBuffers are made at it
  const STONE_MIN = 1, STONE_MAX = 40;
  const STRENGTH_MAX = 64;

  // web_get / web_set's settings (src/web/web.h).
  const RAIN = 0, AUTO = 1, LIGHT = 2, STRENGTH = 3, STONE = 4, MODEL = 5, AMBIENT = 6,
    SHOW = 7, WIDTH = 8, HEIGHT = 9, AWAKE = 10;

  // The sound: chunks of CHUNK frames scheduled back to back, LEAD seconds ahead of the
  // output; RING AudioBuffers reused in turn (one is rewritten long after its play ended).
  const CHUNK = 1024, LEAD = 0.09, RING = 16;

  // The timedemo's histogram: 10-microsecond bins up to one second, as the native one.
  const BIN_US = 10, BINS = 100000;

  const $ = (id) => document.getElementById(id);
  const stage = $('stage'), canvas = $('water'), overlay = $('overlay'), hint = $('hint');
  const note = $('note'), help = $('help'), message = $('message');
  const ctx = canvas.getContext('2d', { alpha: false });
  const coarse = window.matchMedia && window.matchMedia('(pointer: coarse)').matches; // a touch screen

  // What the tests read, kept current.
  const ripple = window.ripple = {
    ready: false, module: null, path: null, frames: 0, stones: 0, error: null,
  };

  // --- failures --------------------------------------------------------------

  function showMessage(text, kind) {
    message.textContent = text;
    message.className = `panel ${kind}`;
    message.hidden = false;
  }

  // Something failed: said in the page and kept for the tests.  Only a module that
  // does not load is an error on the console; the rest are warnings.
  function fail(text, genuine) {
    ripple.error = ripple.error ? `${ripple.error}; ${text}` : text;
    showMessage(text, genuine ? 'error' : 'warning');
    if (genuine)
      hint.hidden = true;
    (genuine ? console.error : console.warn)(`ripple: ${text}`);
  }

  // --- the address's options -----------------------------------------------

  const query = new URLSearchParams(location.search);

  // An integer option in lo..hi: its value, fallback when absent or empty, or NaN when bad.
  function intParam(name, fallback, lo, hi) {
    if (!query.has(name) || query.get(name).trim() === '')
      return fallback;
    const s = query.get(name).trim();
    const v = /^[+-]?\d+$/.test(s) ? Number(s) : NaN;
    return v >= lo && v <= hi ? v : NaN;
  }

  // --- the module --------------------------------------------------------

  // The smallest module with a v128 instruction: (func (result v128) i32.const 0 i8x16.splat).
  // A browser that validates it runs the SIMD build.
  const SIMD_PROBE = new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version 1
    0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b,       // types: () -> v128
    0x03, 0x02, 0x01, 0x00,                         // functions: one of type 0
    0x0a, 0x08, 0x01, 0x06, 0x00,                   // code: one body of 6 bytes, no locals
    0x41, 0x00, 0xfd, 0x0f, 0x0b,                   // i32.const 0, i8x16.splat, end
  ]);

  function chooseModule() {
    const forced = query.get('module');
    if (forced === 'simd' || forced === 'scalar')
      return forced;
    if (forced !== null && forced !== '')
      console.warn(`ripple: ?module=${forced}: not simd or scalar, choosing by the browser`);
    try {
      return WebAssembly.validate(SIMD_PROBE) ? 'simd' : 'scalar';
    } catch {
      return 'scalar';
    }
  }

  function loadScript(src) {
    return new Promise((resolve, reject) => {
      const s = document.createElement('script');
      s.src = src;
      s.onload = resolve;
      s.onerror = () => reject(new Error(`${src} did not load`));
      document.head.append(s);
    });
  }

  let M = null; // the module

  async function loadModule(kind) {
    await loadScript(`ripple-${kind}.js`);
    if (typeof window.RippleModule !== 'function')
      throw new Error(`ripple-${kind}.js defines no RippleModule`);
    return window.RippleModule({
      locateFile: (path) => new URL(path, document.baseURI).href,
      print: (text) => console.log(text),
      printErr: (text) => console.warn(text),
    });
  }

  const cstr = (ptr) => (ptr ? M.UTF8ToString(ptr) : '');

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
    const res = await fetch(url);
    if (!res.ok)
      throw new Error(`${url}: HTTP ${res.status}`);
    const bmp = await createImageBitmap(await res.blob(),
      { premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
    const { width, height } = bmp;
    // An OffscreenCanvas when it draws in 2D (some Safaris have one that does not), else a canvas.
    let g = typeof OffscreenCanvas === 'function'
      ? new OffscreenCanvas(width, height).getContext('2d', { willReadFrequently: true })
      : null;
    if (!g) {
      const c = document.createElement('canvas');
      c.width = width;
      c.height = height;
      g = c.getContext('2d', { willReadFrequently: true });
    }
    g.drawImage(bmp, 0, 0);
    bmp.close();
    return g.getImageData(0, 0, width, height);
  }

  // The picture into pool p: null, or why it was refused.
  function givePicture(p, pic) {
    const n = pic.width * pic.height * 4;
    const ptr = M._malloc(n);
    if (!ptr)
      return 'out of memory for the picture';
    M.HEAPU8.set(pic.data, ptr);
    const r = M._web_picture(p, ptr, pic.width, pic.height);
    M._free(ptr);
    return r === 0 ? null : cstr(M._web_error(p));
  }

  function giveShow(p, text, name) {
    const r = withString(text, (t) => withString(name, (n) => M._web_show(p, t, n)));
    return r === 0 ? null : cstr(M._web_error(p));
  }

  // --- presenting a frame ------------------------------------------------

  // The frame's ImageData lies over the module's memory: made again only when the
  // frame moved or the memory grew, so a frame allocates nothing.
  let view = null, viewPtr = 0, viewBuf = null, fw = W, fh = H;

  function present(ptr) {
    const buf = M.HEAPU8.buffer;
    if (ptr !== viewPtr || buf !== viewBuf) {
      view = new ImageData(new Uint8ClampedArray(buf, ptr, fw * fh * 4), fw, fh);
      viewPtr = ptr;
      viewBuf = buf;
    }
    ctx.putImageData(view, 0, 0);
  }

  // Upscaled a lot, the pixels stay square and sharp; a little, smoothed (a 1.3x
  // nearest-neighbour scale would make rows of uneven height).
  function fitRendering() {
    const scale = canvas.getBoundingClientRect().width * (window.devicePixelRatio || 1) / fw;
    canvas.style.imageRendering = scale >= 2 ? 'pixelated' : 'auto';
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
  // loop with it so the page paints while the frames run as fast as they can.
  const channel = new MessageChannel();
  let onYield = null;
  channel.port1.onmessage = () => onYield();
  const yieldNow = () => new Promise((resolve) => { onYield = resolve; channel.port2.postMessage(0); });

  async function benchmark(kind, frames, pic) {
    const status = $('bench-status');
    const p = M._web_bench_create();
    if (!p)
      throw new Error("no pool for the timedemo (out of memory?)");
    const why = givePicture(p, pic);
    if (why)
      fail(`background.png: ${why}`, false);
    fw = M._web_get(p, WIDTH);
    fh = M._web_get(p, HEIGHT);
    canvas.width = fw;
    canvas.height = fh;
    const version = cstr(M._web_version()), path = cstr(M._web_path(p));
    ripple.path = path;
    ripple.ready = true;
    status.textContent = `benchmark: ${frames} frames, module ${kind}, path ${path}\u2026`;
    $('bench').hidden = false;
    await yieldNow(); // the page shows the status before the run takes the thread

    const hist = new Uint32Array(BINS);
    let msStep = 0, msDraw = 0, msPresent = 0, done = 0;
    const start = performance.now();
    while (done < frames) {
      const until = performance.now() + 16;
      while (done < frames) {
        const t0 = performance.now();
        M._web_bench_frame(p);
        const t1 = performance.now();
        const ptr = M._web_draw(p);
        const t2 = performance.now();
        present(ptr);
        const t3 = performance.now();
        msStep += t1 - t0;
        msDraw += t2 - t1;
        msPresent += t3 - t2;
        const bin = Math.floor((t3 - t0) * 1000 / BIN_US);
        hist[bin < BINS ? bin : BINS - 1]++;
        done++;
        if (t3 >= until)
          break;
      }
      ripple.frames = done;
      status.textContent = `benchmark: frame ${done} of ${frames}\u2026`;
      await yieldNow();
    }
    const ms = performance.now() - start;

    // The frame time below which 99% of the frames lie, as frames per second.
    let low = 0;
    for (let i = 0, seen = 0, want = frames - Math.floor(frames / 100); i < BINS; i++) {
      seen += hist[i];
      if (seen >= want && seen > 0) {
        low = 1e6 / ((i + 1) * BIN_US);
        break;
      }
    }
    const hp = M._web_heights(p);
    const crc = hex8(crc32(new Uint8Array(M.HEAPU8.buffer, hp, fw * fh * 2)));
    const seconds = ms / 1000, n = frames;
    const rest = ms - msStep - msDraw - msPresent;
    const about = "the pool, classic water: the autopilot's stones and rain from seed 1 (the default)";
    const report = {
      version, scene: 'busy-1', scene_name: 'busy', scene_version: 1, scene_about: about,
      width: fw, height: fh, bpp: 32, scale: 1, path, threads: 1,
      present: 'canvas putImageData', frames: n, seconds, fps: n / seconds, fps_1pct_low: low,
      ms_per_frame: {
        step: msStep / n, refract: msDraw / n, present: msPresent / n, rest: rest / n, total: ms / n,
      },
      crc32: crc, module: kind, browser: navigator.userAgent,
      timer_ms: timerStep(), cross_origin_isolated: Boolean(window.crossOriginIsolated),
    };
    const f4 = (v) => v.toFixed(4);
    $('report').textContent = [
      `ripple ${version} benchmark, scene busy-1`,
      `scene     busy version 1: ${about}`,
      `browser   ${navigator.userAgent}`,
      `field     ${fw}x${fh}, 32 bpp, scale 1, path ${path}, 1 thread (module ${kind})`,
      'present   canvas putImageData',
      `frames    ${n} in ${seconds.toFixed(3)} s: ${(n / seconds).toFixed(1)} fps average, ` +
        `${low.toFixed(1)} fps 1% low`,
      `ms/frame  stones+step ${f4(msStep / n)}  refract ${f4(msDraw / n)}  ` +
        `present ${f4(msPresent / n)}  rest ${f4(rest / n)}  total ${f4(ms / n)}`,
      `water     crc32 ${crc}`,
    ].join('\n');
    $('json').textContent = JSON.stringify(report);
    status.textContent = `benchmark done: ${(n / seconds).toFixed(1)} fps \u00b7 `;
    const again = document.createElement('a'), play = document.createElement('a');
    again.href = location.href;
    again.textContent = 'again';
    play.href = location.pathname;
    play.textContent = 'play with the water';
    status.append(again, ' \u00b7 ', play);
    ripple.frames = done;
    window.rippleReport = report;
    M._web_destroy(p);
  }

  // --- playing ---------------------------------------------------------------

  let p = 0;                 // the pool
  let kind = '';             // "simd" or "scalar"
  let seed = 1, withShow = true;
  let picture = null, showText = '';
  let paused = false, stepOnce = false, dirty = true;
  let touched = false, lastInput = 0;
  let overlayOn = true, helpOn = false;
  let last = -1, due = 0;

  function takeOver() {
    touched = true;
    lastInput = performance.now();
  }

  let noteTimer = 0;
  function say(text) {
    note.textContent = text;
    note.classList.add('on');
    clearTimeout(noteTimer);
    noteTimer = setTimeout(() => note.classList.remove('on'), 1800);
  }

  // The pool from the seed, with the picture and the show.
  function makePool() {
    const q = M._web_create(W, H, seed, RATE);
    if (!q)
      throw new Error(`ripple could not start: no pool of ${W}x${H} (out of memory?)`);
    if (picture) {
      const why = givePicture(q, picture);
      if (why)
        fail(`background.png: ${why}`, false);
    }
    if (withShow && showText) {
      const why = giveShow(q, showText, 'default.show');
      if (why)
        fail(`the show did not load: ${why}`, false);
    }
    if (!withShow) {
      M._web_set(q, RAIN, 0);
      M._web_set(q, AUTO, 0);
    }
    fw = M._web_get(q, WIDTH);
    fh = M._web_get(q, HEIGHT);
    return q;
  }

  // C: the water calmed (the settings, the walls and the show's place stay).
  function reset() {
    M._web_reset(p);
    dirty = true;
    say('water calmed');
  }

  // Figures over the last quarter second, for the overlay.
  let statFrames = 0, statWasm = 0, statPut = 0, statSince = 0;

  function frame(now) {
    requestAnimationFrame(frame);
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
        M._web_steps(p, steps, !touched || now - lastInput > IDLE_MS ? 1 : 0);
      const ptr = M._web_draw(p);
      const t1 = performance.now();
      present(ptr);
      const t2 = performance.now();
      dirty = false;
      ripple.frames++;
      statFrames++;
      statWasm += t1 - t0;
      statPut += t2 - t1;
      ripple.ready = true;
    }
    pumpSound();
    if (now - statSince >= 250)
      updateOverlay(now);
  }

  function stateLine() {
    const on = (k) => M._web_get(p, k) !== 0;
    const parts = [];
    if (paused)
      parts.push('PAUSED');
    if (on(RAIN))
      parts.push('rain');
    if (on(AUTO))
      parts.push(on(SHOW) ? 'show' : 'auto');
    if (on(LIGHT))
      parts.push('light');
    parts.push(`strength ${M._web_get(p, STRENGTH)}/16`, `stone ${M._web_get(p, STONE)}`);
    parts.push(!soundOn ? 'sound off' : audio && audio.state === 'running' ? 'sound'
      : `sound waits for a ${coarse ? 'tap' : 'click'}`);
    return parts.join('  ');
  }

  function updateOverlay(now) {
    if (overlayOn) {
      const secs = (now - statSince) / 1000, n = statFrames || 1;
      const figures = statSince > 0
        ? `${(statFrames / secs).toFixed(1)} fps  wasm ${(statWasm / n).toFixed(2)} ms  ` +
          `put ${(statPut / n).toFixed(2)} ms`
        : '-- fps'; // the first frame: no figures yet
      overlay.textContent = `${figures}\n` +
        `module ${kind}, path ${ripple.path}\n` +
        `${cstr(M._web_text(p))}\n` +
        `awake ${M._web_get(p, AWAKE)}%\n` +
        stateLine();
    }
    statSince = now;
    statFrames = 0;
    statWasm = 0;
    statPut = 0;
  }

  // --- sound -------------------------------------------------------------

  let audio = null, buffers = [], ring = 0, nextTime = 0, soundOn = true;
  const left = new Float32Array(CHUNK), right = new Float32Array(CHUNK);

  // The first click or key starts the sound (browsers wait for a gesture).
  function startSound() {
    if (!soundOn)
      return;
    if (!audio) {
      const AC = window.AudioContext || window.webkitAudioContext;
      if (!AC)
        return;
      try {
        audio = new AC({ sampleRate: RATE, latencyHint: 'interactive' });
      } catch {
        audio = new AC(); // the buffers are still made at RATE: the browser resamples them
      }
      for (let i = 0; i < RING; i++)
        buffers.push(audio.createBuffer(2, CHUNK, RATE));
      nextTime = 0;
      audio.onstatechange = () => showHint();
      showHint();
    }
    M._web_set(p, AMBIENT, 1);
    if (audio.state !== 'running')
      audio.resume().catch((e) => console.warn(`ripple: no sound: ${e.message}`));
  }

  function toggleSound() {
    soundOn = !soundOn;
    if (soundOn) {
      startSound();
    } else {
      M._web_set(p, AMBIENT, 0);
      if (audio)
        audio.suspend();
    }
    say(`sound ${soundOn ? 'on' : 'off'}`);
  }

  // The sound due: mixed and scheduled chunk after chunk, LEAD ahead of the output.
  function pumpSound() {
    if (!audio || !soundOn || audio.state !== 'running')
      return;
    const now = audio.currentTime;
    if (nextTime < now + 0.01) // fell behind (a hidden tab, a stall): start again ahead
      nextTime = now + LEAD * 0.75;
    for (let guard = 0; nextTime < now + LEAD && guard < 8; guard++) {
      const o = M._web_mix(p, CHUNK) >> 1;
      const s = M.HEAP16;
      for (let i = 0; i < CHUNK; i++) {
        left[i] = s[o + 2 * i] / 32768;
        right[i] = s[o + 2 * i + 1] / 32768;
      }
      const b = buffers[ring];
      ring = (ring + 1) % RING;
      b.copyToChannel(left, 0);
      b.copyToChannel(right, 1);
      const src = audio.createBufferSource();
      src.buffer = b;
      src.connect(audio.destination);
      src.start(nextTime);
      nextTime += CHUNK / RATE;
    }
  }

  // --- the hint, help and small notes ----------------------------------------

  // The hint: what to do, and that the sound waits for a click; it fades a while
  // after the start, sooner once the water has been touched.
  let hintTimer = 0;
  function showHint() {
    const waiting = soundOn && (!audio || audio.state !== 'running');
    hint.textContent = coarse
      ? `tap the water${waiting ? '; tap for sound' : ''}`
      : `click the water; H for help${waiting ? ' \u00b7 click for sound' : ''}`;
  }

  function fadeHint(ms) {
    clearTimeout(hintTimer);
    hintTimer = setTimeout(() => hint.classList.add('gone'), ms);
  }

  function toggleHelp(on = !helpOn) {
    helpOn = on;
    help.hidden = !on;
  }

  function fillHelp() {
    $('help-version').textContent = `ripple ${cstr(M._web_version())}`;
  }

  // --- input -------------------------------------------------------------

  function setting(k, v) {
    return M._web_set(p, k, v);
  }

  function toggle(k, name) {
    const v = setting(k, M._web_get(p, k) ? 0 : 1);
    say(`${name} ${v ? 'on' : 'off'}`);
    dirty = true;
  }

  function stoneSize(delta) {
    const s = Math.min(STONE_MAX, Math.max(STONE_MIN, M._web_get(p, STONE) + delta));
    say(`stone size ${setting(STONE, s)}`);
  }

  function strength(delta) {
    const s = Math.min(STRENGTH_MAX, Math.max(0, M._web_get(p, STRENGTH) + delta));
    say(`refraction ${setting(STRENGTH, s)}/16`);
    dirty = true;
  }

  function wave(speed, viscosity) {
    if (M._web_wave(p, speed, viscosity) !== 0) {
      say(`refused: ${cstr(M._web_error(p))}`);
      return;
    }
    const wavy = M._web_get(p, MODEL) === 1;
    say(`${cstr(M._web_text(p))}${wavy ? '' : '  (W: wave water)'}`);
  }

  let shots = 0;
  function screenshot() {
    try {
      shots = Number(localStorage.getItem('ripple.shots')) || shots;
    } catch { /* storage may be off; count in the page */ }
    shots++;
    try {
      localStorage.setItem('ripple.shots', String(shots));
    } catch { /* the same */ }
    const name = `ripple-${String(shots).padStart(4, '0')}.png`;
    canvas.toBlob((blob) => {
      if (!blob) {
        say('screenshot failed');
        return;
      }
      const a = document.createElement('a');
      a.href = URL.createObjectURL(blob);
      a.download = name;
      a.click();
      setTimeout(() => URL.revokeObjectURL(a.href), 10000);
      say(`saved ${name}`);
    }, 'image/png');
  }

  function fullscreen() {
    if (document.fullscreenElement || document.webkitFullscreenElement) {
      (document.exitFullscreen || document.webkitExitFullscreen).call(document);
    } else if (stage.requestFullscreen) {
      stage.requestFullscreen().catch((e) => say(`no fullscreen: ${e.message}`));
    } else if (stage.webkitRequestFullscreen) {
      stage.webkitRequestFullscreen();
    } else {
      say('no fullscreen in this browser');
    }
  }

  // The keys that change the water or its look: the show waits after them.
  const TAKE_OVER = new Set(['c', 'Backspace', 'r', 'l', '+', '=', 'ArrowUp', '-', 'ArrowDown',
    '[', ']', 'w', 'z', 'x', 'v', 'b']);

  function onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey)
      return;
    const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    startSound();
    if (TAKE_OVER.has(k))
      takeOver();
    const once = !e.repeat; // toggles do not flicker under a held key
    switch (k) {
    case 'h': case 'F1': if (once) toggleHelp(); break;
    case 'Escape': toggleHelp(false); break;
    case ' ': case 'p':
      if (once) {
        paused = !paused;
        say(paused ? 'paused (N: a step)' : 'playing');
      }
      break;
    case 'n': case '.': paused = true; stepOnce = true; break;
    case 'c': case 'Backspace': if (once) reset(); break;
    case 'r': if (once) toggle(RAIN, 'rain'); break;
    case 'a': if (once) toggle(AUTO, M._web_get(p, SHOW) ? 'show' : 'autopilot'); break;
    case 'l': if (once) toggle(LIGHT, 'light'); break;
    case '+': case '=': case 'ArrowUp': strength(2); break;
    case '-': case 'ArrowDown': strength(-2); break;
    case '[': stoneSize(-1); break;
    case ']': stoneSize(1); break;
    case 'o':
      if (once) {
        overlayOn = !overlayOn;
        overlay.hidden = !overlayOn;
      }
      break;
    case 'm': if (once) toggleSound(); break;
    case 'w':
      if (once) {
        setting(MODEL, M._web_get(p, MODEL) ? 0 : 1);
        say(cstr(M._web_text(p)));
      }
      break;
    case 'z': wave(-1, 0); break;
    case 'x': wave(1, 0); break;
    case 'v': wave(0, -1); break;
    case 'b': wave(0, 1); break;
    case 's': if (once) screenshot(); break;
    case 'f': if (once) fullscreen(); break;
    case 'Tab': say('the side view is not in the page yet'); break;
    default: return;
    }
    e.preventDefault();
  }

  // A pointer's place on the canvas as a cell of the field.
  function cellOf(e) {
    const r = canvas.getBoundingClientRect();
    const x = Math.floor((e.clientX - r.left) * fw / r.width);
    const y = Math.floor((e.clientY - r.top) * fh / r.height);
    return [Math.min(fw - 1, Math.max(0, x)), Math.min(fh - 1, Math.max(0, y))];
  }

  const drags = new Map(); // pointer id -> its last cell: fingers drag apart

  function onPointerDown(e) {
    if (e.pointerType === 'touch')
      e.preventDefault();
    startSound();
    if (e.button !== 0 && e.button !== 2)
      return;
    const [x, y] = cellOf(e);
    M._web_stone(p, x, y, e.button === 2 ? 1 : 0);
    ripple.stones++;
    if (!touched)
      fadeHint(1500);
    takeOver();
    dirty = true;
    drags.set(e.pointerId, [x, y]);
    canvas.setPointerCapture(e.pointerId);
  }

  function onPointerMove(e) {
    const at = drags.get(e.pointerId);
    if (!at)
      return;
    const [x, y] = cellOf(e);
    if (x === at[0] && y === at[1])
      return;
    M._web_trail(p, at[0], at[1], x, y);
    at[0] = x;
    at[1] = y;
    ripple.stones++;
    takeOver();
    dirty = true;
  }

  function onPointerUp(e) {
    drags.delete(e.pointerId);
  }

  let wheelSum = 0;
  function onWheel(e) {
    e.preventDefault();
    // a mouse notch is about 100 pixels; a touchpad sends many small deltas
    wheelSum += e.deltaMode === 0 ? e.deltaY : e.deltaY * 40;
    while (Math.abs(wheelSum) >= 60) {
      stoneSize(wheelSum < 0 ? 1 : -1);
      wheelSum -= Math.sign(wheelSum) * 60;
    }
    takeOver();
  }

  function listen() {
    canvas.addEventListener('pointerdown', onPointerDown);
    canvas.addEventListener('pointermove', onPointerMove);
    canvas.addEventListener('pointerup', onPointerUp);
    canvas.addEventListener('pointercancel', onPointerUp);
    canvas.addEventListener('contextmenu', (e) => e.preventDefault());
    canvas.addEventListener('wheel', onWheel, { passive: false });
    window.addEventListener('keydown', onKey);
    help.addEventListener('click', () => toggleHelp(false));
    $('help-link').addEventListener('click', (e) => {
      e.preventDefault();
      toggleHelp();
    });
    message.addEventListener('click', () => {
      if (message.classList.contains('warning'))
        message.hidden = true;
    });
    document.addEventListener('visibilitychange', () => { last = -1; });
  }

  // --- the start -------------------------------------------------------------

  async function main() {
    window.addEventListener('resize', fitRendering);
    fitRendering();
    if (typeof WebAssembly !== 'object' || typeof WebAssembly.validate !== 'function') {
      fail('this browser has no WebAssembly: ripple cannot run here', true);
      return;
    }
    const benchFrames = query.has('benchmark') ? intParam('benchmark', 2000, 1, 1000000) : 0;
    if (Number.isNaN(benchFrames)) {
      fail('?benchmark= takes a number of frames from 1 to 1000000', false);
      return;
    }
    seed = intParam('seed', 1, 0, 2147483647);
    if (Number.isNaN(seed)) {
      console.warn('ripple: ?seed= takes a whole number from 0 to 2147483647: seed 1');
      seed = 1;
    }
    withShow = query.get('show') !== '0';
    // the overlay starts shown, as in the native demo, but where the water is small
    // (a phone) it would hide too much of it: O or ?overlay=1 shows it there
    overlayOn = query.get('overlay') === '1' ||
      (query.get('overlay') !== '0' && canvas.getBoundingClientRect().width >= 560);
    overlay.hidden = !overlayOn;
    if (benchFrames) {
      document.body.classList.add('benchmark');
      hint.hidden = true;
    }

    kind = chooseModule();
    ripple.module = kind;
    const picturing = fetchPicture('background.png').catch((e) => e);
    const showing = withShow && !benchFrames
      ? fetch('default.show').then((r) => {
        if (!r.ok)
          throw new Error(`default.show: HTTP ${r.status}`);
        return r.text();
      }).catch((e) => e)
      : Promise.resolve('');
    try {
      M = await loadModule(kind);
    } catch (e) {
      fail(`ripple could not start: the ${kind} module did not load (${e && e.message ? e.message : e})`, true);
      if (kind === 'simd') { // a browser may validate SIMD yet fail on the module: the other may run
        const a = document.createElement('a');
        query.set('module', 'scalar');
        a.href = `?${query}`;
        a.textContent = 'try the scalar module';
        message.append('\n', a);
      }
      return;
    }
    const pic = await picturing;
    if (pic instanceof Error)
      fail(`the picture (background.png) did not load: ${pic.message}`, false);
    else
      picture = pic;

    if (benchFrames) {
      try {
        await benchmark(kind, benchFrames, picture || new ImageData(W, H));
      } catch (e) {
        fail(`the benchmark failed: ${e.message}`, true);
      }
      return;
    }

    const text = await showing;
    if (text instanceof Error)
      fail(`the show did not load: ${text.message}`, false);
    else
      showText = text;
    try {
      p = makePool();
    } catch (e) {
      fail(e.message, true);
      return;
    }
    ripple.path = cstr(M._web_path(p));
    canvas.width = fw;
    canvas.height = fh;
    fillHelp();
    listen();
    showHint();
    fadeHint(8000);
    requestAnimationFrame(frame);
  }

  main().catch((e) => fail(`ripple stopped: ${e && e.message ? e.message : e}`, true));
})();
