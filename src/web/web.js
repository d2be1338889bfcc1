// src/web/web.js - the demo page: the water through the component (ripple-water.classic.js) on its 640x480 pool, with the demo's input, overlay, help and the timedemo's report on top.
'use strict';

// The component (ripple-water.classic.js) starts the engine (engine.js) in a Worker or
// in the page, picks the module and plays the sound; this page gives it the demo's own
// input (the play's stones by size, a drag's trail, the keys) through the handle's
// post, in engine.js's messages:
//   stone  {x, y, big}          trail {x0, y0, x1, y1}          (cells of the field)
//   key    {key, once}          a key the engine handles (lower case; once: not a repeat)
//   size   {delta}              the wheel: the stone's size (0: only the user's input)
//   view   {}                   Tab: the side view, or the pool again
// and hears what the engine says through the component's on(type, message):
//   started {path, version, width, height[, scene, frames, rounds, seconds]}
//   stats  {frames, fps, wasm, put, text, awake, state, view, bodies, music, musicAt, steps}
//                               about 4 times a second (music: 'none', 'on' or 'off'; musicAt:
//                               frames into its loop; steps: the pool's since it was made)
//   view   {view}               "side" or "pool": the one now shown
//   say    {text}               fail {text, genuine}        nomodule {text}
//   progress {round, rounds, done, frames, elapsed, seconds}   report {report, text, frames}

