/**
 * Exact integer arithmetic in double-double floats (a value is hi + lo, two doubles, hi the nearest double to it), for
 * Balancer's fixed-point math where bigint is slow: src/amm/balancerPowFloat.ts and balancerLnFloat.ts (LogExpMath's
 * ln and exp; their loops write these steps out on local variables, operation for operation) and
 * src/protocols/balancerWeighted/weightedFloat.ts (the rest of a weighted quote). An integer below 2^106 is exact as
 * a pair; sums of such integers below 2^100 are exact (add); a product or a quotient errs by at most 15u^2 = 15 *
 * 2^-106 relative (Joldes, Muller and Popescu, "Tight and rigorous error bounds for basic building blocks of
 * double-word arithmetic", 2017). A truncating division floor(a * b / c) of the contracts is taken as the floor of
 * such a quotient q only where q is farther than 2^-92 * |q| (plus a slack the caller states) from an integer, which
 * covers up to 4 operations between exact integers (60u^2 < 2^-100): then the floor of the real quotient is the floor
 * of q. Otherwise the operation reports false and the caller takes its bigint path. Results go to the registers R.
 */

const U2_92 = 2 ** -92;
const U2_84 = 2 ** 84;
const U2_31 = 2 ** 31;
const U2_32 = 2 ** 32;
const U2_64 = 2 ** 64;
const U2_M32 = 2 ** -32;
const U2_M64 = 2 ** -64;
/** 2^27 + 1, Veltkamp's split (mul's; the steps balancerPowFloat.ts and balancerLnFloat.ts write out on locals use it). */
export const SPLITTER = 134217729;

/**
 * The result registers of the double-double operations below (hi, lo): a Float64Array, as doubles written to module
 * variables would each be boxed.
 */
export const R = new Float64Array(2);

/** Two 64-bit words and their 32-bit halves, for load's residue and stored's results (low word first). */
const WORD64 = new BigUint64Array(2);
const WORDS32 = new Uint32Array(WORD64.buffer);
/** The index of the low half (the platform's byte order). */
const LOW_WORD = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 0 : 1;

/** An exact bigint below 2^106 as a normalized double-double. */
export function dd(v: bigint): [number, number] {
  const h = Number(v);
  return [h, Number(v - BigInt(h))];
}

/** (ah + al) * (bh + bl), Dekker's product (no fused multiply-add in JavaScript), relative error below 8u^2. */
export function mul(ah: number, al: number, bh: number, bl: number): void {
  const p = ah * bh;
  let t = SPLITTER * ah;
  const ahh = t - (t - ah);
  const ahl = ah - ahh;
  t = SPLITTER * bh;
  const bhh = t - (t - bh);
  const bhl = bh - bhh;
  const e = ahh * bhh - p + ahh * bhl + ahl * bhh + ahl * bhl;
  const c = e + (ah * bl + al * bh);
  const h = p + c;
  R[0] = h;
  R[1] = c - (h - p);
}

/**
 * (ah + al) / (bh + bl), Joldes et al.'s DWDivDW2, relative error below 15u^2. Its product (b * th) is mul's,
 * written out here (th's low part 0): V8 inlines a bounded amount of code into each optimized function, and div with
 * mul inlined into it was left out of the longest callers (each call then boxes its four doubles).
 */
export function div(ah: number, al: number, bh: number, bl: number): void {
  const th = ah / bh;
  const p = bh * th;
  let t = SPLITTER * bh;
  const bhh = t - (t - bh);
  const bhl = bh - bhh;
  t = SPLITTER * th;
  const thh = t - (t - th);
  const thl = th - thh;
  const c = bhh * thh - p + bhh * thl + bhl * thh + bhl * thl + bl * th;
  const ph = p + c;
  const d = ah - ph + (al - (c - (ph - p)));
  const tl = d / bh;
  const h = th + tl;
  R[0] = h;
  R[1] = tl - (h - th);
}

/** (h + l) * 100 into (R[0], R[1]), exact for an integer below 2^64 (LogExpMath's 18 -> 20 decimal step). */
export function times100(h: number, l: number): void {
  const p = h * 100;
  const t = SPLITTER * h;
  const hh = t - (t - h);
  const e = hh * 100 - p + (h - hh) * 100 + l * 100;
  const r = p + e;
  R[0] = r;
  R[1] = e - (r - p);
}

/** Exact sum of two double-double integers whose sum is below 2^100 (every rounding below is of an exact integer). */
export function add(ah: number, al: number, bh: number, bl: number): void {
  const s = ah + bh;
  const v = s - ah;
  const sl = ah - (s - v) + (bh - v);
  const c = sl + al + bl;
  const h = s + c;
  R[0] = h;
  R[1] = c - (h - s);
}

/**
 * The floor of a double-double quotient (hi, lo) within 2^-92 relative (plus `slack`) of the real quotient, as an exact
 * integer in (R[0], R[1]); false where the real quotient may lie on the other side of an integer. A quotient of 0 is exact
 * (a zero operand), so its floor is 0.
 */
export function floorOf(qh: number, ql: number, slack = 0, relative = U2_92): boolean {
  let fh = Math.floor(qh);
  let fl = 0;
  let frac: number;
  if (fh === qh) {
    fl = Math.floor(ql);
    frac = ql - fl;
  } else {
    frac = qh - fh + ql;
    if (frac < 0) {
      fh -= 1;
      frac += 1;
    } else if (frac >= 1) {
      fh += 1;
      frac -= 1;
    }
  }
  const eps = slack + Math.abs(qh) * relative;
  if (frac < eps || frac > 1 - eps) return false;
  const h = fh + fl;
  R[0] = h;
  R[1] = fl - (h - fh);
  return true;
}

