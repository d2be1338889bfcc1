// src/web/web.js - the page: picks the WebAssembly module, starts the engine (engine.js) in a Worker or in the page, and gives it the input; plays its sound and shows its overlay, help and the timedemo's report.
'use strict';

// The engine (engine.js) plays the pool: in a dedicated Worker that draws on the
// canvas through an OffscreenCanvas when the browser can (the main thread then only
// forwards input, plays the sound and writes the overlay), or in the page otherwise
// and with ?worker=0.  The two talk in messages, the same either way:
//
// page -> engine
//   start  {kind, canvas, seed, show, benchmark, framesEvery}   the canvas (an OffscreenCanvas
//          in a worker), the module ("simd" or "scalar"), ?seed=, ?show=0, and for the
//          timedemo benchmark {scene, frames, rounds, seconds} (else null)
//   stone  {x, y, big}          trail {x0, y0, x1, y1}          (cells of the field)
//   key    {key, once}          a key the engine handles (lower case; once: not a repeat)
//   size   {delta}              the wheel: the stone's size (0: only the user's input)
//   sound  {ambient, playing}   the drips and bed wanted; the page's audio runs
//   ahead  {ms}                 how far the page's queued sound is ahead of its output
//   shot   {}                   the frame as a PNG, please
//   visible {}                  the page is shown again: no catching up
// engine -> page
//   hello  {can}                (a worker, at once) whether it can draw and time frames
//   log    {level, text}        the module's output
//   fail   {text, genuine}      nomodule {text}
//   started {path, version, width, height[, scene, frames, rounds, seconds]}   the pool
//          (or the timedemo's) made
//   frames {frames}             every framesEvery frames
//   stats  {frames, fps, wasm, put, text, awake, state}   about 4 times a second
//   say    {text}               sound {pcm}   (stereo Int16Array, whole chunks)
//   shot   {blob}               report {report, text, frames}
//   progress {round, rounds, done, frames, elapsed, seconds}   the timedemo, as it goes