(() => {
  const $ = (id) => document.getElementById(id);
  const stage = $('stage'), water = $('water'), overlay = $('overlay'), hint = $('hint');
  const note = $('note'), help = $('help'), message = $('message');
  const coarse = window.matchMedia && window.matchMedia('(pointer: coarse)').matches; // a touch screen

  // The component's handle, once attached.
  let w = null;
  let benchFrames = 0;

  // What the tests read, kept current.
  const ripple = window.ripple = {
    ready: false, module: null, path: null, stones: 0, error: null,
    view: 'pool', bodies: -1, // the view shown, and the side view's bodies (-1: not shown yet)
    music: 'none', musicAt: 0, steps: 0, // the music ('none', 'on', 'off'), where it is, the pool's steps
    share: null, copied: null, // the timedemo's line to share; how "copy result" copied it
    get frames() { return bench ? benchFrames : w ? w.frames : 0; },
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

  // --- the engine -------------------------------------------------------------

  let send = () => {};       // a message to the engine (the handle's post)
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
    benchFrames = m.done;
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
    benchFrames = m.frames;
    window.rippleReport = m.report;
  }

  // --- the overlay and small notes ------------------------------------------

  let overlayOn = true, helpOn = false;

  function soundState() {
    const st = w ? w.soundState() : 'off';
    return st === 'off' ? 'sound off' : st === 'on' ? 'sound' : `sound waits for a ${coarse ? 'tap' : 'click'}`;
  }

  function showStats(m) {
    if (m.view === 'side')
      ripple.bodies = m.bodies;
    ripple.music = m.music;
    ripple.musicAt = m.musicAt;
    ripple.steps = m.steps;
    if (overlayOn) {
      const figures = m.fps >= 0
        ? `${m.fps.toFixed(1)} fps  wasm ${m.wasm.toFixed(2)} ms  put ${m.put.toFixed(2)} ms`
        : '-- fps'; // the first figures: no span yet to count them over
      overlay.textContent = `${figures}\n` +
        `module ${kind}, path ${ripple.path}, ${w && w.inWorker ? 'in a worker' : 'on the main thread'}\n` +
        `${m.text}\n` +
        `awake ${m.awake}%${m.view === 'side' ? ' of the waters' : ''}\n` +
        `${m.state}  ${soundState()}${m.music === 'none' ? '' : m.music === 'on' ? '  music' : '  music off'}`;
      if (note.classList.contains('on'))
        placeNote();
    }
  }

  // The note under the overlay where it is shown, not over its lines (which change in
  // number with the view).
  function placeNote() {
    const top = overlayOn && overlay.textContent ? `${overlay.offsetTop + overlay.offsetHeight + 6}px` : '';
    if (note.style.top !== top)
      note.style.top = top;
  }

  let noteTimer = 0;
  function say(text) {
    note.textContent = text;
    placeNote();
    note.classList.add('on');
    clearTimeout(noteTimer);
    noteTimer = setTimeout(() => note.classList.remove('on'), 1800);
  }

  // Upscaled a lot, the pixels stay square and sharp; a little, smoothed (a 1.3x
  // nearest-neighbour scale would make rows of uneven height).
  function fitRendering() {
    if (!w)
      return;
    const scale = water.getBoundingClientRect().width * (window.devicePixelRatio || 1) / fw;
    w.canvas.style.imageRendering = scale >= 2 ? 'pixelated' : 'auto';
  }

  // The side view or the pool shown: its keys in the help.
  function showView(view) {
    ripple.view = view;
    $('help-pool').hidden = view === 'side';
    $('help-side').hidden = view !== 'side';
  }

  // --- sound (the component plays it; the first click or key starts it) --------

  let soundOn = true;

  function toggleSound() {
    soundOn = !soundOn;
    w.set('sound', soundOn);
    say(`sound ${soundOn ? 'on' : 'off'}`);
  }

  // U: the music alone, on or off (in time all the same), as the window's U.
  let musicOn = true;
  function toggleMusic() {
    if (ripple.music === 'none' && musicOn) {
      say('no music');
      return;
    }
    musicOn = !musicOn;
    w.set('music', musicOn ? null : 'off').then((r) => {
      if (r && !r.score)
        say('no music');
      else
        say(!musicOn ? 'music off' : soundOn ? 'music on' : 'music on (the sound is off: M)');
    });
  }

  // --- the hint, help ------------------------------------------------------

  // The hint: what to do, and that the sound waits for a click; it fades a while
  // after the start, sooner once the water has been touched.
  let hintTimer = 0, touched = false;
  function showHint() {
    const waiting = w && w.soundState() === 'waiting';
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
    w.snapshot().then(saveShot, () => saveShot(null));
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
    const once = !e.repeat; // toggles do not flicker under a held key
    switch (k) {
    case 'h': case 'F1': if (once) toggleHelp(); break;
    case 'Escape': toggleHelp(false); break;
    case 'o':
      if (once) {
        overlayOn = !overlayOn;
        overlay.hidden = !overlayOn;
        placeNote();
      }
      break;
    case 'm': if (once) toggleSound(); break;
    case 'u': if (once) toggleMusic(); break;
    case 's': if (once) screenshot(); break;
    case 'f': if (once) fullscreen(); break;
    case 'Tab': if (once) send({ type: 'view' }); break;
    default:
      if (!ENGINE_KEYS.has(k))
        return;
      send({ type: 'key', key: k, once });
    }
    e.preventDefault();
  }

  // A pointer's place on the water as a cell of the field.
  function cellOf(e) {
    const r = water.getBoundingClientRect();
    const x = Math.floor((e.clientX - r.left) * fw / r.width);
    const y = Math.floor((e.clientY - r.top) * fh / r.height);
    return [Math.min(fw - 1, Math.max(0, x)), Math.min(fh - 1, Math.max(0, y))];
  }

  const drags = new Map(); // pointer id -> its last cell: fingers drag apart

  function onPointerDown(e) {
    if (e.pointerType === 'touch')
      e.preventDefault();
    if (e.button !== 0 && e.button !== 2)
      return;
    const [x, y] = cellOf(e);
    send({ type: 'stone', x, y, big: e.button === 2 });
    ripple.stones++;
    if (!touched)
      fadeHint(1500);
    touched = true;
    drags.set(e.pointerId, [x, y]);
    try { // a synthetic event's pointer is not active: nothing to capture
      water.setPointerCapture(e.pointerId);
    } catch { /* the drag follows while over the water */ }
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
    water.addEventListener('pointerdown', onPointerDown);
    water.addEventListener('pointermove', onPointerMove);
    water.addEventListener('pointerup', onPointerUp);
    water.addEventListener('pointercancel', onPointerUp);
    water.addEventListener('contextmenu', (e) => e.preventDefault());
    water.addEventListener('wheel', onWheel, { passive: false });
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

  function onEngine(type, m) {
    switch (type) {
    case 'ready': ripple.ready = true; break;
    case 'stats': showStats(m); break;
    case 'say': say(m.text); break;
    case 'view': showView(m.view); break;
    case 'started': started(m); break;
    case 'progress': benchProgress(m); break;
    case 'report': benchReport(m); break;
    case 'fail': fail(m.text, m.genuine); break;
    case 'nomodule': noModule(m.text); break;
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
      (query.get('overlay') !== '0' && water.getBoundingClientRect().width >= 560);
    overlay.hidden = !overlayOn;
    if (bench) {
      document.body.classList.add('benchmark');
      hint.hidden = true;
    }

    const forced = query.get('module');
    if (forced !== null && forced !== '' && forced !== 'simd' && forced !== 'scalar')
      console.warn(`ripple: ?module=${forced}: not simd or scalar, choosing by the browser`);
    const show = query.get('show') !== '0';
    // The native demo's pool, picture and show (or, with ?show=0, calm water), the
    // demo's own input and sound on top.
    const options = {
      pool: [640, 480], image: 'background.png', show: show && !bench ? 'default.show' : null,
      rain: show, autopilot: show, seed, interactive: false, sound: true, benchmark: bench,
      module: forced === 'simd' || forced === 'scalar' ? forced : null,
      worker: query.get('worker') !== '0', wasmBase: new URL('./', location.href).href,
      on: (type, m) => {
        if (type === 'started' || type === 'nomodule')
          kind = ripple.module = m.module;
        onEngine(type, m);
      },
    };
    try {
      w = await window.RippleWater.attach(water, options);
    } catch (e) {
      if (!ripple.error) // not said by the engine's own failure
        fail(`ripple could not start: ${e.message}`, true);
      return;
    }
    send = (msg) => w.post(msg);
    fitRendering();
  }

  main().catch((e) => fail(`ripple stopped: ${e && e.message ? e.message : e}`, true));
})();
