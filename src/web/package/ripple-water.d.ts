// src/web/package/ripple-water.d.ts - the types of ripple-water.js (attach, its options and handle), for the package.

/** What attach takes; every option may be left out. */
export interface RippleWaterOptions {
  /** Cells of the pool per CSS pixel (0.05 to 4), or 'device' for one per device pixel. Default 1. */
  resolution?: number | 'device';
  /** The most cells the pool may have (64 to 16777216); a larger element gets coarser cells. Default 1920*1080. */
  maxCells?: number;
  /** A drop's radius in CSS pixels (1 to 500): a click's and drop()'s default. Default 20. */
  dropRadius?: number;
  /** Refraction strength, 0 to 4 (1 is 1:1). Default 0.25. */
  strength?: number;
  /** Clicks and drags drop stones. Default true. */
  interactive?: boolean;
  /** The water's rule. Default 'classic'. */
  model?: 'classic' | 'wave';
  /** The wave water's speed (above 0; 24 by default, at most about 42). */
  speed?: number;
  /** The wave water's viscosity (0 or more; 1.2 by default). */
  viscosity?: number;
  /** Waves bounce off the element's edges or die there. Default 'reflect'. */
  edges?: 'reflect' | 'absorb';
  /** Raindrops. Default false. */
  rain?: boolean;
  /** Stones dropped by themselves while nobody touches the water. Default false. */
  autopilot?: boolean;
  /** A show (docs/shows.md): its text or its URL. Default null. */
  show?: string | null;
  /** Shading of the waves. Default true. */
  light?: boolean;
  /** The drips' sound, and the music, from the first click or key on. Default false. */
  sound?: boolean;
  /**
   * The music, played with the sound (from the first click or key on), in time with the
   * water and its show: null for default.score, the demo's own, beside the modules; 'off'
   * for none; a score's text (the ripple-music format) or its URL. A score refused is said
   * in one line by the error event, and the water plays on without it. set('music', 'off')
   * silences it (it keeps time), set('music', null) brings it back. Default null.
   */
  music?: string | null;
  /** The picture: null for the element's CSS background-image, a URL, an <img>, a <canvas>, a playing <video>. */
  image?: string | HTMLImageElement | HTMLCanvasElement | HTMLVideoElement | ImageBitmap | OffscreenCanvas | null;
  /** How the picture fills the element; null follows its CSS background-size. */
  fit?: 'cover' | 'contain' | null;
  /** Where engine.js and the modules are; by default beside ripple-water.js. */
  wasmBase?: string | URL | null;
  /** How a picture URL on another origin is fetched. Default 'anonymous'. */
  crossOrigin?: 'anonymous' | 'use-credentials' | null;
  /** The random seed (0 to 2147483647). Default 1. */
  seed?: number;
  /** A fixed pool size in cells instead of the element's. */
  pool?: [number, number] | null;
  /** Run in a worker where the browser can. Default true. */
  worker?: boolean;
  /** The module: null chooses by the browser. */
  module?: 'simd' | 'scalar' | null;
  /** The timedemo (the demo page's). */
  benchmark?: { scene?: string; frames?: number; rounds?: number; seconds?: number } | null;
  /** Told of 'ready', 'error' and the engine's messages ('stats' and others). */
  on?: ((type: string, detail: any) => void) | null;
}

/** The options set() can change after the start. */
export type RippleWaterSettable = 'resolution' | 'maxCells' | 'dropRadius' | 'strength' | 'interactive' | 'model' |
  'speed' | 'viscosity' | 'edges' | 'rain' | 'autopilot' | 'light' | 'sound' | 'music' | 'image' | 'fit';

export interface RippleWater {
  readonly element: Element;
  readonly canvas: HTMLCanvasElement;
  /** Frames drawn so far. */
  readonly frames: number;
  /** The pool's size in cells. */
  readonly pool: { width: number; height: number };
  readonly fps: number;
  readonly inWorker: boolean;
  readonly module: 'simd' | 'scalar';
  /** The kernels: 'sse2' (on WebAssembly SIMD) or 'c'. */
  readonly path: string;
  readonly running: boolean;
  readonly destroyed: boolean;
  /** A drop at (x, y) CSS pixels from the element's padding corner; radius in CSS pixels; strength above 0 to 4 (0.5 a click's). */
  drop(x: number, y: number, radius?: number, strength?: number): void;
  /** No frames until play(); resolves to the frame count it stopped at. */
  pause(): Promise<number>;
  play(): Promise<number>;
  set<K extends RippleWaterSettable>(name: K, value: RippleWaterOptions[K]): Promise<unknown>;
  /** Measures the element again (a ResizeObserver does it by itself). */
  resize(): Promise<{ width: number; height: number }>;
  /** The frame as a PNG. */
  snapshot(): Promise<Blob | null>;
  /** Removes the water: the element as it was, no worker, canvas or listener left. */
  destroy(): void;
  soundState(): 'off' | 'waiting' | 'on';
}

/** What is alive in the page, for tests. */
export interface RippleWaterLive {
  instances: number;
  canvases: number;
  workers: number;
  listeners: number;
}

/** The water over element, once its first frame is drawn; rejects with a one-line Error for bad options, a file:// page or a module that does not load. */
export function attach(element: Element, options?: RippleWaterOptions): Promise<RippleWater>;
export function live(): RippleWaterLive;
declare const _default: { attach: typeof attach; live: typeof live };
export default _default;

declare global {
  interface Window {
    RippleWater: { attach: typeof attach; live: typeof live; version: string };
  }
  interface HTMLElementEventMap {
    ready: CustomEvent<{ width: number; height: number; inWorker: boolean; module: string; path: string }>;
  }
}
