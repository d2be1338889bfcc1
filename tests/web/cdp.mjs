// tests/web/cdp.mjs - a small Chrome DevTools Protocol client: headless chromium, pages, commands and events.
//
// launch() starts chromium on a fresh profile in a temporary directory and
// connects to it over node's own WebSocket (node 22; node 20 with
// --experimental-websocket) or, in an older node, the ws module (Debian's
// node-ws).
// Every command and every wait has a timeout, so that a hung browser fails
// a test in bounded time; close() (also run on exit, SIGINT, SIGTERM) kills
// the whole chromium process group and removes the profile.

import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Flags for a quiet headless browser: nothing outside this machine answers,
// so everything that would phone home (updates, sync, safe browsing,
// metrics, crash reports, translation, field trials) is turned off, and
// nothing may throttle a page that nobody looks at.
const BASE_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--remote-debugging-port=0',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-extensions',
  '--mute-audio',
  '--window-size=800,600',
  '--autoplay-policy=no-user-gesture-required',
  '--disable-breakpad',
  '--disable-crash-reporter',
  '--disable-client-side-phishing-detection',
  '--disable-domain-reliability',
  '--disable-field-trial-config',
  '--disable-component-extensions-with-background-pages',
  '--disable-features=Translate,OptimizationHints,MediaRouter,DialMediaRouteProvider,AutofillServerCommunication,CertificateTransparencyComponentUpdater,InterestFeedContentSuggestions,PrivacySandboxSettings4,NetworkTimeServiceQuerying',
  '--no-pings',
  '--metrics-recording-only',
  '--safebrowsing-disable-auto-update',
  '--password-store=basic',
  '--use-mock-keychain',
  '--disable-background-timer-throttling',
  '--disable-backgrounding-occluded-windows',
  '--disable-renderer-backgrounding',
  '--disable-hang-monitor',
  '--disable-ipc-flooding-protection',
  '--disable-popup-blocking',
  '--disable-prompt-on-repost',
  // Debian's wrapper adds --enable-remote-extensions, and chromium still
  // asks for account lists and updates: no name but the local ones
  // resolves, so nothing leaves the machine and nothing waits on DNS.
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost',
];

// Browsers still running (Chromium here, Firefox in bidi.mjs), killed by
// the exit and signal handlers; each has killNow().
export const live = new Set();
let hooked = false;

export function hookExit() {
  if (hooked) return;
  hooked = true;
  process.on('exit', () => {
    for (const b of live) b.killNow();
  });
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(sig, () => {
      for (const b of live) b.killNow();
      process.exit(sig === 'SIGINT' ? 130 : 143);
    });
  }
}

// p, or a rejection naming what was awaited once ms have passed.
export function withTimeout(p, ms, what) {
  let timer;
  const t = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// A client of a JSON protocol over a WebSocket whose commands carry an id
// that their answer names (the DevTools protocol here, WebDriver BiDi in
// bidi.mjs); errorOf(msg) says what an answer's error is, or null.
export class RpcClient {
  constructor(errorOf) {
    this.ws = null;
    this.nextId = 1;
    this.pending = new Map(); // id -> {resolve, reject, method}
    this.dead = null; // why the connection is gone, once it is
    this.errorOf = errorOf;
  }

  // The reason every pending and later command fails with.
  fail(why) {
    if (this.dead) return;
    this.dead = why;
    for (const { reject, method } of this.pending.values()) reject(new Error(`${method}: ${why}`));
    this.pending.clear();
  }

  // A message as text: an answer settles its command (null is returned);
  // an event is returned parsed; what is not JSON is dropped (null).
  take(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      return null;
    }
    if (msg.id === undefined) return msg;
    const p = this.pending.get(msg.id);
    if (p) {
      this.pending.delete(msg.id);
      const err = this.errorOf(msg);
      if (err) p.reject(new Error(`${p.method}: ${err}`));
      else p.resolve(msg.result);
    }
    return null;
  }

  // Sends msg ({method, params...}) with an id of its own; resolves to
  // the answer's result, rejects on its error, on the connection going
  // away, or after timeout ms (waiting for `what`).
  command(msg, timeout, what) {
    if (this.dead) return Promise.reject(new Error(`${msg.method}: ${this.dead}`));
    const id = this.nextId++;
    const p = new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, method: msg.method });
    });
    this.ws.send(JSON.stringify({ id, ...msg }));
    return withTimeout(p, timeout, what).finally(() => this.pending.delete(id));
  }
}

class Browser extends RpcClient {
  constructor(proc, dir) {
    super((msg) => (msg.error ? `${msg.error.message}${msg.error.data ? ' (' + msg.error.data + ')' : ''}` : null));
    this.proc = proc;
    this.dir = dir;
    this.listeners = new Map(); // "sessionId|method" -> Set of fns
    this.exited = false;
    this.stderrTail = '';
    this.timeout = 15000;
  }

