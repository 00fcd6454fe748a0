import { AmmError } from './ammError.ts';
import { countAtOrBelow } from './countAtOrBelow.ts';
import { addDelta, UINT128_LIMIT } from './liquidityMath.ts';
import { getAmount0Delta, getAmount1Delta } from './sqrtPriceMath.ts';
import { MAX_FEE } from './swapMath.ts';
import { getSqrtRatioAtTick, MAX_TICK, MIN_TICK } from './tickMath.ts';

/**
 * The swap step that crosses a whole range, computed when the tick source was built. It is exactly what
 * SwapMath.computeSwapStep returns for (sqrtPriceStartX96 -> the boundary's sqrt price, liquidity) whenever the
 * step reaches the boundary, so the swap loop may use it instead of recomputing, after checking that its state
 * matches (same start price and liquidity) and that the remaining amount covers the whole range.
 */
export interface PrecomputedStep {
  /** Price the step starts from: the previous boundary in the walking direction. */
  readonly sqrtPriceStartX96: bigint;
  /** Liquidity in the range. */
  readonly liquidity: bigint;
  /** Input consumed to reach the boundary, fee excluded (rounded up). */
  readonly amountIn: bigint;
  /** Output received (rounded down). */
  readonly amountOut: bigint;
  /** mulDivRoundingUp(amountIn, feePips, 1e6 - feePips). */
  readonly feeAmount: bigint;
  /** amountIn + feeAmount: what the step costs the swapper. */
  readonly amountInPlusFee: bigint;
  /** Smallest exact-input remaining amount R with mulDiv(R, 1e6 - feePips, 1e6) >= amountIn. */
  readonly minAmountRemaining: bigint;
  /** Liquidity after crossing the boundary (liquidityNet applied if initialized). */
  readonly liquidityAfter: bigint;
}

/** A tick that nextInitializedTickWithinOneWord can return, with what the swap loop needs about it. */
export interface TickBoundary {
  /** The tick as TickBitmap.nextInitializedTickWithinOneWord returns it (not clamped to MIN_TICK / MAX_TICK). */
  readonly tick: number;
  /** Whether the tick is initialized (otherwise it is the edge of a bitmap word). */
  readonly initialized: boolean;
  /** Tick.Info.liquidityNet (0 when not initialized). */
  readonly liquidityNet: bigint;
  /** getSqrtRatioAtTick of the tick clamped to [MIN_TICK, MAX_TICK]. */
  readonly sqrtPriceX96: bigint;
  /** The full crossing of the range that ends at this boundary in the direction of the lookup, if known. */
  readonly step: PrecomputedStep | null;
}

/** Tick storage seen by the swap loop. */
export interface TickSource {
  /**
   * TickBitmap.nextInitializedTickWithinOneWord (v3-core): the next initialized tick at or below `tick` (lte) or
   * above it (!lte) within the same bitmap word, or that word's edge; undefined when that word is not known.
   * Returns records allocated up front: the caller must not mutate them.
   */
  nextInitializedTickWithinOneWord(tick: number, lte: boolean): TickBoundary | undefined;
}

/** What a tick source needs to know about a pool. */
export interface TickWindowData {
  readonly tick: number;
  readonly liquidity: bigint;
  readonly tickSpacing: number;
  /** Fee in pips, used to precompute whole-range steps. */
  readonly fee: number;
  /** Initialized ticks, ascending: [tick, liquidityNet]. */
  readonly ticks: ReadonlyArray<readonly [number, bigint]>;
  /** Inclusive range of known tickBitmap words (compressed tick >> 8). */
  readonly bitmapWords: readonly [number, number];
}

function lastAtOrBelow(sorted: Int32Array, tick: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (sorted[mid] <= tick) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function firstAbove(sorted: Int32Array, tick: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] > tick) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function freezeStep(step: PrecomputedStep | null): PrecomputedStep | null {
  return step === null ? null : Object.freeze(step);
}

function clampTick(tick: number): number {
  return tick < MIN_TICK ? MIN_TICK : tick > MAX_TICK ? MAX_TICK : tick;
}

interface Draft {
  tick: number;
  initialized: boolean;
  liquidityNet: bigint;
  sqrtPriceX96: bigint;
  step: PrecomputedStep | null;
}

/**
 * A TickSource over the initialized ticks of a window of tickBitmap words (what a snapshot knows). Every
 * boundary the swap loop can meet inside the window (initialized ticks and word edges, per direction) is
 * built once with its sqrt price and the precomputed whole-range step leading to it. Immutable.
 */
export class WindowTickSource implements TickSource {
  readonly tickSpacing: number;
  /** Known word range after clamping to the words that hold valid ticks; firstWord > lastWord when empty. */
  readonly firstWord: number;
  readonly lastWord: number;
  private readonly downTicks: Int32Array;
  private readonly down: readonly TickBoundary[];
  private readonly upTicks: Int32Array;
  private readonly up: readonly TickBoundary[];

