import type { CurveSegment, TradeType } from '../protocols/PoolProtocol.ts';
import { type Pool, protocolOf } from '../protocols/registry.ts';
import { heldAt } from './nativePools.ts';
import type { PricedPath } from './priceRoutes.ts';

/*
 * A path's exact-input curve in floating point, for steering the split search (equalise.ts): never a returned amount.
 * Each pool's curve is constant product per segment (PoolProtocol.curveSegments), and constant-product curves
 * through the origin compose into one: a1 t / (b1 + t) into a2 s / (b2 + s) is (a1 a2 / (a1 + b2)) t /
 * (b1 b2 / (a1 + b2) + t). So a path is a list of pieces, each `alpha t / (beta + t)` more output for t more input,
 * cut wherever one of its pools crosses into its next segment: the marginal rate at t is alpha beta / (beta + t)^2,
 * and the input at which it falls to λ is sqrt(alpha beta / λ) - beta, in closed form.
 */

/** A pool's curve in one direction, its segments produced as far as asked (pools are immutable: kept per pool). */
export class PoolCurve {
  private readonly segments: CurveSegment[] = [];
  /** Each segment's rate at its start (a / b), kept beside it: surplusAt's scans compare these, not divisions. */
  private readonly rates: number[] = [];
  private next: (() => CurveSegment | undefined) | undefined;

  constructor(next: () => CurveSegment | undefined) {
    this.next = next;
  }

  /** Segment i, or undefined past the pool's known state. */
  segment(i: number): CurveSegment | undefined {
    while (this.segments.length <= i && this.next) {
      const s = this.next();
      if (s) {
        this.segments.push(s);
        this.rates.push(s.a / s.b);
      } else this.next = undefined;
    }
    return this.segments[i];
  }

  /** Input and output from the curve's start to each segment's start, as far as outputAt has read (x[k], y[k]). */
  private readonly x: number[] = [0];
  private readonly y: number[] = [0];

  /** Adds the next segment's end to x and y; false past the pool's known state. */
  private readNext(): boolean {
    const n = this.x.length - 1;
    const s = this.segment(n);
    if (!s) return false;
    this.x.push(this.x[n] + s.len);
    this.y.push(this.y[n] + (s.len === Number.POSITIVE_INFINITY ? s.a : (s.a * s.len) / (s.b + s.len)));
    return true;
  }