  onMessage(text) {
    const msg = this.take(text);
    if (!msg) return;
    const key = `${msg.sessionId || ''}|${msg.method}`;
    const set = this.listeners.get(key);
    if (set) for (const fn of [...set]) fn(msg.params || {});
    const any = this.listeners.get(`${msg.sessionId || ''}|*`);
    if (any) for (const fn of [...any]) fn(msg.method, msg.params || {});
  }

  // Sends a command (to a page's session when sessionId is given) and
  // resolves to its result; rejects on a protocol error, on the browser
  // going away, or after timeout ms.
  send(method, params = {}, { sessionId, timeout = this.timeout } = {}) {
    const msg = { method, params };
    if (sessionId) msg.sessionId = sessionId;
    return this.command(msg, timeout, `chromium to answer ${method}`);
  }

  // Calls fn(params) on each event method (or fn(method, params) for "*")
  // from the browser or the given session; returns a function that stops it.
  on(method, fn, sessionId = '') {
    const key = `${sessionId}|${method}`;
    if (!this.listeners.has(key)) this.listeners.set(key, new Set());
    this.listeners.get(key).add(fn);
    return () => this.listeners.get(key)?.delete(fn);
  }

  // The next event method (whose params satisfy pred) within timeout ms.
  once(method, { sessionId = '', timeout = this.timeout, pred = () => true } = {}) {
    let off;
    const p = new Promise((resolve) => {
      off = this.on(
        method,
        (params) => {
          if (pred(params)) resolve(params);
        },
        sessionId,
      );
    });
    return withTimeout(p, timeout, `event ${method}`).finally(() => off());
  }

  // Whether the browser answers within 3 s; when it does not, it is taken
  // for hung and every later command fails at once.
  async alive() {
    if (this.dead) return false;
    try {
      await this.send('Browser.getVersion', {}, { timeout: 3000 });
      return true;
    } catch {
      this.fail('chromium stopped answering');
      return false;
    }
  }

  // A new tab at about:blank, attached with a flat session, with the Page,
  // Runtime and Log domains enabled.
  async newPage() {
    const { targetId } = await this.send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await this.send('Target.attachToTarget', { targetId, flatten: true });
    const page = new Page(this, targetId, sessionId);
    await Promise.all([page.send('Page.enable'), page.send('Runtime.enable'), page.send('Log.enable')]);
    return page;
  }

  // Kills the process group at once and removes the profile; safe to call
  // more than once and from an exit handler (all synchronous).
  killNow() {
    live.delete(this);
    this.fail('browser closed');
    try {
      this.ws?.close();
    } catch {
      /* already closed */
    }
    if (!this.exited) {
      try {
        process.kill(-this.proc.pid, 'SIGKILL');
      } catch {
        try {
          this.proc.kill('SIGKILL');
        } catch {
          /* already gone */
        }
      }
    }
    this.removeDir();
  }

  removeDir() {
    if (!this.dir) return;
    try {
      fs.rmSync(this.dir, { recursive: true, force: true, maxRetries: 3 });
      this.dir = null;
    } catch {
      /* chromium may still be writing; retried after it exits */
    }
  }

  // Asks chromium to quit, kills it if it has not within 3 s, and waits
  // for it to exit before removing the profile.
  async close() {
    if (!live.has(this) && this.exited) return this.removeDir();
    const exited = this.exited ? Promise.resolve() : new Promise((r) => this.proc.once('exit', r));
    // A browser that answers is asked to quit; one that does not is killed at once.
    if (!this.dead) {
      try {
        await this.send('Browser.close', {}, { timeout: 3000 });
        await withTimeout(exited, 3000, 'chromium to exit');
      } catch {
        /* killed below */
      }
    }
    this.killNow();
    await withTimeout(exited, 3000, 'chromium to exit after SIGKILL').catch(() => {});
    this.removeDir();
  }
}

class Page {
  constructor(browser, targetId, sessionId) {
    this.browser = browser;
    this.targetId = targetId;
    this.sessionId = sessionId;
  }

  send(method, params = {}, opts = {}) {
    return this.browser.send(method, params, { ...opts, sessionId: this.sessionId });
  }

  on(method, fn) {
    return this.browser.on(method, fn, this.sessionId);
  }

  once(method, opts = {}) {
    return this.browser.once(method, { ...opts, sessionId: this.sessionId });
  }

  // Navigates and waits for the load event; rejects on a navigation error.
  async goto(url, { timeout = 30000 } = {}) {
    const loaded = this.once('Page.loadEventFired', { timeout });
    loaded.catch(() => {}); // handled below; do not let it go unhandled if navigate throws
    const r = await this.send('Page.navigate', { url }, { timeout });
    if (r.errorText) throw new Error(`navigating to ${url}: ${r.errorText}`);
    await loaded;
  }