  constructor(data: TickWindowData) {
    const s = data.tickSpacing;
    this.tickSpacing = s;
    const minWord = Math.floor(MIN_TICK / s) >> 8;
    const maxWord = Math.floor(MAX_TICK / s) >> 8;
    this.firstWord = Math.max(data.bitmapWords[0], minWord);
    this.lastWord = Math.min(data.bitmapWords[1], maxWord);
    const n = data.ticks.length;
    const ticks = new Int32Array(n);
    const nets: bigint[] = new Array(n);
    for (let i = 0; i < n; i++) {
      const [t, net] = data.ticks[i];
      if (!Number.isInteger(t) || t % s !== 0 || t < MIN_TICK || t > MAX_TICK || (i > 0 && t <= ticks[i - 1])) {
        throw new AmmError('INVALID_POOL_STATE', `ticks: ${t} is not an ascending multiple of ${s} in the tick range`);
      }
      const word = (t / s) >> 8;
      if (word < this.firstWord || word > this.lastWord) {
        throw new AmmError('INVALID_POOL_STATE', `ticks: ${t} lies outside the known bitmap words`);
      }
      ticks[i] = t;
      nets[i] = net;
    }
    // Liquidity in the range containing tick x: current liquidity plus the nets crossed between pool tick and x.
    const prefix: bigint[] = new Array(n + 1);
    prefix[0] = 0n;
    for (let i = 0; i < n; i++) prefix[i + 1] = prefix[i] + nets[i];
    const base = data.liquidity - prefix[countAtOrBelow(ticks, data.tick, n)];
    const liquidityAt = (x: number): bigint => base + prefix[countAtOrBelow(ticks, x, n)];
    const fee = BigInt(data.fee);
    const sqrtCache = new Map<number, bigint>();
    const sqrtAt = (t: number): bigint => {
      const c = clampTick(t);
      let v = sqrtCache.get(c);
      if (v === undefined) {
        v = getSqrtRatioAtTick(c);
        sqrtCache.set(c, v);
      }
      return v;
    };
    const merge = (edges: number[]): Draft[] => {
      const out: Draft[] = [];
      let i = 0;
      let j = 0;
      while (i < n || j < edges.length) {
        if (j >= edges.length || (i < n && ticks[i] <= edges[j])) {
          if (j < edges.length && ticks[i] === edges[j]) j++;
          out.push({ tick: ticks[i], initialized: true, liquidityNet: nets[i], sqrtPriceX96: sqrtAt(ticks[i]), step: null });
          i++;
        } else {
          out.push({ tick: edges[j], initialized: false, liquidityNet: 0n, sqrtPriceX96: sqrtAt(edges[j]), step: null });
          j++;
        }
      }
      return out;
    };
    const wordStarts: number[] = [];
    const wordEnds: number[] = [];
    for (let w = this.firstWord; w <= this.lastWord; w++) {
      wordStarts.push(w * 256 * s);
      wordEnds.push((w * 256 + 255) * s);
    }
    const precompute = (
      start: bigint,
      target: bigint,
      liquidity: bigint,
      zeroForOne: boolean,
      crossedNet: bigint,
    ): PrecomputedStep | null => {
      // A 100% fee (v4) reaches a boundary only through an empty range: left to computeSwapStep.
      if (liquidity < 0n || liquidity >= UINT128_LIMIT || fee === MAX_FEE) return null;
      let liquidityAfter: bigint;
      try {
        liquidityAfter = addDelta(liquidity, crossedNet);
      } catch {
        return null; // let the swap loop hit the revert itself
      }
      const amountIn = zeroForOne ? getAmount0Delta(target, start, liquidity, true) : getAmount1Delta(start, target, liquidity, true);
      const amountOut = zeroForOne ? getAmount1Delta(target, start, liquidity, false) : getAmount0Delta(start, target, liquidity, false);
      const d = MAX_FEE - fee;
      const feeAmount = (amountIn * fee + d - 1n) / d;
      const minAmountRemaining = (amountIn * MAX_FEE + d - 1n) / d;
      return {
        sqrtPriceStartX96: start,
        liquidity,
        amountIn,
        amountOut,
        feeAmount,
        amountInPlusFee: amountIn + feeAmount,
        minAmountRemaining,
        liquidityAfter,
      };
    };
    // Walking down (lte): boundaries are initialized ticks and word starts; the range ending at down[k] starts at down[k+1].
    const down = merge(wordStarts);
    for (let k = 0; k + 1 < down.length; k++) {
      const above = down[k + 1];
      const b = down[k];
      b.step = freezeStep(
        precompute(above.sqrtPriceX96, b.sqrtPriceX96, liquidityAt(above.tick - 1), true, b.initialized ? -b.liquidityNet : 0n),
      );
    }
    // Walking up (!lte): boundaries are initialized ticks and word ends; the range ending at up[k] starts at up[k-1].
    const up = merge(wordEnds);
    for (let k = 1; k < up.length; k++) {
      const below = up[k - 1];
      const b = up[k];
      b.step = freezeStep(
        precompute(below.sqrtPriceX96, b.sqrtPriceX96, liquidityAt(below.tick), false, b.initialized ? b.liquidityNet : 0n),
      );
    }
    this.down = down.map((d) => Object.freeze({ ...d }));
    this.up = up.map((d) => Object.freeze({ ...d }));
    this.downTicks = Int32Array.from(down, (d) => d.tick);
    this.upTicks = Int32Array.from(up, (d) => d.tick);
    Object.freeze(this);
  }

  nextInitializedTickWithinOneWord(tick: number, lte: boolean): TickBoundary | undefined {
    const compressed = Math.floor(tick / this.tickSpacing);
    if (lte) {
      const word = compressed >> 8;
      if (word < this.firstWord || word > this.lastWord) return undefined;
      return this.down[lastAtOrBelow(this.downTicks, tick)];
    }
    const word = (compressed + 1) >> 8;
    if (word < this.firstWord || word > this.lastWord) return undefined;
    return this.up[firstAbove(this.upTicks, tick)];
  }
}
