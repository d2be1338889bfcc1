// tests/web/music.mjs - the page's music is the native demo's, byte for byte: a module (ripple-simd.js or ripple-scalar.js) plays the default show's drips and the default score in node (music-crc.js) and its sound's CRC-32 must be that of the native --audio-out WAV file's data; also gives that CRC over the first steps for the browsers' shorter run.
//
// Usage: node --no-experimental-fetch tests/web/music.mjs --wav FILE --dir WEB_DIR --module simd|scalar
//        node tests/web/music.mjs --wav FILE --crc-of-steps N    (prints the CRC-32 of N steps' data)
// FILE is the native demo's --headless --size 160x120 --frames STEPS --audio-out; the
// module plays as many steps.  Prints "ok  ..." or "FAIL ..."; exit 0 when it passed.

import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const USAGE = 'usage: music.mjs --wav FILE (--dir WEB_DIR --module simd|scalar | --crc-of-steps N)';
const o = {};
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i], v = () => {
    if (i + 1 >= argv.length) { console.error(`music: ${a} needs a value\n${USAGE}`); process.exit(2); }
    return argv[++i];
  };
  if (a === '--wav') o.wav = v();
  else if (a === '--dir') o.dir = v();
  else if (a === '--module') o.module = v();
  else if (a === '--crc-of-steps') o.steps = Number(v());
  else { console.error(`music: unknown argument ${a}\n${USAGE}`); process.exit(2); }
}
if (!o.wav || (o.steps === undefined && (!o.dir || !['simd', 'scalar'].includes(o.module))) ||
    (o.steps !== undefined && !(Number.isInteger(o.steps) && o.steps > 0))) {
  console.error(USAGE);
  process.exit(2);
}

const FRAME_BYTES = 4, STEP_FRAMES = 800; // 16-bit stereo; 1/60 s at 48 kHz

// CRC-32 as zlib computes it (the reflected polynomial 0xEDB88320).
const TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++)
    c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++)
    c = TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ((c ^ 0xffffffff) >>> 0).toString(16).padStart(8, '0');
}

// The WAV file's samples: the 44-byte header rpl_sound_wav_header writes (48 kHz,
// 16-bit stereo PCM) checked, and its data.
function wavData(file) {
  const b = fs.readFileSync(file);
  const ok = b.length >= 44 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 16) === 'WAVEfmt ' &&
    b.readUInt16LE(22) === 2 && b.readUInt32LE(24) === 48000 && b.readUInt16LE(34) === 16 &&
    b.toString('latin1', 36, 40) === 'data' && b.readUInt32LE(40) === b.length - 44;
  if (!ok)
    throw new Error(`${file}: not the demo's 48 kHz 16-bit stereo WAV file`);
  return b.subarray(44);
}

let data;
try {
  data = wavData(o.wav);
} catch (e) {
  console.log(`FAIL music: ${e.message}`);
  process.exit(1);
}
const steps = data.length / (FRAME_BYTES * STEP_FRAMES);
if (o.steps !== undefined) {
  if (o.steps > steps) {
    console.error(`music: ${o.wav} holds ${steps} steps, not ${o.steps}`);
    process.exit(1);
  }
  console.log(crc32(data.subarray(0, o.steps * FRAME_BYTES * STEP_FRAMES)));
  process.exit(0);
}

const here = path.dirname(fileURLToPath(import.meta.url));
const play = eval(fs.readFileSync(path.join(here, 'music-crc.js'), 'utf8')); // eslint-disable-line no-eval
const want = crc32(data);
const t0 = Date.now();
try {
  const RippleModule = createRequire(import.meta.url)(path.resolve(o.dir, `ripple-${o.module}.js`));
  const M = await RippleModule({ locateFile: (f) => path.resolve(o.dir, f) });
  const text = (f) => fs.readFileSync(path.join(o.dir, f), 'utf8');
  const got = play(M, text('default.show'), text('default.score'), steps);
  const what = `music: the ${o.module} module's ${steps} steps (${(steps / 60).toFixed(0)} s) of the default show and score`;
  if (got === want)
    console.log(`ok  ${what}: crc32 ${got}, the native --audio-out's (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  else
    console.log(`FAIL ${what}: crc32 ${got}, the native --audio-out's is ${want}`);
  process.exit(got === want ? 0 : 1);
} catch (e) {
  console.log(`FAIL music: the ${o.module} module: ${e.message}`);
  process.exit(1);
}