/**
 * floor(k / d) for an integer k and a positive integer d from a quotient within 2^-92 relative of k / d, where that error
 * is below 1 / (4d): k / d lies on an integer or at least 1 / d above one, so k / d + 1 / (2d) is at least 1 / (2d) from
 * every integer and its floor is floor(k / d). (floorOf would give up on every exact quotient.)
 */
export function floorOfRatio(qh: number, ql: number, d: number, relative = U2_92): boolean {
  return floorOf(qh, ql + 0.5 / d, 0, relative);
}

/** Truncation toward zero (Solidity's signed division) of a quotient, as floorOf. */
export function truncOf(qh: number, ql: number, slack = 0, relative = U2_92): boolean {
  if (qh >= 0) return floorOf(qh, ql, slack, relative);
  if (!floorOf(-qh, -ql, slack, relative)) return false;
  R[0] = -R[0];
  R[1] = -R[1];
  return true;
}

/**
 * The ceiling of a quotient as floorOf decides floors: where floorOf answers for a quotient other than 0, the real
 * quotient is not an integer, so its ceiling is its floor + 1 (a quotient of 0, exact, is its own ceiling).
 */
export function ceilOf(qh: number, ql: number, relative = U2_92): boolean {
  if (qh === 0) {
    R[0] = 0;
    R[1] = 0;
    return true;
  }
  if (!floorOf(qh, ql, 0, relative)) return false;
  add(R[0], R[1], 1, 0);
  return true;
}

/**
 * ceil(k / d) from a quotient as floorOfRatio takes it, given half = 1 / (2d): -floor(-k / d). With half 0 (no small
 * denominator known) the ceiling as ceilOf decides it (floorOf's margin is symmetric).
 */
export function ceilOfRatio(qh: number, ql: number, half: number, relative = U2_92): boolean {
  if (!floorOf(-qh, half - ql, 0, relative)) return false;
  R[0] = -R[0];
  R[1] = -R[1];
  return true;
}

/**
 * 1 / d (a positive integer, at most 2^106) as a double-double within 15u^2 relative: a division by a constant is
 * taken as a product by it, one more error of that size on a quotient (the margins above leave room for dozens).
 */
export function reciprocal(d: bigint | number): [number, number] {
  const [h, l] = typeof d === 'number' ? [d, 0] : dd(d);
  div(1, 0, h, l);
  return [R[0], R[1]];
}

/**
 * A bigint v with |v| < 2^106 into (R[0], R[1]), exact. Below 2^84 in magnitude from two conversions and no bigint
 * arithmetic: h = Number(v), the nearest double (a multiple of ulp(h) <= 2^31, so h mod 2^32 is exact in doubles), and
 * v mod 2^32 (the low word of v stored into a BigUint64Array, which takes v modulo 2^64: no bigint allocated, about
 * 1.6x cheaper than BigInt.asUintN and a second Number); the remainder v - h is congruent to their difference modulo
 * 2^32 and at most ulp(h) / 2 <= 2^30 in magnitude, so it is that difference brought into [-2^31, 2^31). Larger v
 * take the nearest double and the remainder (two conversions, one bigint product and one difference).
 */
export function load(v: bigint): void {
  const h = Number(v);
  if (h < U2_84 && h > -U2_84) {
    WORD64[0] = v;
    let e = WORDS32[LOW_WORD] - (h - Math.floor(h * U2_M32) * U2_32);
    if (e >= U2_31) e -= U2_32;
    else if (e < -U2_31) e += U2_32;
    R[0] = h;
    R[1] = e;
    return;
  }
  R[0] = h;
  R[1] = Number(v - BigInt(h));
}

/**
 * The exact normalized integer (R[0], R[1]) as a bigint. From 0 to 2^84 from 64-bit words and without a conversion
 * from a double (BigInt of a double is a runtime call in V8, about as costly as the rest): the low word is read from a
 * BigUint64Array (one bigint) and the top bits, below 2^20, read as the next word and shifted above it. h = R[0] is a
 * multiple of ulp(h) <= 2^31, so top = floor(h / 2^64), rest = h - top * 2^64 (a multiple of ulp(h) below 2^64, at
 * most 53 significant bits from h >= 2^64 on, h itself below), its high word floor(rest / 2^32) and the low remainder
 * are exact, and adding R[1] (an integer of magnitude at most ulp(h) / 2 <= 2^30) to that remainder moves the high word
 * by at most one, and the high word's carry moves top by at most one. Past 2^84: two conversions and their sum.
 */
export function stored(): bigint {
  const h = R[0];
  const l = R[1];
  if (h >= 0 && h < U2_84) {
    let top = Math.floor(h * U2_M64);
    const rest = h - top * U2_64;
    let high = Math.floor(rest * U2_M32);
    let low = rest - high * U2_32 + l;
    if (low < 0) {
      low += U2_32;
      high -= 1;
    } else if (low >= U2_32) {
      low -= U2_32;
      high += 1;
    }
    if (high < 0) {
      high += U2_32;
      top -= 1;
    } else if (high >= U2_32) {
      high -= U2_32;
      top += 1;
    }
    if (top >= 0) {
      WORDS32[LOW_WORD] = low;
      WORDS32[1 - LOW_WORD] = high;
      if (top === 0) return WORD64[0];
      // top read back as a word: BigInt(top) of a double is a runtime call, slower than the typed array's read.
      WORDS32[2 + LOW_WORD] = top;
      WORDS32[3 - LOW_WORD] = 0;
      return (WORD64[1] << 64n) | WORD64[0];
    }
  }
  return l === 0 ? BigInt(h) : BigInt(h) + BigInt(l);
}
