// tests/web/bidi.mjs - a small WebDriver BiDi client: headless Firefox ESR on a fresh profile, one tab, navigate, evaluate, the pixel ratio, console errors.
//
// launchFirefox() starts firefox-esr --headless with --remote-debugging-port on
// a free port and a profile in a temporary directory, waits for its "WebDriver
// BiDi listening on ws://..." line and opens a session at ws://HOST:PORT/session
// over node's WebSocket (node 20: --experimental-websocket) or the ws module.
// Every command has a timeout; close() (also run on exit and on signals) kills
// the process group and removes the profile.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { RpcClient, hookExit, live, webSocketClass, withTimeout } from './cdp.mjs';

// A quiet profile: nothing phones home, nothing is throttled in a background
// tab, no first-run pages.
const PREFS = {
  'app.update.enabled': false,
  'app.update.auto': false,
  'browser.shell.checkDefaultBrowser': false,
  'browser.startup.homepage_override.mstone': 'ignore',
  'browser.startup.page': 0,
  'datareporting.policy.dataSubmissionEnabled': false,
  'datareporting.healthreport.uploadEnabled': false,
  'toolkit.telemetry.enabled': false,
  'toolkit.telemetry.unified': false,
  'browser.safebrowsing.malware.enabled': false,
  'browser.safebrowsing.phishing.enabled': false,
  'browser.safebrowsing.downloads.enabled': false,
  'network.captive-portal-service.enabled': false,
  'network.connectivity-service.enabled': false,
  'extensions.update.enabled': false,
  'extensions.getAddons.cache.enabled': false,
  'browser.newtabpage.enabled': false,
  'browser.ping-centre.telemetry': false,
  'dom.min_background_timeout_value': 4,
  'media.autoplay.default': 0,
  'remote.prefs.recommended': true,
};

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

class Firefox extends RpcClient {
  constructor(proc, dir) {
    super((msg) => (msg.type === 'error' ? `${msg.error}: ${msg.message}` : null));
    this.proc = proc;
    this.dir = dir;
    this.handlers = new Map(); // method -> Set of fns
    this.exited = false;
    this.stderrTail = '';
  }

  onMessage(text) {
    const msg = this.take(text);
    if (!msg) return;
    for (const fn of this.handlers.get(msg.method) || []) fn(msg.params || {});
  }

  on(method, fn) {
    if (!this.handlers.has(method)) this.handlers.set(method, new Set());
    this.handlers.get(method).add(fn);
  }

  send(method, params = {}, { timeout = 30000 } = {}) {
    return this.command({ method, params }, timeout, method);
  }

  // Loads url in the tab and waits for its load event.
  goto(url, { timeout = 30000 } = {}) {
    return this.send('browsingContext.navigate', { context: this.context, url, wait: 'complete' }, { timeout });
  }

  // The value of an expression in the page (promises awaited), through JSON.
  async evaluate(expression, { timeout = 30000 } = {}) {
    const r = await this.send('script.evaluate', {
      expression: `(async () => JSON.stringify(await (${expression})))()`,
      target: { context: this.context }, awaitPromise: true, resultOwnership: 'none', userActivation: true,
    }, { timeout });
    if (r.type === 'exception') {
      const d = r.exceptionDetails || {};
      throw new Error(`in page: ${d.text || JSON.stringify(d.exception)}`);
    }
    const v = r.result && r.result.value;
    return v === undefined ? undefined : JSON.parse(v);
  }

  async waitFor(expression, { timeout = 30000, interval = 100, what = expression } = {}) {
    const t0 = Date.now();
    let last;
    for (;;) {
      last = await this.evaluate(expression);
      if (last) return last;
      if (Date.now() - t0 > timeout) throw new Error(`waited ${timeout} ms for ${what}; last ${JSON.stringify(last)}`);
      await new Promise((r) => setTimeout(r, interval));
    }
  }

  // The viewport in CSS pixels and the device pixel ratio.
  viewport(width, height, dpr) {
    return this.send('browsingContext.setViewport', {
      context: this.context, viewport: { width, height }, devicePixelRatio: dpr,
    });
  }

