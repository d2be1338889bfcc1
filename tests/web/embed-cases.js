// tests/web/embed-cases.js - the component's cases, run inside embed.html?attach=0 by either browser's driver (embed.mjs): sizes and the pixel ratio, drop, pause, resize, destroy, bad input; resolves to {checks: [[ok, text]], info: [text]}.
// Evaluated as one expression: an async arrow function called with {dpr, worker}.
(async ({ dpr, worker }) => {
  const RW = window.RippleWater;
  const checks = [], info = [];
  const check = (ok, text) => checks.push([Boolean(ok), text]);
  // Where the cases are, for the driver to say when one hangs.
  const step = (t) => { window.__embedStep = t; };
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const until = async (fn, ms, what) => {
    const t0 = performance.now();
    for (;;) {
      const v = fn();
      if (v)
        return v;
      if (performance.now() - t0 > ms)
        throw new Error(`waited ${ms} ms for ${what}`);
      await sleep(20);
    }
  };
  const errors = [];
  window.addEventListener('error', (e) => errors.push(e.message));
  const box = (w, h, css = '') => {
    const d = document.createElement('div');
    d.style.cssText = `width:${w}px;height:${h}px;background:#123 url(background.png) center/cover;${css}`;
    document.body.prepend(d);
    return d;
  };
  const base = { worker };
  const where = `dpr ${dpr}${worker ? '' : ', main thread'}`;
  check(window.devicePixelRatio === dpr, `the page's devicePixelRatio is ${window.devicePixelRatio} (${dpr} wanted)`);
  const live0 = JSON.stringify(RW.live());

  // The RGBA of a PNG blob.
  const pixels = async (blob) => {
    const b = await createImageBitmap(blob);
    const c = document.createElement('canvas');
    c.width = b.width;
    c.height = b.height;
    const g = c.getContext('2d', { willReadFrequently: true });
    g.drawImage(b, 0, 0);
    return { w: b.width, h: b.height, px: new Uint32Array(g.getImageData(0, 0, b.width, b.height).data.buffer) };
  };
  // Pixels changed between a and b within r cells of (x, y), and elsewhere.
  const changed = (a, b, x, y, r) => {
    let near = 0, far = 0;
    for (let j = 0; j < a.h; j++)
      for (let i = 0; i < a.w; i++)
        if (a.px[j * a.w + i] !== b.px[j * a.w + i]) {
          if (Math.abs(i - x) <= r && Math.abs(j - y) <= r)
            near++;
          else
            far++;
        }
    return { near, far };
  };
  const frames = (w, n) => { const f = w.frames + n; return until(() => w.frames >= f, 15000, `${n} frames`); };

  // 1. Sizes: the pool is the element's CSS size (resolution 1), or its device pixels
  step('1. Sizes: the pool is the element\'s CSS size (resolution 1)');
  // with resolution 'device', capped by maxCells; it follows a resize.
  for (const [cw, ch] of [[320, 200], [640, 360], [150, 400]]) {
    const el = box(cw, ch);
    const w = await RW.attach(el, { ...base });
    const p = w.pool;
    check(p.width === cw && p.height === ch, `${where}: ${cw}x${ch} element, resolution 1: pool ${p.width}x${p.height}`);
    check(el.querySelector('canvas') === w.canvas && w.canvas.width === p.width && w.canvas.height === p.height,
      `${where}: ${cw}x${ch}: the canvas is the pool's size, in the element`);
    await w.set('resolution', 'device');
    const q = w.pool;
    check(q.width === Math.round(cw * dpr) && q.height === Math.round(ch * dpr),
      `${where}: ${cw}x${ch}, resolution 'device': pool ${q.width}x${q.height}`);
    el.style.width = `${cw + 100}px`;
    await until(() => w.pool.width === Math.round((cw + 100) * dpr), 10000, 'the pool to follow the width');
    check(true, `${where}: the element made ${cw + 100} px wide: pool ${w.pool.width}x${w.pool.height}`);
    w.destroy();
    el.remove();
  }
  {
    const el = box(1000, 300);
    const w = await RW.attach(el, { ...base, resolution: 'device', maxCells: 100000 });
    const p = w.pool;
    check(p.width * p.height <= 100000 && p.width * p.height > 90000 && Math.abs(p.width / p.height - 10 / 3) < 0.05,
      `${where}: 1000x300, maxCells 100000: pool ${p.width}x${p.height} (the shape kept)`);
    info.push(`${where}: in a worker: ${w.inWorker}, module ${w.module}, path ${w.path}`);
    check(w.inWorker === worker, `${where}: ${worker ? 'in a worker' : 'on the main thread'} as asked`);
    w.destroy();
    el.remove();
  }

  // 2. drop() changes the pixels where it is asked to, and not elsewhere.
  step('2. drop() changes the pixels where it is asked to, and not e');
  const el = box(400, 300);
  const style0 = el.getAttribute('style'), html0 = el.innerHTML;
  const live1 = RW.live();
  let readyEvent = null;
  el.addEventListener('ready', (e) => { readyEvent = e.detail; });
  const w = await RW.attach(el, { ...base });
  check(readyEvent && readyEvent.width === 400, `${where}: the ready event, ${JSON.stringify(readyEvent)}`);
  const live2 = RW.live();
  check(live2.canvases === live1.canvases + 1 && live2.workers === live1.workers + (worker ? 1 : 0) &&
    live2.listeners > live1.listeners, `${where}: attached, live ${JSON.stringify(live2)}`);
  await frames(w, 8);
  const a = await pixels(await w.snapshot());
  await frames(w, 8);
  const a2 = await pixels(await w.snapshot());
  const still = changed(a, a2, 0, 0, -1);
  check(still.far === 0, `${where}: calm water stays still (${still.far} pixels changed over 8 frames)`);
  w.drop(100, 80, 20, 1);
  await frames(w, 12);
  const b = await pixels(await w.snapshot());
  const d = changed(a2, b, 100, 80, 60);
  check(b.w === 400 && d.near > 500 && d.far === 0,
    `${where}: drop(100, 80): ${d.near} pixels changed within 60 px of it, ${d.far} elsewhere`);

  // 3. pause() stops the frames, play() starts them again.
  step('3. pause() stops the frames, play() starts them again.');
  const f0 = await w.pause();
  await sleep(400);
  const f1 = w.frames;
  const c = await pixels(await w.snapshot());
  await sleep(200);
  const c2 = await pixels(await w.snapshot());
  check(f1 === f0 && changed(c, c2, 0, 0, -1).far === 0, `${where}: paused: frames ${f0} -> ${f1} in 0.6 s, the picture still`);
  await w.play();
  await frames(w, 5);
  check(w.frames > f1, `${where}: playing again: frames ${f1} -> ${w.frames}`);

  // A hidden page draws no frames (document.hidden as the browser would say it).
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
  document.dispatchEvent(new Event('visibilitychange'));
  await sleep(150);
  const h0 = w.frames;
  await sleep(400);
  const h1 = w.frames, hidden = !w.running;
  delete document.hidden;
  document.dispatchEvent(new Event('visibilitychange'));
  await frames(w, 5);
  check(hidden && h1 === h0 && w.running, `${where}: the page hidden: stopped, frames ${h0} -> ${h1} in 0.4 s; shown again: ${w.frames}`);

  // 4. A synthetic pointer event (no active pointer to capture) drops a stone and throws nothing.
  step('4. A synthetic pointer event (no active pointer to capture) ');
  const r = el.getBoundingClientRect();
  const n0 = errors.length;
  el.dispatchEvent(new PointerEvent('pointerdown', { clientX: r.left + 300, clientY: r.top + 200, pointerId: 99, button: 0, bubbles: true }));
  el.dispatchEvent(new PointerEvent('pointerup', { clientX: r.left + 300, clientY: r.top + 200, pointerId: 99, button: 0, bubbles: true }));
  await frames(w, 12);
  const e = await pixels(await w.snapshot());
  const de = changed(b, e, 300, 200, 60);
  check(errors.length === n0 && de.near > 500, `${where}: a synthetic pointerdown: no exception (${errors.slice(n0).join('; ') || 'none'}), ${de.near} pixels changed at it`);

  // 5. Bad values: a clear error, thrown.
  step('5. Bad values: a clear error, thrown.');
  for (const [name, v, want] of [['resolution', -1, 'option resolution'], ['model', 'sea', "'classic' or 'wave'"]]) {
    let msg = '(no error)';
    try {
      w.set(name, v);
    } catch (err) {
      msg = err.message;
    }
    check(msg.includes(want), `${where}: set(${name}, ${JSON.stringify(v)}): "${msg}"`);
  }
  let msg = '(no error)';
  try {
    w.drop(NaN, 3);
  } catch (err) {
    msg = err.message;
  }
  check(/drop\(x, y\)/.test(msg), `${where}: drop(NaN, 3): "${msg}"`);

  // Settings the core takes, and one it refuses (said in the error event).
  let said = null;
  el.addEventListener('error', (ev) => { said = ev.detail.message; });
  await w.set('model', 'wave');
  await w.set('edges', 'absorb');
  await w.set('speed', 12);
  check(said === null, `${where}: set model 'wave', edges 'absorb', speed 12: taken (${said || 'no error'})`);
  await w.set('speed', 60);
  check(/speed 60/.test(said || ''), `${where}: set speed 60 (k over 1/2): the error event "${said}"`);

  // 6. destroy() leaves the element as it was and nothing alive.
  step('6. destroy() leaves the element as it was and nothing alive.');
  w.destroy();
  await sleep(100);
  const live3 = RW.live();
  check(JSON.stringify(live3) === JSON.stringify(live1) && el.getAttribute('style') === style0 && el.innerHTML === html0,
    `${where}: destroyed: live ${JSON.stringify(live3)} as before, the element's style and content as before`);
  el.remove();

  // 7. A bad image URL: the error event, and the water runs on a plain picture.
  step('7. A bad image URL: the error event, and the water runs on a');
  {
    const bad = box(200, 100);
    let err = null;
    bad.addEventListener('error', (ev) => { err = ev.detail; });
    const wb = await RW.attach(bad, { ...base, image: 'no-such-picture.png' });
    check(err && /did not load/.test(err.message), `${where}: a bad image URL: the error event "${err && err.message}"`);
    wb.destroy();
    bad.remove();
  }
  // 8. A canvas as the picture, fitted as 'contain' on the element's background colour.
  step('8. A canvas as the picture, fitted as \'contain\' on the ele');
  {
    const pic = document.createElement('canvas');
    pic.width = 100;
    pic.height = 100;
    const g = pic.getContext('2d');
    g.fillStyle = '#ff0000';
    g.fillRect(0, 0, 100, 100);
    const el2 = box(400, 200, 'background:rgb(0, 255, 0)');
    const w2 = await RW.attach(el2, { ...base, image: pic, fit: 'contain' });
    const s = await pixels(await w2.snapshot());
    const at = (x, y) => { const v = s.px[y * s.w + x]; return [v & 255, (v >>> 8) & 255, (v >>> 16) & 255]; };
    const side = at(20, 100), mid = at(200, 100);
    check(side[1] > 200 && side[0] < 60 && mid[0] > 200 && mid[1] < 60,
      `${where}: a <canvas> picture with fit 'contain': the background colour beside it ${side}, the picture in the middle ${mid}`);
    w2.destroy();
    el2.remove();
  }

  // 9. Off screen: no frames; scrolled into view: frames again.
  step('9. Off screen: no frames; scrolled into view: frames again.');
  {
    const el3 = box(200, 100, 'margin-top:3000px');
    document.body.append(el3);
    const w3 = await RW.attach(el3, { ...base });
    await sleep(300);
    const g0 = w3.frames;
    await sleep(400);
    const g1 = w3.frames, off = !w3.running;
    el3.scrollIntoView();
    await until(() => w3.frames > g1 + 4, 10000, 'frames once in view');
    check(off && g1 === g0 && w3.running, `${where}: off screen: stopped, frames ${g0} -> ${g1} in 0.4 s; in view: playing, ${w3.frames}`);
    window.scrollTo(0, 0);
    w3.destroy();
    el3.remove();
  }

  // 10. A playing <video> (a canvas's stream): its frames become the picture.
  step('10. a playing video');
  if (typeof HTMLCanvasElement.prototype.captureStream === 'function') {
    const src = document.createElement('canvas');
    src.width = 64;
    src.height = 64;
    const g = src.getContext('2d');
    let colour = '#ff0000';
    const paint = () => { g.fillStyle = colour; g.fillRect(0, 0, 64, 64); };
    paint();
    const timer = setInterval(paint, 30);
    const v = document.createElement('video');
    v.muted = true;
    v.srcObject = src.captureStream(30);
    await v.play();
    const el4 = box(160, 120);
    const w4 = await RW.attach(el4, { ...base, image: v });
    const mid = async () => { const s = await pixels(await w4.snapshot()); const x = s.px[60 * s.w + 80]; return [x & 255, (x >>> 8) & 255, (x >>> 16) & 255]; };
    const red = await mid();
    colour = '#0000ff';
    let blue = red;
    for (let i = 0; i < 40 && !(blue[2] > 200 && blue[0] < 60); i++) {
      await sleep(50);
      blue = await mid();
    }
    check(red[0] > 200 && red[2] < 60 && blue[2] > 200 && blue[0] < 60,
      `${where}: a playing <video> as the picture: ${red} then, once it turns blue, ${blue}`);
    clearInterval(timer);
    w4.destroy();
    el4.remove();
    v.pause();
    v.srcObject = null;
  } else {
    info.push(`${where}: no canvas.captureStream: the video case not run`);
  }

  // 11. A show by URL plays; a show's text with an error is said in the error event.
  step('11. shows');
  for (const [show, bad] of [['default.show', false], ['stone 10 10 nonsense\n', true]]) {
    const el5 = box(160, 120);
    let err = null;
    el5.addEventListener('error', (ev) => { err = ev.detail.message; });
    const w5 = await RW.attach(el5, { ...base, show, autopilot: true });
    await frames(w5, 4);
    check(bad ? /the show did not load: show:1/.test(err || '') : err === null,
      `${where}: show ${JSON.stringify(show)}: ${err ? `the error event "${err}"` : 'played, no error'}`);
    w5.destroy();
    el5.remove();
  }

  // Bad options to attach: rejected with the option named.
  for (const [o, want] of [[{ resolution: 'high' }, 'option resolution'], [{ edges: 1 }, 'option edges'], [{ colour: 1 }, 'unknown option colour']]) {
    let m = '(resolved)';
    await RW.attach(box(50, 50), o).then((h) => h.destroy(), (err) => { m = err.message; });
    document.body.firstChild.remove();
    check(m.includes(want), `${where}: attach(el, ${JSON.stringify(o)}) rejected: "${m}"`);
  }
  await sleep(100);
  check(JSON.stringify(RW.live()) === live0, `${where}: at the end nothing alive: ${JSON.stringify(RW.live())}`);
  return { checks, info };
})
