// Seeded randomness in named streams. The whole generator state is plain JSON kept inside the
// game state, so a saved state resumes identically. Each stream is derived from (seed, name), so
// adding a draw to one stream never shifts the numbers another stream produces.
// Generator: xoshiro128** seeded by splitmix32 (small consecutive seeds give unrelated streams).

import { ArbiterError } from './errors.ts';

export type StreamState = [number, number, number, number];

export interface RngState {
  seed: number;
  streams: Record<string, StreamState>;
}

const MAX_SEED = 0xffffffff;

export function checkSeed(seed: unknown): number {
  if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed > MAX_SEED) {
    throw new ArbiterError('bad_config', `seed must be an integer from 0 to ${MAX_SEED}`, {
      seed: typeof seed === 'number' ? seed : String(seed),
    });
  }
  return seed;
}

export function createRng(seed: number): RngState {
  return { seed: checkSeed(seed), streams: {} };
}

/** An independent copy of a generator state (for a ruleset's own fast `clone`). */
export function cloneRng(rng: RngState): RngState {
  const streams: Record<string, StreamState> = {};
  for (const k in rng.streams) {
    const st = rng.streams[k];
    streams[k] = [st[0], st[1], st[2], st[3]];
  }
  return { seed: rng.seed, streams };
}

function nameHash(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function deriveStream(seed: number, name: string): StreamState {
  return deriveInto(seed, name, [0, 0, 0, 0]);
}

/** The stream (seed, name) starts at, written into `out`. */
function deriveInto(seed: number, name: string, out: StreamState): StreamState {
  return deriveHashed(seed, nameHash(name), out);
}

/** `deriveInto` with the name's hash already taken: splitmix32 four times, inline (no garbage). */
function deriveHashed(seed: number, hash: number, out: StreamState): StreamState {
  let x = (seed ^ Math.imul(hash, 0x27d4eb2f)) | 0;
  for (let i = 0; i < 4; i++) {
    x = (x + 0x9e3779b9) | 0;
    let z = x;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    z ^= z >>> 16;
    out[i] = z >>> 0;
  }
  if ((out[0] | out[1] | out[2] | out[3]) === 0) out[0] = 1; // xoshiro must not start at all-zero
  return out;
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/** Next raw 32-bit unsigned value of stream `name`; advances the stream in place. */
export function nextU32(rng: RngState, name: string): number {
  return nextWord(streamOf(rng, name));
}

/** Stream `name`'s state, made from the seed on its first use. */
function streamOf(rng: RngState, name: string): StreamState {
  let s = rng.streams[name];
  if (s === undefined) {
    s = deriveStream(rng.seed, name);
    rng.streams[name] = s;
  }
  return s;
}

/** xoshiro128** one step: the next raw 32-bit unsigned value of the stream state `s`, advanced in place. */
function nextWord(s: StreamState): number {
  const result = Math.imul(rotl(Math.imul(s[1], 5), 7), 9) >>> 0;
  const t = s[1] << 9;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 11);
  // keep the stored words as unsigned so the JSON form is stable
  s[0] >>>= 0;
  s[1] >>>= 0;
  s[2] >>>= 0;
  s[3] >>>= 0;
  return result;
}

/** Uniform integer in [0, n), without modulo bias. */
export function nextInt(rng: RngState, name: string, n: number): number {
  checkBound(n); // before the stream is made: a refused bound leaves the state as it was
  return intFromWords(streamOf(rng, name), n);
}

function checkBound(n: number): void {
  if (!Number.isInteger(n) || n <= 0 || n > 0x100000000) throw new RangeError(`nextInt bound ${n}`);
}

/** `nextInt` on a stream state already looked up, its bound already checked. */
function intFromWords(s: StreamState, n: number): number {
  const limit = 0x100000000 - (0x100000000 % n);
  for (;;) {
    const v = nextWord(s);
    if (v < limit) return v % n;
  }
}

/** Uniform integer in [lo, hi] inclusive. */
export function nextRange(rng: RngState, name: string, lo: number, hi: number): number {
  return lo + nextInt(rng, name, hi - lo + 1);
}

/** Fisher–Yates shuffle in place. */
export function shuffleInPlace<T>(rng: RngState, name: string, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = nextInt(rng, name, i + 1);
    const t = items[i];
    items[i] = items[j];
    items[j] = t;
  }
  return items;
}

/**
 * A small self-contained generator for agents and tools (kept outside game state): one stream,
 * (seed, name) as `nextU32(createRng(seed), name)` draws it.
 */
export class SeededRandom {
  /**
   * The stream's generator words, held directly: a draw is then a field load, not a look-up of the
   * stream by name (a keyed load V8 cannot specialise), and the draw methods stay small enough for
   * V8 to inline them into a playout's loop.
   */
  private readonly words: StreamState = [0, 0, 0, 0];
  private readonly hash: number;
  private seed: number;
  /** Set by reseed: the words are derived again on the first draw (an agent that draws nothing pays nothing). */
  private stale = true;
  constructor(seed: number, stream = 'agent') {
    this.seed = seed >>> 0;
    this.hash = nameHash(stream);
  }
  /**
   * Start over as `new SeededRandom(seed)` would, keeping this object: a runner hands each decision
   * a fresh stream, and reseeding one generator per seat spares an allocation per decision.
   */
  reseed(seed: number): this {
    this.seed = seed >>> 0;
    this.stale = true;
    return this;
  }
  /** Out of line, so the draw methods that test `stale` stay small. */
  private derive(): void {
    deriveHashed(this.seed, this.hash, this.words);
    this.stale = false;
  }
  u32(): number {
    if (this.stale) this.derive();
    return nextWord(this.words);
  }
  int(n: number): number {
    checkBound(n);
    if (this.stale) this.derive();
    return intFromWords(this.words, n);
  }
  float(): number {
    return this.u32() / 0x100000000;
  }
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list');
    return items[this.int(items.length)];
  }
}