  // The value of a JavaScript expression in the page (promises awaited),
  // returned by value; an exception in the page rejects with its text.
  async evaluate(expression, { timeout } = {}) {
    const r = await this.send(
      'Runtime.evaluate',
      { expression, returnByValue: true, awaitPromise: true, userGesture: true },
      { timeout },
    );
    if (r.exceptionDetails) {
      const d = r.exceptionDetails;
      throw new Error(`in page: ${d.exception?.description || d.text}`);
    }
    return r.result.value;
  }

  // Polls expression every interval ms until it is truthy and resolves to
  // that value; after timeout ms rejects naming what (or the expression)
  // and the last value seen.  stop(value), when given, ends the wait early
  // with an error when it returns a string.
  async waitFor(expression, { timeout = 30000, interval = 100, what = expression, stop } = {}) {
    const t0 = Date.now();
    let last;
    for (;;) {
      try {
        // A short timeout per poll: a page that stops answering ends the
        // wait near its deadline, not a whole deadline later.
        last = await this.evaluate(expression, { timeout: Math.min(10000, Math.max(1000, timeout - (Date.now() - t0))) });
      } catch (e) {
        last = `(error: ${e.message})`;
        // A poll that timed out may mean the whole browser hangs: then
        // there is nothing to wait for.
        if (/timed out/.test(e.message)) await this.browser.alive();
        if (this.browser.dead) throw new Error(`waiting for ${what}: ${this.browser.dead} (${e.message})`);
      }
      if (stop) {
        const why = stop(last);
        if (typeof why === 'string') throw new Error(why);
      }
      if (last && !(typeof last === 'string' && last.startsWith('(error: '))) return last;
      if (Date.now() - t0 >= timeout) {
        throw new Error(`timed out after ${timeout} ms waiting for ${what}; last value: ${JSON.stringify(last)}`);
      }
      await sleep(interval);
    }
  }

  close() {
    return this.browser.send('Target.closeTarget', { targetId: this.targetId }, { timeout: 3000 }).catch(() => {});
  }
}

// The WebSocket class: node's own, else the ws module's (same events).
export function webSocketClass() {
  if (typeof globalThis.WebSocket === 'function') return globalThis.WebSocket;
  const require = createRequire(import.meta.url);
  for (const name of ['ws', '/usr/share/nodejs/ws']) {
    try {
      return require(name);
    } catch {
      // not there: the next place
    }
  }
  return null;
}

// Starts headless chromium and connects to it.  Resolves to a Browser with
// startMs (from spawn to connected).  args are added to the defaults;
// without lists default flags to leave out (e.g. '--disable-gpu').
export async function launch({ chromium = 'chromium', args = [], without = [], timeout = 30000, verbose = false } = {}) {
  const WebSocket = webSocketClass();
  if (!WebSocket) {
    throw new Error('no WebSocket in this node: run node 20 with --experimental-websocket, or install node-ws');
  }
  hookExit();
  const t0 = Date.now();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ripple-chromium-'));
  const base = BASE_ARGS.filter((a) => !without.includes(a));
  const proc = spawn(chromium, [...base, `--user-data-dir=${dir}`, ...args, 'about:blank'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true, // its own process group, so that killing it kills every helper process too
  });
  const b = new Browser(proc, dir);
  live.add(b);
  proc.on('exit', (code, sig) => {
    b.exited = true;
    b.fail(`chromium exited (${sig || 'code ' + code})${b.stderrTail ? ': ' + b.stderrTail.trim().split('\n').slice(-3).join(' | ') : ''}`);
  });
  proc.unref();
  proc.stderr.setEncoding('utf8');

  try {
    const wsUrl = await withTimeout(
      new Promise((resolve, reject) => {
        let buf = '';
        proc.on('error', (e) => reject(new Error(`cannot start ${chromium}: ${e.message}`)));
        proc.on('exit', () => reject(new Error(b.dead)));
        proc.stderr.on('data', (chunk) => {
          if (verbose) process.stderr.write(chunk);
          b.stderrTail = (b.stderrTail + chunk).slice(-2000);
          buf += chunk;
          const m = buf.match(/DevTools listening on (ws:\/\/\S+)/);
          if (m) resolve(m[1]);
        });
      }),
      timeout,
      `chromium to print "DevTools listening on ws://..."`,
    );
    // Keep draining stderr so that chromium never blocks on a full pipe.
    proc.stderr.resume();

    const ws = new WebSocket(wsUrl);
    b.ws = ws;
    await withTimeout(
      new Promise((resolve, reject) => {
        ws.addEventListener('open', resolve, { once: true });
        ws.addEventListener('error', () => reject(new Error(`cannot connect to ${wsUrl}`)), { once: true });
      }),
      timeout,
      `the DevTools WebSocket ${wsUrl}`,
    );
    ws.addEventListener('message', (ev) => b.onMessage(typeof ev.data === 'string' ? ev.data : Buffer.from(ev.data).toString()));
    ws.addEventListener('close', () => b.fail('DevTools connection closed'));
    b.startMs = Date.now() - t0;
    b.wsUrl = wsUrl;
    return b;
  } catch (e) {
    await b.close();
    throw e;
  }
}
