// src/web/serve.mjs - a small static HTTP server for the web page, on 127.0.0.1 only.
//
// Usage: node src/web/serve.mjs DIR [PORT] [--verbose]
// PORT defaults to 8000; 0 takes any free port.  Prints one line on start:
// "serving DIR at http://127.0.0.1:PORT/".  Tests import serve() instead.

import http from 'node:http';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.css': 'text/css; charset=utf-8',
  '.show': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
};

function reply(res, status, body, extra = {}) {
  const buf = Buffer.from(body + '\n');
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': buf.length,
    'Cache-Control': 'no-cache',
    ...extra,
  });
  res.end(res.req.method === 'HEAD' ? undefined : buf);
}

// The file a request path names inside root (a realpath), or null when it
// names nothing there.  Decodes once, refuses NULs, backslashes and any ".."
// segment outright, then checks the realpath so that a symlink leading
// out of root is refused too.
async function locate(root, urlPath) {
  let p;
  try {
    p = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (p.includes('\0') || p.includes('\\')) return null;
  const segs = p.split('/');
  if (segs.some((s) => s === '..')) return null;
  if (p.endsWith('/')) p += 'index.html';
  let real;
  try {
    real = await fsp.realpath(path.join(root, p));
  } catch {
    return null;
  }
  if (real !== root && !real.startsWith(root + path.sep)) return null;
  let st;
  try {
    st = await fsp.stat(real);
  } catch {
    return null;
  }
  if (st.isDirectory()) {
    // A directory without its trailing slash: redirect, so that the page's
    // relative URLs resolve inside it.  One leading slash only: "//NAME/"
    // would send a browser to the host NAME.
    return p.endsWith('/') ? null : { redirect: urlPath.replace(/^\/+/, '/') + '/' };
  }
  return st.isFile() ? { file: real, size: st.size } : null;
}

function handler(root, verbose) {
  return async (req, res) => {
    if (verbose) res.on('finish', () => console.log(`${req.method} ${req.url} ${res.statusCode}`));
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        return reply(res, 405, 'method not allowed', { Allow: 'GET, HEAD' });
      }
      const urlPath = (req.url || '/').split(/[?#]/, 1)[0];
      if (!urlPath.startsWith('/')) return reply(res, 404, 'not found');
      const hit = await locate(root, urlPath);
      if (!hit) {
        // No favicon is shipped; a 204 keeps the browser's console quiet.
        if (urlPath === '/favicon.ico') {
          res.writeHead(204, { 'Cache-Control': 'no-cache' });
          return res.end();
        }
        return reply(res, 404, 'not found');
      }
      if (hit.redirect) return reply(res, 301, 'moved', { Location: hit.redirect });
      const type = TYPES[path.extname(hit.file).toLowerCase()] || 'application/octet-stream';
      res.writeHead(200, {
        'Content-Type': type,
        'Content-Length': hit.size,
        'Cache-Control': 'no-cache',
        'X-Content-Type-Options': 'nosniff',
      });
      if (req.method === 'HEAD') return res.end();
      // pipeline, not pipe: when the client leaves before the file's end
      // (a dropped download, or a whole one closed before the server reads
      // the end), pipe would leave the file open with its buffer for good;
      // pipeline closes both on an error or either's early close.
      pipeline(fs.createReadStream(hit.file), res, () => {});
    } catch (e) {
      if (!res.headersSent) reply(res, 500, 'internal error');
      else res.destroy();
    }
  };
}

// Serves dir on 127.0.0.1:port (0: any free port).  Resolves to the server
// and its URL ("http://127.0.0.1:PORT/"); rejects when dir is not a
// directory or the port cannot be had.
export async function serve(dir, port = 8000, { verbose = false } = {}) {
  const root = await fsp.realpath(dir).catch(() => {
    throw new Error(`${dir}: no such directory`);
  });
  if (!(await fsp.stat(root)).isDirectory()) throw new Error(`${dir}: not a directory`);
  const server = http.createServer(handler(root, verbose));
  await new Promise((resolve, reject) => {
    server.once('error', (e) => {
      reject(new Error(e.code === 'EADDRINUSE' ? `port ${port} is in use` : `cannot listen on port ${port}: ${e.message}`));
    });
    server.listen(port, '127.0.0.1', resolve);
  });
  const url = `http://127.0.0.1:${server.address().port}/`;
  return { server, url };
}

function usage(msg) {
  process.stderr.write(`serve: ${msg} (usage: node src/web/serve.mjs DIR [PORT] [--verbose])\n`);
  process.exit(2);
}

async function main(argv) {
  let verbose = false;
  const pos = [];
  for (const a of argv) {
    if (a === '--verbose' || a === '-v') verbose = true;
    else if (a.startsWith('-') && a !== '-') usage(`unknown option ${a}`);
    else pos.push(a);
  }
  if (pos.length < 1 || pos.length > 2) usage('expected DIR and an optional PORT');
  let port = 8000;
  if (pos.length === 2) {
    if (!/^\d{1,5}$/.test(pos[1]) || Number(pos[1]) > 65535) usage(`bad port ${pos[1]}`);
    port = Number(pos[1]);
  }
  try {
    const { url } = await serve(pos[0], port, { verbose });
    console.log(`serving ${pos[0]} at ${url}`);
  } catch (e) {
    process.stderr.write(`serve: ${e.message}\n`);
    process.exit(1);
  }
}

function isMain() {
  if (!process.argv[1]) return false;
  try {
    return fs.realpathSync(fileURLToPath(import.meta.url)) === fs.realpathSync(process.argv[1]);
  } catch {
    return false;
  }
}

if (isMain()) {
  main(process.argv.slice(2));
}