  /**
   * The pool's float output for an input t: its segments' outputs up to t (a segment pays a d / (b + d) for d of its
   * input); past its known state, all of it.
   */
  outputAt(t: number): number {
    if (!(t > 0)) return 0;
    const { x, y } = this;
    let n = x.length - 1;
    while (x[n] < t) {
      if (!this.readNext()) return y[n];
      n++;
    }
    // The segment t falls in: the last whose start is below t.
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (x[mid] < t) lo = mid;
      else hi = mid - 1;
    }
    const s = this.segments[lo];
    const d = t - x[lo];
    return y[lo] + (s.a * d) / (s.b + d);
  }

  /**
   * The most the pool adds at a marginal rate μ: max over inputs d of (output(d) − μ d), where its marginal rate
   * falls to μ (a segment's rate falls from a / b, to μ at sqrt(a b / μ) − b), or where its known state ends.
   */
  surplusAt(mu: number): number {
    const { x, y, rates } = this;
    // Read on while the last segment read starts above μ (the segments' start rates do not increase).
    let n = x.length - 1;
    for (;;) {
      if (n > 0 && !(rates[n - 1] > mu)) break;
      if (x[n] === Number.POSITIVE_INFINITY || !this.readNext()) break;
      n++;
    }
    // The last segment starting above μ.
    let k = -1;
    for (let lo = 0, hi = n - 1; lo <= hi; ) {
      const mid = (lo + hi) >> 1;
      if (rates[mid] > mu) {
        k = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (k < 0) return 0;
    const s = this.segments[k];
    const d = Math.min(Math.max(0, Math.sqrt((s.a * s.b) / mu) - s.b), s.len);
    const out = y[k] + (d === Number.POSITIVE_INFINITY ? s.a : (s.a * d) / (s.b + d));
    return out - mu * (x[k] + d);
  }
}

/**
 * What is kept per pool of its curves (PoolCurve, or facts read from one), by curve: by direction, and by trade side
 * only where the protocol's curve depends on it (PoolProtocol.curveBySide); otherwise both sides share the exact-input
 * one. `make` is given the direction and the side whose curve it reads (pools are immutable: kept for the pool's life).
 */
export class PerCurve<T> {
  private readonly kept = new WeakMap<Pool, (T | undefined)[]>();

  constructor(private readonly make: (pool: Pool, zeroForOne: boolean, tradeType: TradeType) => T) {}

  get(pool: Pool, zeroForOne: boolean, tradeType: TradeType): T {
    let slots = this.kept.get(pool);
    if (!slots) {
      slots = [undefined, undefined, undefined, undefined];
      this.kept.set(pool, slots);
    }
    const bySide = tradeType === 'exactOut' && protocolOf(pool.kind).curveBySide;
    const slot = (zeroForOne ? 0 : 1) + (bySide ? 2 : 0);
    let value = slots[slot];
    if (value === undefined) {
      value = this.make(pool, zeroForOne, bySide ? 'exactOut' : 'exactIn');
      slots[slot] = value;
    }
    return value;
  }
}

const poolCurves = new PerCurve(
  (pool, zeroForOne, tradeType) => new PoolCurve(protocolOf(pool.kind).curveSegments(pool, zeroForOne, tradeType)),
);

/** A pool's curve in one direction, as a search of `tradeType` reads it, kept per pool. */
function poolCurve(pool: Pool, zeroForOne: boolean, tradeType: TradeType): PoolCurve {
  return poolCurves.get(pool, zeroForOne, tradeType);
}

/** pathPoolCurves' lists, per path and side. */
const pathPoolLists = new WeakMap<PricedPath, [exactIn?: readonly PoolCurve[], exactOut?: readonly PoolCurve[]]>();

/**
 * A path's pools' curves hop by hop, in its directions (a native ETH pool at the wrapped token's node holds ETH there:
 * heldAt), as a search of `tradeType` reads them: kept per path and side (its pools do not change), so a path's curve
 * and bounds look them up once per path, not once per hop in every search.
 */
export function pathPoolCurves(path: PricedPath, tradeType: TradeType): readonly PoolCurve[] {
  let sides = pathPoolLists.get(path);
  if (!sides) {
    sides = [undefined, undefined];
    pathPoolLists.set(path, sides);
  }
  const side = tradeType === 'exactIn' ? 0 : 1;
  let curves = sides[side];
  if (!curves) {
    curves = path.pools.map((pool, h) => poolCurve(pool, heldAt(pool, path.path.tokens[h]) === pool.token0, tradeType));
    sides[side] = curves;
  }
  return curves;
}

/** A path's curve: piece k starts at input x[k] with output y[k]; t more input within it gives alpha t / (beta + t). */
export interface PathCurve {
  readonly x: number[];
  readonly y: number[];
  readonly alpha: number[];
  readonly beta: number[];
  readonly len: number[];
  /** Marginal rate at the start of each piece (alpha / beta), non-increasing. */
  readonly rate: number[];
  /** Initialized ticks the path's pools cross before each piece starts (CurveSegment.ticks). */
  readonly ticks: number[];
  /** Where the last piece ends: the path's capacity when `capped` (its pools' known state ends), else past the limits asked for. */
  readonly endX: number;
  readonly endY: number;
  readonly capped: boolean;
}

/** Most pieces built for one path (a guard: the limits end the walk long before). */
const MAX_PIECES = 4096;
/** Share of a capped path's float capacity left unused (floats are not exact at its edge). */
const CAPACITY_MARGIN = 1e-9;

/**
 * pathCurve's working arrays, reused by every call (it is synchronous and not re-entered): a curve's pieces are written
 * here and copied once into arrays of their final length, and the per-hop state lives here too, instead of arrays
 * grown piece by piece and made afresh per call, whose garbage was a fifth of what a search allocates (collections in
 * the middle of a search are its wall-time tail).
 */
const work = {
  x: [0],
  y: [0],
  alpha: [0],
  beta: [0],
  len: [0],
  rate: [0],
  ticks: [0],
  /** Per hop: its pool's curve, the index of the segment it is in, the input into that segment, the path's curve before it. */
  curves: [] as (PoolCurve | undefined)[],
  /** Per hop: the segment it is in (its curve's segment k), read once per piece rather than asked of the curve. */
  segs: [] as (CurveSegment | undefined)[],
  k: [0],
  o: [0],
  pa: [0],
  pb: [0],
};

/**
 * The curve of a path (tokens in swap order) from its pools' current state as a search of `tradeType` reads them,
 * built until its input reaches `limitIn` or its output `limitOut` (the trade's fixed amount on its side), or its
 * pools' known state ends.
 */
export function pathCurve(path: PricedPath, tradeType: TradeType, limitIn: number, limitOut: number): PathCurve {
  const n = path.pools.length;
  // A path of stages: a hop that takes the previous stage's minimum takes its output times (1 - slippage) (pricePath).
  const kept = handoverShares(path);
  const { curves, segs, k, o, pa, pb } = work;
  const hops = pathPoolCurves(path, tradeType);
  let capped = false;
  for (let h = 0; h < n; h++) {
    const curve = hops[h];
    curves[h] = curve;
    segs[h] = curve.segment(0);
    k[h] = 0;
    o[h] = 0;
    pa[h] = 0;
    pb[h] = 0;
    if (segs[h] === undefined) capped = true;
  }
  let pieces = 0;
  let ticks = 0;
  let x = 0;
  let y = 0;
  while (!capped && pieces < MAX_PIECES) {
    let alpha = 0;
    let beta = 0;
    let t = Number.POSITIVE_INFINITY;
    let limiting = -1;
    for (let h = 0; h < n; h++) {
      const s = segs[h]!;
      if (kept && kept[h] !== 1) alpha *= kept[h];
      const a = (s.a * s.b) / (s.b + o[h]);
      const b = s.b + o[h];
      const left = s.len - o[h];
      // The path input at which this hop's input reaches the end of its segment (through the hops before it).
      const th = h === 0 ? left : left < alpha ? (beta * left) / (alpha - left) : Number.POSITIVE_INFINITY;
      if (th < t) {
        t = th;
        limiting = h;
      }
      pa[h] = alpha;
      pb[h] = beta;
      if (h === 0) {
        alpha = a;
        beta = b;
      } else {
        const d = alpha + b;
        alpha = (alpha * a) / d;
        beta = (beta * b) / d;
      }
    }
    if (t > 0) {
      work.x[pieces] = x;
      work.y[pieces] = y;
      work.alpha[pieces] = alpha;
      work.beta[pieces] = beta;
      work.len[pieces] = t;
      work.rate[pieces] = alpha / beta;
      work.ticks[pieces] = ticks;
      pieces++;
    }
    if (!Number.isFinite(t)) {
      x = t;
      y += alpha;
      break;
    }
    for (let h = 0; h < n; h++) {
      const s = segs[h]!;
      o[h] += h === 0 ? t : (pa[h] * t) / (pb[h] + t);
      if (h === limiting || o[h] >= s.len) {
        ticks += s.ticks;
        k[h]++;
        o[h] = 0;
        const next = curves[h]!.segment(k[h]);
        if (next === undefined) capped = true;
        else segs[h] = next;
      }
    }
    x += t;
    y += (alpha * t) / (beta + t);
    if (x >= limitIn || y >= limitOut) break;
  }
  // The pool curves stay reachable from their pools only (a loop: fill is a runtime call, dearer for a few hops).
  for (let h = 0; h < n; h++) {
    curves[h] = undefined;
    segs[h] = undefined;
  }
  if (capped && pieces > 0) {
    // Kept a billionth short of where the float walk says the known state ends, so exact prices stay inside it.
    const last = pieces - 1;
    work.len[last] = Math.max(0, work.len[last] - x * CAPACITY_MARGIN);
    x = work.x[last] + work.len[last];
    y = work.y[last] + (work.alpha[last] * work.len[last]) / (work.beta[last] + work.len[last]);
  }
  return {
    x: work.x.slice(0, pieces),
    y: work.y.slice(0, pieces),
    alpha: work.alpha.slice(0, pieces),
    beta: work.beta.slice(0, pieces),
    len: work.len.slice(0, pieces),
    rate: work.rate.slice(0, pieces),
    ticks: work.ticks.slice(0, pieces),
    endX: x,
    endY: y,
    capped,
  };
}

/**
 * A path's marginal rate at input 0 (tokens out per token in, fees included) from its pools' first segments, without
 * building its curve: the product of each pool's a / b (the first piece of pathCurve has the same rate). Each
 * segment's rate is at most the one before it, so the path's output for an input t is at most t times this rate (and
 * the input an output y needs at least y over it). 0 when a pool has no segment (its known state carries nothing).
 */
export function pathRateAtZero(path: PricedPath, tradeType: TradeType): number {
  let rate = 1;
  const kept = handoverShares(path);
  // The directions as pathCurve takes them.
  const hops = pathPoolCurves(path, tradeType);
  for (let h = 0; h < path.pools.length; h++) {
    const s = hops[h].segment(0);
    if (!s) return 0;
    rate *= (s.a / s.b) * (kept ? kept[h] : 1);
  }
  return rate;
}

/**
 * Per hop, the share of the previous hop's output it takes: 1 - slippage where a path of stages hands over at the
 * previous stage's minimum (PricedPath.handovers: pricePath floors the output times that), else 1; undefined for a
 * path without hand-overs.
 */
export function handoverShares(path: PricedPath): number[] | undefined {
  if (!path.handovers) return undefined;
  const share = 1 - path.handovers.slippageBps / 10_000;
  return path.pools.map((_p, h) => (path.handovers!.at.includes(h) ? share : 1));
}

/** The marginal rate of the curve at input 0 (0 for a curve without pieces). */
export function rateAtZero(c: PathCurve): number {
  return c.rate.length > 0 ? c.rate[0] : 0;
}

/** The piece in which the curve's marginal rate falls to λ: the last whose start rate exceeds it (-1: none). */
export function pieceAt(c: PathCurve, lambda: number): number {
  let lo = -1;
  let hi = c.rate.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (c.rate[mid] > lambda) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The most a path can add at a common marginal rate λ: max over inputs t of (output(t) - λ t), reached where its
 * marginal rate falls to λ (or at its end). A set of paths whose optimum has marginal rate λ, given this path as well,
 * gains at most this much output for the same input (its value is concave: the input taken from it loses at least λ
 * per unit); for the same output, it saves at most this over λ of input.
 */
export function surplusAt(c: PathCurve, lambda: number): number {
  const k = pieceAt(c, lambda);
  if (k < 0) return 0;
  const alpha = c.alpha[k];
  const beta = c.beta[k];
  const t = Math.min(Math.max(0, Math.sqrt((alpha * beta) / lambda) - beta), c.len[k]);
  const x = c.x[k] + t;
  return x === Number.POSITIVE_INFINITY ? Number.POSITIVE_INFINITY : c.y[k] + (alpha * t) / (beta + t) - lambda * x;
}

/** The piece an input falls in (the last piece beyond the curve's end; 0 for input 0). */
function pieceOf(c: PathCurve, input: number): number {
  let lo = 0;
  let hi = c.x.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (c.x[mid] <= input) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Initialized ticks the path's pools cross for an input (as far as the curve knows them). */
export function ticksAt(c: PathCurve, input: number): number {
  return c.x.length === 0 || input <= 0 ? 0 : c.ticks[pieceOf(c, input)];
}

/** Output of the curve for an input (clamped to where the curve ends). */
export function outputAt(c: PathCurve, input: number): number {
  if (c.x.length === 0 || input <= 0) return 0;
  const lo = pieceOf(c, input);
  const t = Math.min(input - c.x[lo], c.len[lo]);
  return c.y[lo] + (c.alpha[lo] * t) / (c.beta[lo] + t);
}

/**
 * Input the curve needs for an output (Infinity beyond where the curve ends): the inverse of outputAt within the
 * piece the output falls in, y = y[k] + alpha t / (beta + t).
 */
export function inputFor(c: PathCurve, output: number): number {
  if (output <= 0) return 0;
  if (c.x.length === 0 || output > c.endY) return Number.POSITIVE_INFINITY;
  let lo = 0;
  let hi = c.y.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (c.y[mid] <= output) lo = mid;
    else hi = mid - 1;
  }
  const rest = output - c.y[lo];
  const t = rest >= c.alpha[lo] ? Number.POSITIVE_INFINITY : (c.beta[lo] * rest) / (c.alpha[lo] - rest);
  return c.x[lo] + Math.min(t, c.len[lo]);
}
