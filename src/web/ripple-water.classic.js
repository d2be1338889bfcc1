// src/web/ripple-water.classic.js - the water over any element: RippleWater.attach(element, options) puts ripple's pool (engine.js, in a worker when it can) on a canvas under the element's content, fitted to its picture and size.
'use strict';

// One script for both ways in: a classic <script> defines window.RippleWater, and the
// ES module (ripple-water.js) imports this file and exports its attach.  The water is
// played by engine.js, the demo page's engine, in a dedicated Worker drawing on an
// OffscreenCanvas where the browser allows it, else in the page; this file only
// measures the element, loads its picture, forwards input and plays the sound.
(function (global) {
  const TAG = 'ripple-water';
  // The script's own address: the modules are looked for beside it by default.
  const SCRIPT = typeof document !== 'undefined' && document.currentScript && document.currentScript.src;

  const RATE = 48000;        // the engine mixes its sound at this rate
  const CHUNK = 1024, RING = 16, START = 0.02, MAX_AHEAD = 0.25; // as web.js had them
  const FRAMES_EVERY_WORKER = 4; // each message costs the main thread a task
  const WORKER_HELLO_MS = 15000;

  // What is alive, for tests: a page cannot list its workers or listeners itself.
  const counts = { instances: 0, canvases: 0, workers: 0, listeners: 0 };

  // --- options -----------------------------------------------------------------

  const isNum = (v) => typeof v === 'number' && Number.isFinite(v);
  const isBool = (v) => typeof v === 'boolean';
  const isImage = (v) => v === null || typeof v === 'string' ||
    (typeof HTMLImageElement !== 'undefined' && v instanceof HTMLImageElement) ||
    (typeof HTMLCanvasElement !== 'undefined' && v instanceof HTMLCanvasElement) ||
    (typeof HTMLVideoElement !== 'undefined' && v instanceof HTMLVideoElement) ||
    (typeof ImageBitmap !== 'undefined' && v instanceof ImageBitmap) ||
    (typeof OffscreenCanvas !== 'undefined' && v instanceof OffscreenCanvas);

  // Each option: its default, whether set() may change it after the start, what a good
  // value is (said in the error), and the test.
  const OPTIONS = {
    resolution: [1, true, "a number of cells per CSS pixel from 0.05 to 4, or 'device'",
      (v) => v === 'device' || (isNum(v) && v >= 0.05 && v <= 4)],
    maxCells: [1920 * 1080, true, 'a whole number of cells from 64 to 16777216',
      (v) => Number.isInteger(v) && v >= 64 && v <= 16777216],
    dropRadius: [20, true, 'a radius in CSS pixels from 1 to 500', (v) => isNum(v) && v >= 1 && v <= 500],
    strength: [undefined, true, 'a refraction strength from 0 to 4 (1 is 1:1; the default 0.25)',
      (v) => isNum(v) && v >= 0 && v <= 4],
    interactive: [true, true, 'true or false', isBool],
    model: ['classic', true, "'classic' or 'wave'", (v) => v === 'classic' || v === 'wave'],
    speed: [undefined, true, 'the wave speed, a number above 0 (24 by default, at most about 42)',
      (v) => isNum(v) && v > 0 && v <= 1000],
    viscosity: [undefined, true, 'the wave viscosity, a number from 0 (1.2 by default)',
      (v) => isNum(v) && v >= 0 && v <= 1000],
    edges: ['reflect', true, "'reflect' or 'absorb'", (v) => v === 'reflect' || v === 'absorb'],
    rain: [false, true, 'true or false', isBool],
    autopilot: [false, true, 'true or false', isBool],
    show: [null, false, "null, a show's text or its URL", (v) => v === null || typeof v === 'string'],
    light: [undefined, true, 'true or false', isBool],
    sound: [false, true, 'true or false', isBool],
    music: [null, true, "null (the bundled default.score, with the sound), 'off', a score's text or its URL",
      (v) => v === null || typeof v === 'string'],
    image: [null, true, 'null (the element\'s CSS background), a URL, an <img>, a <canvas> or a <video>', isImage],
    fit: [null, true, "null (the element's background-size), 'cover' or 'contain'",
      (v) => v === null || v === 'cover' || v === 'contain'],
    wasmBase: [null, false, 'null or the URL of the folder holding ripple-simd.js and engine.js',
      (v) => v === null || typeof v === 'string' || (typeof URL !== 'undefined' && v instanceof URL)],
    crossOrigin: ['anonymous', false, "'anonymous', 'use-credentials' or null",
      (v) => v === null || v === 'anonymous' || v === 'use-credentials'],
    seed: [1, false, 'a whole number from 0 to 2147483647', (v) => Number.isInteger(v) && v >= 0 && v <= 2147483647],
    pool: [null, false, 'null or [width, height] in cells, 3 to 8192 each',
      (v) => v === null || (Array.isArray(v) && v.length === 2 && v.every((n) => Number.isInteger(n) && n >= 3 && n <= 8192))],
    worker: [true, false, 'true or false', isBool],
    module: [null, false, "null, 'simd' or 'scalar'", (v) => v === null || v === 'simd' || v === 'scalar'],
    benchmark: [null, false, 'null or the timedemo\'s {scene, frames, rounds, seconds}',
      (v) => v === null || typeof v === 'object'],
    on: [null, false, 'null or a function (type, detail)', (v) => v === null || typeof v === 'function'],
  };

  function badOption(name, v) {
    const got = typeof v === 'string' ? JSON.stringify(v) : typeof v === 'number' || typeof v === 'boolean' ? String(v)
      : v === undefined ? 'undefined' : Object.prototype.toString.call(v).slice(8, -1);
    return new TypeError(`${TAG}: option ${name}: expected ${OPTIONS[name][2]}, got ${got}`);
  }

  function options(given) {
    if (given !== undefined && (given === null || typeof given !== 'object'))
      throw new TypeError(`${TAG}: the options must be an object`);
    const o = {};
    for (const [k, [d]] of Object.entries(OPTIONS))
      o[k] = d;
    for (const [k, v] of Object.entries(given || {})) {
      if (!(k in OPTIONS))
        throw new TypeError(`${TAG}: unknown option ${k} (options: ${Object.keys(OPTIONS).join(', ')})`);
      if (v === undefined)
        continue;
      if (!OPTIONS[k][3](v))
        throw badOption(k, v);
      o[k] = v;
    }
    return o;
  }

  // --- the module and the engine -------------------------------------------------

  // The smallest module with a v128 instruction (as web.js had it): a browser that
  // validates it runs the SIMD build.
  const SIMD_PROBE = new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b,
    0x03, 0x02, 0x01, 0x00, 0x0a, 0x08, 0x01, 0x06, 0x00, 0x41, 0x00, 0xfd, 0x0f, 0x0b,
  ]);

  function chooseModule() {
    try {
      return WebAssembly.validate(SIMD_PROBE) ? 'simd' : 'scalar';
    } catch {
      return 'scalar';
    }
  }

  const scripts = new Map(); // src -> its load, once a page
  function loadScript(src) {
    if (!scripts.has(src))
      scripts.set(src, new Promise((resolve, reject) => {
        const s = document.createElement('script');
        s.src = src;
        s.onload = resolve;
        s.onerror = () => {
          scripts.delete(src);
          reject(new Error(`${src} did not load`));
        };
        document.head.append(s);
      }));
    return scripts.get(src);
  }

  // A worker whose engine can draw on an OffscreenCanvas and time its frames, or null
  // (the engine then runs in the page): a browser without them, or a wasmBase on
  // another origin (workers must come from the page's).
  function startWorker(url) {
    if (typeof Worker !== 'function' || typeof OffscreenCanvas !== 'function' ||
        typeof HTMLCanvasElement.prototype.transferControlToOffscreen !== 'function')
      return Promise.resolve(null);
    return new Promise((resolve) => {
      let w;
      try {
        w = new Worker(url);
      } catch {
        resolve(null);
        return;
      }
      counts.workers++;
      let done = false;
      const no = () => {
        if (done)
          return;
        done = true;
        clearTimeout(timer);
        w.terminate();
        counts.workers--;
        resolve(null);
      };
      // A worker that never says hello (a script blocked on the way) leaves the page to it.
      const timer = setTimeout(no, WORKER_HELLO_MS);
      w.onmessage = (e) => {
        if (!e.data || e.data.type !== 'hello' || done)
          return;
        w.onmessage = null;
        w.onerror = null;
        if (e.data.can) {
          done = true;
          clearTimeout(timer);
          resolve(w);
        } else {
          no();
        }
      };
      w.onerror = (e) => {
        e.preventDefault();
        no();
      };
    });
  }

  // --- pictures ------------------------------------------------------------------

  const BITMAP = { premultiplyAlpha: 'none', colorSpaceConversion: 'none' };

  function loadImage(url, crossOrigin) {
    return new Promise((resolve, reject) => {
      const img = new Image();
      if (crossOrigin)
        img.crossOrigin = crossOrigin;
      img.onload = () => resolve(img);
      img.onerror = () => reject(new Error(`${TAG}: the image ${JSON.stringify(url)} did not load: a wrong ` +
        'address, not an image, or another origin that does not allow it (with crossOrigin ' +
        `${JSON.stringify(crossOrigin)} its server must send Access-Control-Allow-Origin)`));
      img.src = url;
    });
  }

  // The element's CSS background picture's URL, or null.
  function backgroundUrl(cs) {
    const m = /url\(\s*(['"]?)(.*?)\1\s*\)/.exec(cs.backgroundImage || '');
    return m ? m[2] : null;
  }

  async function bitmapOf(src, crossOrigin) {
    if (typeof src === 'string')
      src = await loadImage(src, crossOrigin);
    if (src instanceof HTMLImageElement && !src.complete)
      await src.decode().catch(() => {});
    if (src instanceof HTMLImageElement && !src.naturalWidth)
      throw new Error(`${TAG}: the <img> ${JSON.stringify(src.currentSrc || src.src)} has no picture (not loaded)`);
    if (typeof HTMLVideoElement !== 'undefined' && src instanceof HTMLVideoElement && src.readyState < 2)
      await new Promise((resolve, reject) => {
        src.addEventListener('loadeddata', resolve, { once: true });
        src.addEventListener('error', () => reject(new Error(`${TAG}: the <video> did not load`)), { once: true });
      });
    try {
      return await createImageBitmap(src, BITMAP);
    } catch (e) {
      throw new Error(`${TAG}: the picture cannot be read (${e.message})`);
    }
  }

  // --- one element's water --------------------------------------------------------

  class Water {
    constructor(el, o) {
      this.el = el;
      this.o = o;
      this.frames = 0;
      this.pool = { width: 0, height: 0 };
      this.ready = false;
      this.inWorker = false;
      this.module = null;
      this.path = null;
      this.fps = 0;
      this.destroyed = false;
      this.why = { user: false, offscreen: false, hidden: typeof document !== 'undefined' && document.hidden };
      this.running = true;
      this.waits = { run: [], shot: [], resized: [], set: [], music: [], started: [] };
      this.offs = []; // what undoes each listener and observer
      this.send = () => {};
      this.video = null;
      this.audio = null;
    }

    // A listener or observer, counted and undone by destroy.
    listen(target, type, fn, opts) {
      target.addEventListener(type, fn, opts);
      counts.listeners++;
      this.offs.push(() => {
        target.removeEventListener(type, fn, opts);
        counts.listeners--;
      });
    }

    observe(obs, target, opts) {
      try {
        obs.observe(target, opts);
      } catch (e) { // a browser without the box asked for watches the CSS box
        obs.observe(target);
      }
      counts.listeners++;
      this.offs.push(() => {
        obs.disconnect();
        counts.listeners--;
      });
    }

    emit(type, detail) {
      if (type === 'ready' || type === 'error')
        this.el.dispatchEvent(new CustomEvent(type, { detail }));
      if (this.o.on)
        this.o.on(type, detail);
    }

    // A failure: the error event, a console line; fatal ones end the start.
    error(text, fatal) {
      const line = text.startsWith(TAG) ? text : `${TAG}: ${text}`;
      (fatal ? console.error : console.warn)(line);
      this.emit('error', { message: line, fatal: Boolean(fatal) });
      if (fatal && this.reject) {
        this.reject(new Error(line));
        this.reject = null;
      }
    }

    // The pool's cells for the element's size now.
    measure() {
      if (this.o.pool)
        return { width: this.o.pool[0], height: this.o.pool[1] };
      const cw = Math.max(1, this.el.clientWidth), ch = Math.max(1, this.el.clientHeight);
      const k = this.o.resolution === 'device' ? (global.devicePixelRatio || 1) : this.o.resolution;
      let w = Math.round(cw * k), h = Math.round(ch * k);
      if (w * h > this.o.maxCells) {
        const s = Math.sqrt(this.o.maxCells / (w * h));
        w = Math.floor(w * s);
        h = Math.floor(h * s);
      }
      const side = (n) => Math.min(8192, Math.max(3, n));
      return { width: side(w), height: side(h) };
    }

    // The canvas under the element's content: the element becomes a stacking context
    // (and a containing block) with its style attribute kept to be put back.
    place() {
      const el = this.el, cs = getComputedStyle(el);
      this.style = el.getAttribute('style');
      if (cs.position === 'static')
        el.style.position = 'relative';
      if (cs.isolation !== 'isolate')
        el.style.isolation = 'isolate';
      const c = this.canvas = document.createElement('canvas');
      counts.canvases++;
      c.setAttribute('aria-hidden', 'true');
      c.className = TAG;
      c.style.cssText = 'position:absolute;left:0;top:0;width:100%;height:100%;z-index:-1;' +
        'display:block;pointer-events:none;border-radius:inherit';
      const p = this.measure();
      c.width = p.width;
      c.height = p.height;
      el.prepend(c);
    }

    unplace() {
      if (this.canvas) {
        this.canvas.remove();
        this.canvas = null;
        counts.canvases--;
      }
      if (this.style === null)
        this.el.removeAttribute('style');
      else
        this.el.setAttribute('style', this.style);
    }

    async picture() {
      const o = this.o;
      const cs = getComputedStyle(this.el);
      this.fit = o.fit || (cs.backgroundSize === 'contain' ? 'contain' : 'cover');
      const bg = cs.backgroundColor;
      this.fill = bg && bg !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(bg) ? bg : '#000';
      const src = o.image !== null ? o.image : backgroundUrl(cs);
      if (src === null) {
        this.error('the element has no CSS background-image url() and no image option: the water shows plain blue');
        return null;
      }
      try {
        const b = await bitmapOf(src, o.crossOrigin);
        this.video = typeof HTMLVideoElement !== 'undefined' && src instanceof HTMLVideoElement ? src : null;
        return b;
      } catch (e) {
        this.error(e.message);
        return null;
      }
    }

    async showText() {
      const s = this.o.show;
      if (!s)
        return '';
      const got = await this.textOf(s, 'show');
      this.showName = got.name;
      return got.text;
    }

    // A show's or a score's text: given as it is, or fetched from its URL (a line
    // starting with the file's name in what the engine says of it).  {text, name};
    // text '' when the fetch failed (said).
    async textOf(s, what) {
      if (/\n/.test(s) || !/^[\w./:%?&=~-]+$/.test(s))
        return { text: s, name: what === 'show' ? 'show' : 'score' }; // the text itself
      const url = new URL(s, document.baseURI).href;
      const name = url.replace(/[?#].*/, '').split('/').pop() || what;
      try {
        const r = await fetch(url);
        if (!r.ok)
          throw new Error(`HTTP ${r.status}`);
        return { text: await r.text(), name };
      } catch (e) {
        this.error(`the ${what} ${JSON.stringify(s)} did not load (${e.message})`);
        return { text: '', name };
      }
    }

    // The music's score to give the engine with the sound: the music option's, or the
    // bundled default.score beside the modules; none when the music or the sound is off
    // (or for the timedemo, which is silent).  {text, name} or null.
    async musicText() {
      const m = this.o.music;
      if (m === 'off' || !this.o.sound || this.o.benchmark)
        return null;
      const got = await this.textOf(m === null ? new URL('default.score', this.base).href : m, 'music');
      this.musicKey = m;
      return got.text ? got : null;
    }

    // The music as the options now have it, to the engine: off, or on with the score
    // fetched once for each source (a new one plays from its beginning).
    async giveMusic() {
      const m = this.o.music;
      let msg = { type: 'music', on: m !== 'off' };
      if (m !== 'off' && this.o.sound && this.musicKey !== m) {
        const got = await this.musicText();
        if (got)
          msg = { ...msg, text: got.text, name: got.name };
      }
      if (this.destroyed)
        return undefined;
      const r = this.wait('music');
      this.send(msg);
      return r;
    }

    async start() {
      const o = this.o;
      const base = new URL(String(o.wasmBase || (SCRIPT ? new URL('./', SCRIPT) : document.baseURI)), document.baseURI);
      if (location.protocol === 'file:' || base.protocol === 'file:')
        throw new Error(`${TAG}: this page is opened from a file (file://), where browsers do not load WebAssembly ` +
          'modules or workers: serve the folder over http (python3 -m http.server, npx serve) and open it there');
      if (typeof WebAssembly !== 'object' || typeof WebAssembly.validate !== 'function')
        throw new Error(`${TAG}: this browser has no WebAssembly: the water cannot run here`);
      this.module = o.module || chooseModule();
      this.base = base;
      this.musicKey = undefined; // no score given yet
      this.place();
      const [bitmap, showText, music] = await Promise.all([this.picture(), this.showText(), this.musicText()]);
      if (this.destroyed)
        return;
      const size = this.measure();
      const start = {
        type: 'start', kind: this.module, base: base.href, seed: o.seed, width: size.width, height: size.height,
        bitmap, fit: this.fit, fill: this.fill, showText, showName: this.showName, benchmark: o.benchmark, framesEvery: 1,
        musicText: music ? music.text : '', musicName: music ? music.name : '',
        halted: !this.running, settings: this.settings(),
      };
      const worker = o.worker ? await startWorker(new URL('engine.js', base).href) : null;
      if (this.destroyed) {
        if (worker) {
          worker.terminate();
          counts.workers--;
        }
        return;
      }
      const transfer = bitmap ? [bitmap] : [];
      if (worker) {
        this.worker = worker;
        this.inWorker = true;
        worker.onmessage = (e) => this.onEngine(e.data);
        worker.onerror = (e) => {
          e.preventDefault();
          this.error(`stopped: ${e.message || 'the worker failed'}`, true);
        };
        this.send = (msg, tr) => worker.postMessage(msg, tr || []);
        const off = this.canvas.transferControlToOffscreen();
        this.send({ ...start, canvas: off, framesEvery: FRAMES_EVERY_WORKER }, [off, ...transfer]);
      } else {
        await loadScript(new URL('engine.js', base).href);
        if (this.destroyed)
          return;
        const receive = global.RippleEngine((msg) => this.onEngine(msg), loadScript);
        this.send = (msg) => receive(msg);
        this.send({ ...start, canvas: this.canvas });
      }
      this.watch();
    }

    settings() {
      const s = {}, o = this.o;
      for (const k of ['strength', 'model', 'speed', 'viscosity', 'edges', 'rain', 'autopilot', 'light'])
        if (this.o[k] !== undefined)
          s[k] = this.o[k];
      s.music = o.music !== 'off';
      return s;
    }

    // The observers and listeners: size, visibility, the screen's pixel ratio, input.
    watch() {
      const el = this.el;
      // The box in device pixels changes with the element's size and with the
      // pixel ratio; where a browser has no such box, the CSS box and the
      // media query of watchRatio (which alone can miss a change) do.
      if (typeof ResizeObserver === 'function')
        this.observe(new ResizeObserver(() => this.resizeSoon()), el, { box: 'device-pixel-content-box' });
      if (typeof IntersectionObserver === 'function')
        this.observe(new IntersectionObserver((es) => {
          this.why.offscreen = !es[es.length - 1].isIntersecting;
          this.update();
        }), el);
      this.listen(document, 'visibilitychange', () => {
        this.why.hidden = document.hidden;
        this.update();
      });
      this.watchRatio();
      if (this.o.interactive)
        this.interact();
      if (this.o.sound)
        this.soundOn();
      if (this.video)
        this.followVideo();
    }

    // A change of devicePixelRatio (a zoom, another screen) matches no longer.
    watchRatio() {
      this.ratio = global.devicePixelRatio || 1;
      if (!global.matchMedia)
        return;
      const mq = global.matchMedia(`(resolution: ${this.ratio}dppx)`);
      const fn = () => this.ratioCheck();
      mq.addEventListener('change', fn);
      counts.listeners++;
      const undo = this.unwatchRatio = () => {
        mq.removeEventListener('change', fn);
        counts.listeners--;
        const i = this.offs.indexOf(undo);
        if (i >= 0) // not when destroy() runs them all
          this.offs.splice(i, 1);
      };
      this.offs.push(this.unwatchRatio);
    }

    // The ratio now against the one watched: the media query's event, and each
    // stats message as well, since a browser can miss the event (Chromium
    // under load, its pixel ratio emulated, sends neither it nor the
    // ResizeObserver's).
    ratioCheck() {
      if ((global.devicePixelRatio || 1) === this.ratio || this.destroyed)
        return;
      if (this.unwatchRatio)
        this.unwatchRatio();
      this.watchRatio();
      this.resizeSoon();
    }

    resizeSoon() {
      if (this.resizeTimer || this.destroyed)
        return;
      this.resizeTimer = setTimeout(() => {
        this.resizeTimer = 0;
        this.resize();
      }, 60);
    }

    // Plays when nobody paused it, it is on screen and the page is shown.
    update() {
      const on = !this.why.user && !this.why.offscreen && !this.why.hidden;
      if (on !== this.running) {
        this.running = on;
        this.send({ type: 'run', on });
      }
    }

    wait(kind) {
      return new Promise((resolve) => this.waits[kind].push(resolve));
    }

    settle(kind, v) {
      const r = this.waits[kind].shift();
      if (r)
        r(v);
    }

    onEngine(m) {
      switch (m.type) {
      case 'started':
        this.pool = { width: m.width, height: m.height };
        this.settle('started');
        this.path = m.path;
        this.version = m.version;
        if (this.o.benchmark) // the timedemo draws no frames of the pool's own
          this.becomeReady();
        break;
      case 'frames':
        this.frames = m.frames;
        this.becomeReady();
        break;
      case 'stats':
        this.frames = m.frames;
        this.ratioCheck();
        if (m.fps >= 0)
          this.fps = m.fps;
        if (this.audio && this.audio.state === 'running' && this.nextTime > 0)
          this.send({ type: 'ahead', ms: (this.nextTime - this.audio.currentTime) * 1000 });
        break;
      case 'run':
        this.frames = m.frames;
        this.settle('run', m.frames);
        break;
      case 'resized':
        this.pool = { width: m.width, height: m.height };
        this.frames = m.frames;
        this.settle('resized', this.pool);
        break;
      case 'set': this.settle('set'); break;
      case 'music': this.settle('music', { on: m.on, score: m.score }); break;
      case 'shot': this.settle('shot', m.blob); break;
      case 'pictured': this.pictureBusy = false; break;
      case 'sound': this.playSound(m.pcm); break;
      case 'fail': this.error(m.text, m.genuine && !this.o.benchmark); break;
      case 'nomodule':
        this.error(`the ${this.module} module did not load (${m.text})`, true);
        break;
      case 'log': (m.level === 'warn' ? console.warn : console.log)(m.text); break;
      case 'stopped':
        if (this.worker) {
          this.worker.terminate();
          this.worker = null;
          counts.workers--;
        }
        break;
      default: break;
      }
      if (this.o.on && m.type !== 'frames') {
        m.module = this.module;
        this.o.on(m.type, m);
      }
    }

    becomeReady() {
      if (this.ready)
        return;
      this.ready = true;
      const detail = { width: this.pool.width, height: this.pool.height, inWorker: this.inWorker,
        module: this.module, path: this.path };
      if (this.resolve)
        this.resolve();
      this.emit('ready', detail);
    }

    // --- input -------------------------------------------------------------

    // A point of the element's padding box (CSS pixels) as a cell.
    cell(x, y) {
      const k = this.pool.width / Math.max(1, this.el.clientWidth);
      return [Math.floor(x * k), Math.floor(y * this.pool.height / Math.max(1, this.el.clientHeight)), k];
    }

    interact() {
      const el = this.el, drags = new Map();
      const at = (e) => {
        const r = el.getBoundingClientRect();
        return [e.clientX - r.left - el.clientLeft, e.clientY - r.top - el.clientTop];
      };
      this.listen(el, 'pointerdown', (e) => {
        if (e.button !== 0 || !this.o.interactive)
          return;
        const [x, y] = at(e);
        this.drop(x, y);
        drags.set(e.pointerId, [x, y]);
        try { // a synthetic event's pointer is not active: nothing to capture
          el.setPointerCapture(e.pointerId);
        } catch { /* the drag still follows while over the element */ }
      });
      this.listen(el, 'pointermove', (e) => {
        const last = drags.get(e.pointerId);
        if (!last)
          return;
        const [x, y] = at(e);
        const step = this.o.dropRadius / 2;
        const d = Math.hypot(x - last[0], y - last[1]);
        if (d < step)
          return;
        for (let i = 1; i * step <= d; i++) // beads along the drag, half a radius apart
          this.drop(last[0] + (x - last[0]) * i * step / d, last[1] + (y - last[1]) * i * step / d,
            this.o.dropRadius / 2, 0.5);
        last[0] = x;
        last[1] = y;
      });
      const up = (e) => drags.delete(e.pointerId);
      this.listen(el, 'pointerup', up);
      this.listen(el, 'pointercancel', up);
    }

    // --- sound -------------------------------------------------------------

    // Browsers start audio on a gesture: the first click or key after sound is on.
    soundOn() {
      if (this.gesture)
        return;
      const go = () => this.startSound();
      this.gesture = true;
      this.listen(global, 'pointerdown', go, true);
      this.listen(global, 'keydown', go, true);
    }

    startSound() {
      if (!this.o.sound || this.destroyed)
        return;
      if (!this.audio) {
        const AC = global.AudioContext || global.webkitAudioContext;
        if (!AC)
          return;
        try {
          this.audio = new AC({ sampleRate: RATE, latencyHint: 'interactive' });
        } catch {
          this.audio = new AC();
        }
        this.buffers = [];
        for (let i = 0; i < RING; i++)
          this.buffers.push(this.audio.createBuffer(2, CHUNK, RATE));
        this.ring = 0;
        this.nextTime = 0;
        this.left = new Float32Array(CHUNK);
        this.right = new Float32Array(CHUNK);
        this.audio.onstatechange = () => this.tellSound();
      }
      this.tellSound();
      if (this.audio.state !== 'running')
        this.audio.resume().catch((e) => console.warn(`${TAG}: no sound: ${e.message}`));
    }

    // 'off', 'waiting' (for a gesture) or 'on'.
    soundState() {
      return !this.o.sound ? 'off' : this.audio && this.audio.state === 'running' ? 'on' : 'waiting';
    }

    tellSound() {
      // The drips are queued once the audio exists (a gesture made it), mixed once it runs.
      const ambient = this.o.sound && Boolean(this.audio);
      const playing = ambient && this.audio.state === 'running';
      const s = `${ambient} ${playing}`;
      if (s !== this.told) {
        this.told = s;
        this.send({ type: 'sound', ambient, playing });
      }
    }

    playSound(pcm) {
      const a = this.audio;
      if (!a || !this.o.sound || a.state !== 'running')
        return;
      const now = a.currentTime;
      const gap = this.nextTime < now + 0.01;
      if (gap)
        this.nextTime = now + START;
      for (let o = 0; o + 2 * CHUNK <= pcm.length && this.nextTime < now + MAX_AHEAD; o += 2 * CHUNK) {
        for (let i = 0; i < CHUNK; i++) {
          this.left[i] = pcm[o + 2 * i] / 32768;
          this.right[i] = pcm[o + 2 * i + 1] / 32768;
        }
        const b = this.buffers[this.ring];
        this.ring = (this.ring + 1) % RING;
        b.copyToChannel(this.left, 0);
        b.copyToChannel(this.right, 1);
        const src = a.createBufferSource();
        src.buffer = b;
        src.connect(a.destination);
        src.start(this.nextTime);
        this.nextTime += CHUNK / RATE;
      }
      if (gap)
        this.send({ type: 'ahead', ms: (this.nextTime - now) * 1000 });
    }

    // --- a playing video: its frames become the picture, one at a time -------

    followVideo() {
      const v = this.video;
      const next = () => {
        if (this.destroyed)
          return;
        if (v.requestVideoFrameCallback)
          v.requestVideoFrameCallback(tick);
        else
          this.videoTimer = requestAnimationFrame(tick);
      };
      const tick = () => {
        if (this.destroyed)
          return;
        if (this.running && !this.pictureBusy && !v.paused && v.readyState >= 2) {
          this.pictureBusy = true;
          createImageBitmap(v, BITMAP).then((b) => {
            if (this.destroyed)
              b.close();
            else
              this.send({ type: 'picture', bitmap: b }, [b]);
          }, () => { this.pictureBusy = false; });
        }
        next();
      };
      next();
    }

    // --- the handle's methods ------------------------------------------------------

    drop(x, y, radius, strength) {
      radius = radius === undefined ? this.o.dropRadius : radius;
      strength = strength === undefined ? 0.5 : strength;
      if (!isNum(x) || !isNum(y))
        throw new TypeError(`${TAG}: drop(x, y): x and y are CSS pixels from the element's corner, got ${x}, ${y}`);
      if (!isNum(radius) || radius <= 0 || radius > 500)
        throw new RangeError(`${TAG}: drop: radius ${radius}: expected CSS pixels above 0, at most 500`);
      if (!isNum(strength) || strength <= 0 || strength > 4)
        throw new RangeError(`${TAG}: drop: strength ${strength}: expected a number above 0, at most 4 (0.5 a click's)`);
      const [cx, cy, k] = this.cell(x, y);
      this.send({ type: 'drop', x: cx, y: cy, radius: Math.max(1, Math.round(radius * k)),
        permille: Math.max(1, Math.round(strength * 1000)) });
    }

    pause() {
      this.why.user = true;
      const r = this.running ? this.wait('run') : Promise.resolve(this.frames);
      this.update();
      return r;
    }

    play() {
      this.why.user = false;
      const on = !this.why.offscreen && !this.why.hidden;
      const r = !this.running && on ? this.wait('run') : Promise.resolve(this.frames);
      this.update();
      return r;
    }

    set(name, value) {
      if (!(name in OPTIONS))
        throw new TypeError(`${TAG}: set: unknown option ${name}`);
      if (!OPTIONS[name][1])
        throw new TypeError(`${TAG}: set: ${name} is given to attach only`);
      if (!OPTIONS[name][3](value))
        throw badOption(name, value);
      this.o[name] = value;
      switch (name) {
      case 'resolution': case 'maxCells': return this.resize();
      case 'interactive':
        if (value && !this.interacting)
          this.interact();
        this.interacting = this.interacting || value;
        return Promise.resolve();
      case 'dropRadius': return Promise.resolve();
      case 'music': return this.giveMusic();
      case 'sound':
        if (value) {
          this.soundOn();
          this.startSound();
          if (this.o.music !== 'off' && this.musicKey !== this.o.music) // the score comes with the sound
            return this.giveMusic();
        } else {
          this.tellSound();
          if (this.audio)
            this.audio.suspend();
        }
        return Promise.resolve();
      case 'image': case 'fit':
        return this.picture().then((b) => {
          if (b && !this.destroyed)
            this.send({ type: 'picture', bitmap: b }, [b]);
        });
      default: {
        const r = this.wait('set');
        this.send({ type: 'set', name, value });
        return r;
      }
      }
    }

    resize() {
      if (this.destroyed)
        return Promise.resolve(this.pool);
      // Before the engine has started (its ResizeObserver fires early) a resize would be
      // dropped, its answer never come, and every later one's taken by it: asked again
      // once the engine has its pool.
      if (!this.pool.width) {
        if (!this.started)
          this.started = this.wait('started');
        return this.started.then(() => this.resize());
      }
      const s = this.measure();
      if (s.width === this.pool.width && s.height === this.pool.height)
        return Promise.resolve(this.pool);
      const r = this.wait('resized');
      this.send({ type: 'resize', width: s.width, height: s.height });
      return r;
    }

    snapshot() {
      const r = this.wait('shot');
      this.send({ type: 'shot' });
      return r;
    }

    destroy() {
      if (this.destroyed)
        return;
      this.destroyed = true;
      clearTimeout(this.resizeTimer);
      cancelAnimationFrame(this.videoTimer);
      this.send({ type: 'stop' });
      if (this.worker) { // its pool goes with it
        this.worker.terminate();
        this.worker = null;
        counts.workers--;
      }
      this.send = () => {};
      for (const off of this.offs.splice(0))
        off();
      if (this.audio) {
        this.audio.close().catch(() => {});
        this.audio = null;
      }
      this.unplace();
      counts.instances--;
      for (const list of Object.values(this.waits))
        for (const r of list.splice(0))
          r(undefined);
    }
  }

  // --- the API ----------------------------------------------------------------------

  // The water over element; resolves to its handle once the first frame is drawn.
  async function attach(element, given) {
    if (typeof Element === 'undefined' || !(element instanceof Element))
      throw new TypeError(`${TAG}: attach(element): expected an element, got ${element === null ? 'null' : typeof element}`);
    if (/^(img|video|canvas|iframe|input|textarea|select)$/i.test(element.tagName))
      throw new TypeError(`${TAG}: attach: a <${element.tagName.toLowerCase()}> cannot hold the water; ` +
        'attach to its container and give it as the image option');
    const o = options(given);
    const w = new Water(element, o);
    w.interacting = o.interactive;
    counts.instances++;
    const ready = new Promise((resolve, reject) => {
      w.resolve = resolve;
      w.reject = reject;
    });
    try {
      await w.start();
      await ready;
    } catch (e) {
      if (w.reject) { // not said yet
        w.reject = null;
        w.error(e.message, true);
      }
      w.destroy();
      throw e;
    }
    return handle(w);
  }

  // What the page gets: the methods, and read-only figures.
  function handle(w) {
    return {
      element: w.el,
      canvas: w.canvas,
      get frames() { return w.frames; },
      get pool() { return { ...w.pool }; },
      get fps() { return w.fps; },
      get inWorker() { return w.inWorker; },
      get module() { return w.module; },
      get path() { return w.path; },
      get version() { return w.version; },
      get running() { return w.running; },
      get destroyed() { return w.destroyed; },
      drop: (x, y, radius, strength) => w.drop(x, y, radius, strength),
      pause: () => w.pause(),
      play: () => w.play(),
      set: (name, value) => w.set(name, value),
      resize: () => w.resize(),
      snapshot: () => w.snapshot(),
      destroy: () => w.destroy(),
      soundState: () => w.soundState(),
      // The demo page's own input (its keys and the play's stones), as engine.js takes it.
      post: (msg) => w.send(msg),
    };
  }

  global.RippleWater = { attach, live: () => ({ ...counts }), version: '1' };
})(typeof globalThis !== 'undefined' ? globalThis : window);
