// src/web/ripple-water.js - the water over any element as an ES module: attach(element, options), the classic script's, with the modules looked for beside this file.
import './ripple-water.classic.js';

const { RippleWater } = globalThis;
const here = new URL('./', import.meta.url).href;

export function attach(element, options = {}) {
  if (options === null || typeof options !== 'object')
    return RippleWater.attach(element, options); // its error says what options are
  return RippleWater.attach(element, { ...options, wasmBase: options.wasmBase ?? here });
}

// What is alive: {instances, canvases, workers, listeners}.
export const live = () => RippleWater.live();

export default { attach, live };