(() => {
  const RATE = 48000;        // the sound's rate: the engine mixes at it, AudioBuffers are made at it

  // The sound: the engine's chunks of CHUNK frames scheduled back to back; RING
  // AudioBuffers reused in turn (one is rewritten long after its play ended: the
  // queue is never more than MAX_AHEAD seconds long, shorter than the ring).  After
  // a gap the queue starts again START seconds ahead of the output.
  const CHUNK = 1024, RING = 16, START = 0.02, MAX_AHEAD = 0.25;

  // In a worker the engine tells the page its frame count every few frames only:
  // each message is a task on the main thread.
  const FRAMES_EVERY_WORKER = 4;

  const $ = (id) => document.getElementById(id);
  const stage = $('stage'), canvas = $('water'), overlay = $('overlay'), hint = $('hint');
  const note = $('note'), help = $('help'), message = $('message');
  const coarse = window.matchMedia && window.matchMedia('(pointer: coarse)').matches; // a touch screen

  // What the tests read, kept current.
  const ripple = window.ripple = {
    ready: false, module: null, path: null, frames: 0, stones: 0, error: null,
    share: null, copied: null, // the timedemo's line to share; how "copy result" copied it
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

  // --- the module and the engine -------------------------------------------

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

  // A worker whose engine can draw on an OffscreenCanvas and time its frames with
  // requestAnimationFrame, or null (the engine then runs in the page).  Only the
  // worker can tell what a worker has, so it says so before the canvas is given up.
  function startWorker() {
    if (query.get('worker') === '0' || typeof Worker !== 'function' ||
        typeof OffscreenCanvas !== 'function' ||
        typeof HTMLCanvasElement.prototype.transferControlToOffscreen !== 'function')
      return Promise.resolve(null);
    return new Promise((resolve) => {
      let w;
      try {
        w = new Worker('engine.js');
      } catch {
        resolve(null);
        return;
      }
      w.onmessage = (e) => {
        if (!e.data || e.data.type !== 'hello')
          return;
        w.onmessage = null;
        w.onerror = null;
        if (e.data.can) {
          resolve(w);
        } else {
          w.terminate();
          resolve(null);
        }
      };
      w.onerror = (e) => { // the script did not load or run: the page tries it itself
        e.preventDefault();
        w.terminate();
        resolve(null);
      };
    });
  }

  let send = () => {};       // a message to the engine
  let inWorker = false;
  let kind = '';             // "simd" or "scalar"
  let fw = 640, fh = 480;    // the field's size, cells
  let version = '';

  // --- the timedemo's page -------------------------------------------------

  let bench = null; // the timedemo's options ({scene, frames, rounds, seconds}), or null

  function benchStarted(m) {
    ripple.ready = true;
    const until = m.rounds ? `${m.rounds} round${m.rounds > 1 ? 's' : ''}` : `at least ${m.seconds} s`;
    $('bench-status').textContent =
      `benchmark ${m.scene}: rounds of ${m.frames} frames for ${until}, module ${kind}, path ${m.path}\u2026`;
    $('bench').hidden = false;
  }

  function benchProgress(m) {
    ripple.frames = m.done;
    const of = m.rounds ? ` of ${m.rounds}` : `, ${m.elapsed.toFixed(1)} of ${m.seconds} s`;
    $('bench-status').textContent = `benchmark: round ${m.round}${of}, frame ${m.done} of ${m.frames}\u2026`;
  }

  // The share line to the clipboard; where the browser will not (no clipboard, an
  // address that is not secure, a refusal), the line selected in its field and copied
  // the old way, or left selected for the user's own copy.
  async function copyShare(field, button) {
    const line = field.value;
    let how = 'clipboard';
    try {
      if (!navigator.clipboard || typeof navigator.clipboard.writeText !== 'function')
        throw new Error('no clipboard');
      await navigator.clipboard.writeText(line);
    } catch {
      field.focus();
      field.select();
      let copied = false;
      try {
        copied = document.execCommand('copy');
      } catch { /* refused: the line stays selected */ }
      how = copied ? 'selection' : 'field';
    }
    ripple.copied = how;
    button.textContent = how === 'field' ? 'selected: press Ctrl+C' : 'copied';
    setTimeout(() => { button.textContent = 'copy result'; }, 2500);
  }

  // The figures over the frame the run ended on, with the line to share.
  function showResults(r) {
    const panel = $('results');
    const rows = [
      ['scene', `${r.scene} \u2014 ${r.scene_about}`],
      ['size', `${r.width}x${r.height}, ${r.bpp} bpp`],
      ['path', `wasm-${r.module} (kernels ${r.path}), ${r.in_worker ? 'in a worker' : 'on the main thread'}`],
      ['threads', String(r.threads)],
      ['rounds', `${r.rounds} of ${r.frames} frames in ${r.seconds.toFixed(1)} s`],
      ['median', `${r.median_fps.toFixed(1)} fps \u00b1${r.spread.toFixed(1)}% ` +
        `(${r.fps_min.toFixed(0)} to ${r.fps_max.toFixed(0)})`],
      ['1% low', `${r.fps_1pct_low.toFixed(1)} fps`],
      ['crc32', `${r.crc32}${r.rounds > 1 ? (r.round_crc32.every((c) => c === r.crc32) ? ', every round' : ', rounds differ') : ''}`],
      ['browser', `${r.browser_name}, ${r.os}`],
      ['version', `ripple ${r.version}`],
    ];
    const table = $('results-table');
    table.textContent = '';
    for (const [k, v] of rows) {
      const tr = document.createElement('tr'), th = document.createElement('th'), td = document.createElement('td');
      th.textContent = k;
      td.textContent = v;
      tr.append(th, td);
      table.append(tr);
    }
    $('results-fps').textContent = `${Math.round(r.median_fps)} fps`;
    $('results-noisy').textContent = r.noisy ? `noisy: \u00b1${r.spread.toFixed(1)}% between rounds` : '';
    const field = $('share'), button = $('copy');
    field.value = r.share;
    button.onclick = () => copyShare(field, button);
    $('results-close').onclick = () => { panel.hidden = true; };
    panel.hidden = false;
    ripple.share = r.share;
  }

  function benchReport(m) {
    const status = $('bench-status');
    $('report').textContent = m.text;
    $('json').textContent = JSON.stringify(m.report);
    status.textContent = `benchmark done: ${m.report.median_fps.toFixed(1)} fps \u00b7 `;
    const again = document.createElement('a'), play = document.createElement('a');
    again.href = location.href;
    again.textContent = 'again';
    play.href = location.pathname;
    play.textContent = 'play with the water';
    status.append(again, ' \u00b7 ', play);
    showResults(m.report);
    ripple.frames = m.frames;
    window.rippleReport = m.report;
  }

  // --- the overlay and small notes ------------------------------------------

  let overlayOn = true, helpOn = false;

  function soundState() {
    return !soundOn ? 'sound off' : audio && audio.state === 'running' ? 'sound'
      : `sound waits for a ${coarse ? 'tap' : 'click'}`;
  }

  function showStats(m) {
    ripple.frames = m.frames;
    if (overlayOn) {
      const figures = m.fps >= 0
        ? `${m.fps.toFixed(1)} fps  wasm ${m.wasm.toFixed(2)} ms  put ${m.put.toFixed(2)} ms`
        : '-- fps'; // the first figures: no span yet to count them over
      overlay.textContent = `${figures}\n` +
        `module ${kind}, path ${ripple.path}, ${inWorker ? 'in a worker' : 'on the main thread'}\n` +
        `${m.text}\n` +
        `awake ${m.awake}%\n` +
        `${m.state}  ${soundState()}`;
    }
    if (audio && soundOn && audio.state === 'running' && nextTime > 0)
      send({ type: 'ahead', ms: (nextTime - audio.currentTime) * 1000 });
  }

  let noteTimer = 0;
  function say(text) {
    note.textContent = text;
    note.classList.add('on');
    clearTimeout(noteTimer);
    noteTimer = setTimeout(() => note.classList.remove('on'), 1800);
  }

  // Upscaled a lot, the pixels stay square and sharp; a little, smoothed (a 1.3x
  // nearest-neighbour scale would make rows of uneven height).
  function fitRendering() {
    const scale = canvas.getBoundingClientRect().width * (window.devicePixelRatio || 1) / fw;
    canvas.style.imageRendering = scale >= 2 ? 'pixelated' : 'auto';
  }

  // --- sound -------------------------------------------------------------

  let audio = null, buffers = [], ring = 0, nextTime = 0, soundOn = true, ambient = false;
  let told = '';
  const left = new Float32Array(CHUNK), right = new Float32Array(CHUNK);

  // The engine hears what changed: whether the pool queues drips (the sound is on and
  // was started) and whether it should mix (the audio runs).
  function tellSound() {
    const m = {
      type: 'sound', ambient: soundOn && ambient,
      playing: soundOn && Boolean(audio) && audio.state === 'running',
    };
    const s = `${m.ambient} ${m.playing}`;
    if (s !== told) {
      told = s;
      send(m);
    }
  }

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
      audio.onstatechange = () => {
        showHint();
        tellSound();
      };
      showHint();
    }
    ambient = true;
    tellSound();
    if (audio.state !== 'running')
      audio.resume().catch((e) => console.warn(`ripple: no sound: ${e.message}`));
  }

  function toggleSound() {
    soundOn = !soundOn;
    if (soundOn) {
      startSound();
    } else {
      tellSound();
      if (audio)
        audio.suspend();
    }
    say(`sound ${soundOn ? 'on' : 'off'}`);
  }

  // The engine's chunks, scheduled back to back.
  function playSound(pcm) {
    if (!audio || !soundOn || audio.state !== 'running')
      return;
    const now = audio.currentTime;
    const gap = nextTime < now + 0.01;
    if (gap) // fell behind (the first chunk, a hidden tab, a stall): start again ahead
      nextTime = now + START;
    for (let o = 0; o + 2 * CHUNK <= pcm.length && nextTime < now + MAX_AHEAD; o += 2 * CHUNK) {
      for (let i = 0; i < CHUNK; i++) {
        left[i] = pcm[o + 2 * i] / 32768;
        right[i] = pcm[o + 2 * i + 1] / 32768;
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
    if (gap) // the engine learns at once that the queue is short
      send({ type: 'ahead', ms: (nextTime - now) * 1000 });
  }

  // --- the hint, help ------------------------------------------------------

  // The hint: what to do, and that the sound waits for a click; it fades a while
  // after the start, sooner once the water has been touched.
  let hintTimer = 0, touched = false;
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

  // --- screenshots and fullscreen --------------------------------------------

  let shots = 0;
  const shotNames = []; // asked of the engine, in order

  function screenshot() {
    try {
      shots = Number(localStorage.getItem('ripple.shots')) || shots;
    } catch { /* storage may be off; count in the page */ }
    shots++;
    try {
      localStorage.setItem('ripple.shots', String(shots));
    } catch { /* the same */ }
    shotNames.push(`ripple-${String(shots).padStart(4, '0')}.png`);
    send({ type: 'shot' });
  }

  function saveShot(blob) {
    const name = shotNames.shift() || 'ripple.png';
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

  // --- input -------------------------------------------------------------

  // The keys the engine handles (the water, its look, the pause).
  const ENGINE_KEYS = new Set([' ', 'p', 'n', '.', 'c', 'Backspace', 'r', 'a', 'l',
    '+', '=', 'ArrowUp', '-', 'ArrowDown', '[', ']', 'w', 'z', 'x', 'v', 'b', 'd']);

  function onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey)
      return;
    const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    startSound();
    const once = !e.repeat; // toggles do not flicker under a held key
    switch (k) {
    case 'h': case 'F1': if (once) toggleHelp(); break;
    case 'Escape': toggleHelp(false); break;
    case 'o':
      if (once) {
        overlayOn = !overlayOn;
        overlay.hidden = !overlayOn;
      }
      break;
    case 'm': if (once) toggleSound(); break;
    case 's': if (once) screenshot(); break;
    case 'f': if (once) fullscreen(); break;
    case 'Tab': say('the side view is not in the page yet'); break;
    default:
      if (!ENGINE_KEYS.has(k))
        return;
      send({ type: 'key', key: k, once });
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
    send({ type: 'stone', x, y, big: e.button === 2 });
    ripple.stones++;
    if (!touched)
      fadeHint(1500);
    touched = true;
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
    send({ type: 'trail', x0: at[0], y0: at[1], x1: x, y1: y });
    at[0] = x;
    at[1] = y;
    ripple.stones++;
  }

  function onPointerUp(e) {
    drags.delete(e.pointerId);
  }

  let wheelSum = 0;
  function onWheel(e) {
    e.preventDefault();
    // a mouse notch is about 100 pixels; a touchpad sends many small deltas
    wheelSum += e.deltaMode === 0 ? e.deltaY : e.deltaY * 40;
    let delta = 0;
    while (Math.abs(wheelSum) >= 60) {
      delta += wheelSum < 0 ? 1 : -1;
      wheelSum -= Math.sign(wheelSum) * 60;
    }
    send({ type: 'size', delta });
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
    document.addEventListener('visibilitychange', () => {
      if (!document.hidden)
        send({ type: 'visible' });
    });
  }

  // --- what the engine says ----------------------------------------------

  function started(m) {
    ripple.path = m.path;
    fw = m.width;
    fh = m.height;
    version = m.version;
    fitRendering();
    if (bench) {
      benchStarted(m);
      return;
    }
    $('help-version').textContent = `ripple ${version}`;
    listen();
    showHint();
    fadeHint(8000);
  }

  function noModule(text) {
    fail(`ripple could not start: the ${kind} module did not load (${text})`, true);
    if (kind === 'simd') { // a browser may validate SIMD yet fail on the module: the other may run
      const a = document.createElement('a');
      query.set('module', 'scalar');
      a.href = `?${query}`;
      a.textContent = 'try the scalar module';
      message.append('\n', a);
    }
  }

  function onEngine(m) {
    switch (m.type) {
    case 'frames':
      ripple.frames = m.frames;
      ripple.ready = true;
      break;
    case 'sound': playSound(m.pcm); break;
    case 'stats': showStats(m); break;
    case 'say': say(m.text); break;
    case 'started': started(m); break;
    case 'progress': benchProgress(m); break;
    case 'report': benchReport(m); break;
    case 'shot': saveShot(m.blob); break;
    case 'fail': fail(m.text, m.genuine); break;
    case 'nomodule': noModule(m.text); break;
    case 'log': (m.level === 'warn' ? console.warn : console.log)(m.text); break;
    default: break;
    }
  }

  // --- the start -------------------------------------------------------------

  // The timedemo's options from the address, or null (said) when one is bad.
  // ?benchmark alone plays the default scene's rounds for at least 10 s; ?benchmark=N
  // one round of N frames (as the native --frames N), or with ?rounds= rounds of N.
  function benchOptions() {
    const frames = intParam('benchmark', 0, 1, 1000000);
    const rounds = intParam('rounds', 0, 1, 10000);
    const seconds = intParam('seconds', 10, 1, 3600);
    const bad = Number.isNaN(frames) ? '?benchmark= takes a number of frames from 1 to 1000000'
      : Number.isNaN(rounds) ? '?rounds= takes a number of rounds from 1 to 10000'
        : Number.isNaN(seconds) ? '?seconds= takes a number of seconds from 1 to 3600' : '';
    if (bad) {
      fail(bad, false);
      return null;
    }
    return {
      scene: query.get('scene') || '', frames, seconds,
      rounds: rounds || (frames && !query.has('seconds') ? 1 : 0),
    };
  }

  async function main() {
    window.addEventListener('resize', fitRendering);
    fitRendering();
    if (typeof WebAssembly !== 'object' || typeof WebAssembly.validate !== 'function') {
      fail('this browser has no WebAssembly: ripple cannot run here', true);
      return;
    }
    if (query.has('benchmark')) {
      bench = benchOptions();
      if (!bench)
        return;
    }
    let seed = intParam('seed', 1, 0, 2147483647);
    if (Number.isNaN(seed)) {
      console.warn('ripple: ?seed= takes a whole number from 0 to 2147483647: seed 1');
      seed = 1;
    }
    // the overlay starts shown, as in the native demo, but where the water is small
    // (a phone) it would hide too much of it: O or ?overlay=1 shows it there
    overlayOn = query.get('overlay') === '1' ||
      (query.get('overlay') !== '0' && canvas.getBoundingClientRect().width >= 560);
    overlay.hidden = !overlayOn;
    if (bench) {
      document.body.classList.add('benchmark');
      hint.hidden = true;
    }

    kind = chooseModule();
    ripple.module = kind;
    const start = {
      type: 'start', kind, seed, show: query.get('show') !== '0', benchmark: bench, framesEvery: 1,
    };
    const worker = await startWorker();
    if (worker) {
      inWorker = true;
      worker.onmessage = (e) => onEngine(e.data);
      worker.onerror = (e) => {
        e.preventDefault();
        fail(`ripple stopped: ${e.message || 'the worker failed'}`, true);
      };
      send = (msg, transfer) => worker.postMessage(msg, transfer || []);
      const offscreen = canvas.transferControlToOffscreen();
      send({ ...start, canvas: offscreen, framesEvery: FRAMES_EVERY_WORKER }, [offscreen]);
      return;
    }
    try {
      await loadScript('engine.js');
    } catch (e) {
      fail(`ripple could not start: ${e.message}`, true);
      return;
    }
    const receive = window.RippleEngine((msg) => onEngine(msg), loadScript);
    send = (msg) => receive(msg);
    send({ ...start, canvas });
  }

  main().catch((e) => fail(`ripple stopped: ${e && e.message ? e.message : e}`, true));
})();