  killNow() {
    live.delete(this);
    this.fail('browser closed');
    try {
      this.ws?.close();
    } catch { /* already closed */ }
    if (!this.exited) {
      try {
        process.kill(-this.proc.pid, 'SIGKILL');
      } catch { /* gone */ }
    }
    if (this.dir) {
      try {
        fs.rmSync(this.dir, { recursive: true, force: true, maxRetries: 3 });
        this.dir = null;
      } catch { /* retried by the next close */ }
    }
  }

  async close() {
    const exited = this.exited ? Promise.resolve() : new Promise((r) => this.proc.once('exit', r));
    if (!this.dead) await this.send('browser.close', {}, { timeout: 5000 }).catch(() => {});
    await withTimeout(exited, 5000, 'firefox to exit').catch(() => {});
    this.killNow();
  }
}

// Starts firefox and opens a session with one tab.  Resolves to a Firefox with
// startMs (spawn to session) and version.
export async function launchFirefox({ firefox = 'firefox-esr', timeout = 60000, verbose = false } = {}) {
  const WebSocket = webSocketClass();
  if (!WebSocket) throw new Error('no WebSocket in this node: run node 20 with --experimental-websocket, or install node-ws');
  hookExit();
  const t0 = Date.now();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ripple-firefox-'));
  fs.writeFileSync(path.join(dir, 'user.js'),
    Object.entries(PREFS).map(([k, v]) => `user_pref(${JSON.stringify(k)}, ${JSON.stringify(v)});\n`).join(''));
  const port = await freePort();
  const proc = spawn(firefox, ['--headless', `--remote-debugging-port=${port}`, '-profile', dir, '-no-remote',
    '--window-size=800,600', 'about:blank'], {
    stdio: ['ignore', 'pipe', 'pipe'], detached: true,
    env: { ...process.env, MOZ_CRASHREPORTER_DISABLE: '1', MOZ_DISABLE_AUTO_SAFE_MODE: '1' },
  });
  const b = new Firefox(proc, dir);
  live.add(b);
  proc.on('exit', (code, sig) => {
    b.exited = true;
    b.fail(`firefox exited (${sig || 'code ' + code})${b.stderrTail ? ': ' + b.stderrTail.trim().split('\n').slice(-3).join(' | ') : ''}`);
  });
  proc.unref();
  proc.stdout.resume();
  proc.stderr.setEncoding('utf8');
  try {
    const wsUrl = await withTimeout(new Promise((resolve, reject) => {
      let buf = '';
      proc.on('error', (e) => reject(new Error(`cannot start ${firefox}: ${e.message}`)));
      proc.on('exit', () => reject(new Error(b.dead)));
      proc.stderr.on('data', (chunk) => {
        if (verbose) process.stderr.write(chunk);
        b.stderrTail = (b.stderrTail + chunk).slice(-2000);
        buf += chunk;
        const m = buf.match(/WebDriver BiDi listening on (ws:\/\/\S+)/);
        if (m) resolve(`${m[1].replace(/\/$/, '')}/session`);
      });
    }), timeout, 'firefox to print "WebDriver BiDi listening on ws://..."');
    const ws = new WebSocket(wsUrl);
    b.ws = ws;
    await withTimeout(new Promise((resolve, reject) => {
      ws.addEventListener('open', resolve, { once: true });
      ws.addEventListener('error', () => reject(new Error(`cannot connect to ${wsUrl}`)), { once: true });
    }), timeout, `the BiDi WebSocket ${wsUrl}`);
    ws.addEventListener('message', (ev) => b.onMessage(typeof ev.data === 'string' ? ev.data : Buffer.from(ev.data).toString()));
    ws.addEventListener('close', () => b.fail('BiDi connection closed'));
    const s = await b.send('session.new', { capabilities: {} });
    b.version = `${s.capabilities.browserName} ${s.capabilities.browserVersion}`;
    const tree = await b.send('browsingContext.getTree', {});
    b.context = tree.contexts[0].context;
    await b.send('session.subscribe', { events: ['log.entryAdded'] });
    b.startMs = Date.now() - t0;
    return b;
  } catch (e) {
    await b.close();
    throw e;
  }
}
