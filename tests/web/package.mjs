// tests/web/package.mjs - make web-package's folder: package.json's fields and files, the types naming every option the component takes, and npm pack's list when npm is there.
// Usage: node tests/web/package.mjs DIR   (exit 0: all passed)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const dir = process.argv[2];
if (!dir || !fs.existsSync(dir)) {
  console.error('usage: node tests/web/package.mjs DIR (make web-package\'s folder)');
  process.exit(2);
}
let failures = 0, passes = 0;
const check = (good, text) => {
  if (good) passes++;
  else failures++;
  console.log(`${good ? 'ok  ' : 'FAIL'} package: ${text}`);
};
const read = (f) => fs.readFileSync(path.join(dir, f), 'utf8');

let pkg = {};
try {
  pkg = JSON.parse(read('package.json'));
  check(true, 'package.json parses');
} catch (e) {
  check(false, `package.json: ${e.message}`);
}
check(pkg.name === 'ripple-water' && /^\d+\.\d+\.\d+$/.test(pkg.version || '') && pkg.license === 'MIT',
  `name ${pkg.name}, version ${pkg.version}, licence ${pkg.license}`);
check(pkg.type === 'module' && pkg.main === 'ripple-water.js' && pkg.types === 'ripple-water.d.ts' &&
  pkg.exports?.['.']?.import === './ripple-water.js', 'the module is the entry, with its types');
const files = pkg.files || [];
const want = ['ripple-water.js', 'ripple-water.classic.js', 'ripple-water.d.ts', 'engine.js', 'ripple-simd.js',
  'ripple-simd.wasm', 'ripple-scalar.js', 'ripple-scalar.wasm', 'default.score', 'README.md', 'LICENSE'];
check(want.every((f) => files.includes(f)), `files lists ${want.join(', ')}`);
const missing = files.filter((f) => !fs.existsSync(path.join(dir, f)) || fs.statSync(path.join(dir, f)).size === 0);
check(missing.length === 0, `every file listed is in the folder, not empty${missing.length ? `: missing ${missing.join(', ')}` : ''}`);
const wasm = fs.readFileSync(path.join(dir, 'ripple-simd.wasm'));
check(wasm.subarray(0, 4).equals(Buffer.from([0, 0x61, 0x73, 0x6d])), 'ripple-simd.wasm is WebAssembly');
check(/^ripple-music \d+\n/.test(read('default.score')), 'default.score is a score (the music the component plays by default)');

// Every option the component checks is in the types, and no other.
const classic = read('ripple-water.classic.js');
const block = classic.slice(classic.indexOf('const OPTIONS = {'), classic.indexOf('\n  };', classic.indexOf('const OPTIONS = {')));
const opts = [...block.matchAll(/^ {4}(\w+): \[/gm)].map((m) => m[1]);
const dts = read('ripple-water.d.ts');
const typed = [...dts.slice(dts.indexOf('interface RippleWaterOptions'), dts.indexOf('export type RippleWaterSettable'))
  .matchAll(/^ {2}(\w+)\?:/gm)].map((m) => m[1]);
check(opts.length > 20 && opts.join() === typed.join(), `the types name the ${opts.length} options in order` +
  (opts.join() === typed.join() ? '' : `: component ${opts.join()} types ${typed.join()}`));
check(/export function attach\(/.test(dts) && /export function attach\(/.test(read('ripple-water.js')),
  'attach is exported by the module and typed');

// npm pack takes the folder as it is (no network: --dry-run only lists).
let npm = null;
try {
  execFileSync('npm', ['--version'], { stdio: 'ignore' });
  npm = 'npm';
} catch { /* no npm: the fields above are the check */ }
if (npm) {
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'ripple-npm-'));
  try {
    const out = execFileSync(npm, ['pack', '--dry-run', '--json', '--offline', '--ignore-scripts'], {
      cwd: dir, encoding: 'utf8', env: { ...process.env, npm_config_cache: cache, npm_config_update_notifier: 'false' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const r = JSON.parse(out)[0];
    const packed = r.files.map((f) => f.path).sort();
    const all = [...want, 'package.json'].sort();
    check(r.name === 'ripple-water' && packed.join() === all.join(),
      `npm pack --dry-run: ${r.filename}, ${r.files.length} files, ${(r.size / 1024).toFixed(0)} KiB packed` +
      (packed.join() === all.join() ? '' : `: ${packed.join()} not ${all.join()}`));
  } catch (e) {
    check(false, `npm pack --dry-run: ${(e.stderr || e.message).toString().trim().split('\n').pop()}`);
  } finally {
    fs.rmSync(cache, { recursive: true, force: true });
  }
} else {
  console.log('    package: no npm here: npm pack not tried');
}
console.log(`${failures ? 'FAIL' : 'ok  '} package: ${passes} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
