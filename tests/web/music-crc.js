// tests/web/music-crc.js - the page's sound as the window mixes it, from a loaded module: the default show's drips and the default score on a 160x120 pool from seed 1, a step's sound after each step; evaluated by music.mjs (node) and by browser.mjs and embed.mjs (in a page), so every run checks the same thing.
// One expression: a function (M, show, score, steps) returning the CRC-32 of the samples as
// 8 hex digits, as the native demo's --headless --size 160x120 --frames STEPS --audio-out
// writes them after its WAV header.
((M, show, score, steps) => {
  const str = (t) => {
    const n = M.lengthBytesUTF8(t) + 1, ptr = M._malloc(n);
    M.stringToUTF8(t, ptr, n);
    return ptr;
  };
  const constant = (name) => {
    const ptr = str(name), v = M._web_constant(ptr);
    M._free(ptr);
    if (v < 0)
      throw new Error(`the module knows no ${name}`);
    return v;
  };
  const slot = M._malloc(4);
  const st = M._web_create(160, 120, 1, 48000, slot);
  const q = M.HEAPU32[slot >> 2];
  M._free(slot);
  try {
    if (st !== 0)
      throw new Error(`web_create: ${M.UTF8ToString(M._web_error(q))}`);
    // the window's sound: the bed and the drips, the music heard, from before the first step
    M._web_set(q, constant('AMBIENT'), 1);
    M._web_set(q, constant('HEARD'), 1);
    for (const [fn, text, name] of [[M._web_show, show, 'default.show'], [M._web_music, score, 'default.score']]) {
      const t = str(text), n = str(name), r = fn(q, t, n);
      M._free(t);
      M._free(n);
      if (r !== 0)
        throw new Error(`${name}: ${M.UTF8ToString(M._web_error(q))}`);
    }
    return (M._web_sound_crc(q, steps) >>> 0).toString(16).padStart(8, '0');
  } finally {
    M._web_destroy(q);
  }
})
