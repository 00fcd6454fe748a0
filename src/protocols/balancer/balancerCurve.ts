/**
 * A Balancer v2 pool's float curve (PoolProtocol.curveSegments): what the split search steers by and what the route
 * search's bounds prune with (pathCurve.ts, poolDepth.ts, stagedRoutes.ts OutputBound, searchCurves.ts scoreBound).
 * Those bounds rule a path out, so the curve must be an UPPER BOUND of the exact math at every input the pool
 * carries, concave (segment rates never increase: surplusAt and the rates at zero read it so), and reach every input
 * the pool carries (a curve that ends says "cannot carry more": -Infinity).
 *
 * Why it is one (docs/balancer.md "The float curve"): a weighted pool's real-valued output
 * Bo (1 - (Bi / (Bi + x (1 - fee)))^(wi/wo)) and a stable pool's (StableMath's invariant, a convex curve) are concave
 * in the input through the origin, and the exact integer math stays below them (every rounding in the pool's favour:
 * fee up, powUp, balance solved up, less one, scaled down) but for a few units of the output (SLACK_UNITS). Both are
 * computed in floats (weightedReal, stableReal) with an error bound, so each sample carries bounds of the real curve
 * there (lo <= f <= hi). For a concave f sampled at x_0 = 0 < x_1 < ..., on [x_j, x_j+1] f lies below the line from
 * (x_j, hi_j) at the previous chord's slope (from lo_j-1 to hi_j; from 0: an upper bound of the marginal rate at zero,
 * rateAtZero) and below the line into (x_j+1, hi_j+1) at the next chord's slope (from hi_j+1 to lo_j+2): below
 * their "tent". The polyline through the tents' peaks lies above every tent and is concave (its
 * slopes are averages of successive chords). Past the last samples: the last tent's first line (a tangent from above),
 * which a stable pool follows until it has paid its whole balance out, then nothing more (a last segment without end:
 * a stable pool carries any input); a weighted pool's ends at its limit and runs on nearly flat (polyline): for an
 * exact-input search its exact-input limit, for an exact-output search the larger of that and the input its
 * exact-output limit asks (a per-side end: PoolProtocol.curveBySide, docs/balancer.md). Samples are added where a tent
 * rises more than TENT_TOLERANCE above its chord, so the curve exceeds the exact output by about that much at most: it
 * steers the split search as the exact curve would.
 *
 * Runs of the polyline's pieces become CurveSegments (constant product, as every protocol's): arcs above them
 * (toSegments).
 */

import type { CurveSegment, TradeType } from '../PoolProtocol.ts';
import { rateAtZero, stableReal, weightedReal } from './balancerRealCurve.ts';
import type { BalancerPoolState } from './balancerState.ts';

/** A pair view of a pool as the curve reads it (balancerV2.ts BalancerPool): its state and its pair's token indices. */
interface PairView {
  readonly state: BalancerPoolState;
  readonly index0: number;
  readonly index1: number;
}

/** A tent higher than this share of its peak above its chord gets a sample in its middle. */
const TENT_TOLERANCE = 1e-5;
/** Most samples one direction's curve takes. */
const MAX_POINTS = 4000;
/** Relative error of weightedReal and stableReal (a few ulps of expm1, log1p, the products, the root), with room. */
const FLOAT_ERROR = 1e-12;
/** Units of output the exact math may exceed its real-valued curve by (the stable invariant rounded down by a unit). */
const SLACK_UNITS = 4;
/** Relative margin on the marginal rate at zero computed in floats. */
const RATE_MARGIN = 1e-9;
/** b of a linear piece over its length (a piece is a d / (b + d): below the line by len / b at most). */
const LINEAR_B = 1e9;
/** Pieces whose slopes differ by less than this share are merged (room for the arcs' slopes between them). */
const MERGE = 8 / LINEAR_B;
/** A weighted pool's curve runs on past its limit this much more (a share of it), nearly flat. */
const CAPACITY_MARGIN = 0.02;
/** The slope past the end (raw units): positive, and below every marginal rate a split could reach. */
const TAIL_SLOPE = 1e-250;
/** A stable pool counts as exhausted once it pays this share of its balance out. */
const EXHAUSTED = 1 - 1e-4;

/** One sample: an input (raw, float) and bounds of the real-valued curve's output there (`lo` <= curve <= `hi`). */
interface Sample {
  readonly x: number;
  readonly lo: number;
  readonly hi: number;
}

/** A linear stretch of the polyline. */
interface Piece {
  len: number;
  slope: number;
}

/**
 * The curve of one direction of a Balancer pool as a search of `tradeType` reads it, one segment per call (the whole
 * curve is built on the first).
 */
export function balancerCurve(pool: PairView, zeroForOne: boolean, tradeType: TradeType): () => CurveSegment | undefined {
  let segments: CurveSegment[] | undefined;
  let k = 0;
  return () => {
    segments ??= buildSegments(pool, zeroForOne, tradeType);
    return segments[k++];
  };
}

function buildSegments(pool: PairView, zeroForOne: boolean, tradeType: TradeType): CurveSegment[] {
  const [iIn, iOut] = zeroForOne ? [pool.index0, pool.index1] : [pool.index1, pool.index0];
  const balanceIn = pool.state.balances[iIn];
  const balanceOut = pool.state.balances[iOut];
  if (balanceIn === 0n || balanceOut === 0n) return [];
  const rate0 = rateAtZero(pool.state, iIn, iOut) * (1 + RATE_MARGIN);
  if (!(rate0 > 0) || !Number.isFinite(rate0)) return [];
  const bo = Number(balanceOut);
  const weighted = pool.state.kind === 'balancerWeighted';
  const known = weightedReal(pool.state, iIn, iOut) ?? stableReal(pool.state, iIn, iOut);
  if (!known) return [];
  const { real, error } = known;
  // A weighted pool's curve ends at its exact-input limit, or for an exact-output search at the input its exact-output
  // limit asks where that is further (wi / wo below 1.36): each side's search reaches every amount the pool carries
  // for it, and an exact-input split never gives the pool more than it takes.
  const limit =
    tradeType === 'exactOut' && known.limit !== undefined && known.outLimit !== undefined
      ? Math.max(known.limit, known.outLimit)
      : known.limit;
  const byInput = (x: number): Sample | undefined => {
    // An input the exact math can take (an integer), and the real-valued curve there, which the exact math stays below.
    const amount = Math.floor(x);
    if (!(amount > 0)) return undefined;
    const y = real(amount);
    if (!(y >= 0) || !Number.isFinite(y)) return undefined;
    return { x: amount, lo: y * (1 - FLOAT_ERROR) - error, hi: y * (1 + FLOAT_ERROR) + error + SLACK_UNITS };
  };
  const samples: Sample[] = [];
  if (limit !== undefined) {
    // Log-spaced from a millionth of the balance in up to the pool's limit (on this side), and just below it.
    const xs = [];
    for (let x = Number(balanceIn) * 1e-6; x < limit; x *= 3) xs.push(x);
    for (const f of [0.9, 0.97, 1 - 1e-4, 1]) xs.push(limit * f);
    for (const x of xs) {
      const s = byInput(x);
      if (s) samples.push(s);
    }
  } else {
    // Fractions of what buys the balance out at the rate at zero, until the pool refuses or is nearly exhausted.
    const scale = bo / rate0;
    for (const f of [1e-5, 1e-3, 0.02, 0.1, 0.3, 0.5, 0.7, 0.85, 1, 1.2, 1.5, 2, 3, 5, 10, 30, 100, 1e3, 1e4]) {
      const s = byInput(scale * f);
      if (!s) break;
      samples.push(s);
      if (s.lo >= bo * EXHAUSTED) break;
    }
  }
  if (samples.length === 0) return [];
  let hull = ordered(samples);
  // Refine: a sample in the middle of each stretch whose tent rises too far above its chord, the highest first, until
  // none does or the budget runs out.
  for (let pass = 0; pass < 40; pass++) {
    const budget = MAX_POINTS - hull.length;
    if (budget <= 0) break;
    const peaks = tentPeaks(hull, rate0);
    const high: { j: number; excess: number }[] = [];
    for (let j = 0; j + 1 < hull.length; j++) {
      const a = hull[j];
      const b = hull[j + 1];
      let excess: number;
      if (j + 2 < hull.length) {
        const p = peaks[j];
        excess = (p.y - (a.lo + ((b.lo - a.lo) * (p.x - a.x)) / (b.x - a.x))) / p.y;
      } else {
        // The last stretch: how far the line past it (lastLine) rises above its end within the balance out.
        excess = (Math.min(lastLine(hull, rate0).at(b.x), bo) - b.lo) / b.lo;
      }
      if (excess > TENT_TOLERANCE && b.x - a.x > 2) high.push({ j, excess });
    }
    if (high.length === 0) break;
    high.sort((p, q) => q.excess - p.excess);
    const added: Sample[] = [];
    for (const { j } of high.slice(0, budget)) {
      const s = byInput((hull[j].x + hull[j + 1].x) / 2);
      if (s) added.push(s);
    }
    if (added.length === 0) break;
    samples.push(...added);
    hull = ordered(samples);
  }
  return toSegments(polyline(hull, rate0, weighted, bo));
}

/** The origin and the samples by input (one per input). */
function ordered(samples: Sample[]): Sample[] {
  samples.sort((a, b) => a.x - b.x);
  const points: Sample[] = [{ x: 0, lo: 0, hi: 0 }];
  for (const s of samples) if (s.x > points[points.length - 1].x) points.push(s);
  return points;
}

/**
 * An upper bound of the curve's slope just past each point j: at most its chord from point j - 1 (from that point's
 * lower bound to this one's upper bound; rate0 at the origin), and never above the one before (the curve is concave).
 */
function slopesAfter(pts: readonly Sample[], rate0: number): number[] {
  const u = [rate0];
  for (let j = 1; j < pts.length; j++) u.push(Math.min(u[j - 1], (pts[j].hi - pts[j - 1].lo) / (pts[j].x - pts[j - 1].x)));
  return u;
}
/** A lower bound of the curve's slope just before point j: at least its chord to point j + 1 (this point's upper bound to that one's lower bound). */
const slopeBefore = (pts: readonly Sample[], j: number) => (pts[j + 1].lo - pts[j].hi) / (pts[j + 1].x - pts[j].x);

/**
 * The peak of each tent but the last: on [x_j, x_j+1], the meeting point of the line from point j's upper bound at
 * slopeAfter(j) and the line into point j + 1's upper bound at slopeBefore(j + 1). Both lines through point j + 1
 * (this tent's second and the next one's first) have slopes v <= u, so the polyline through the peaks is concave.
 */
function tentPeaks(hull: readonly Sample[], rate0: number): { x: number; y: number }[] {
  const peaks: { x: number; y: number }[] = [];
  const after = slopesAfter(hull, rate0);
  for (let j = 0; j + 2 < hull.length; j++) {
    const a = hull[j];
    const b = hull[j + 1];
    const u = after[j];
    const v = slopeBefore(hull, j + 1);
    let x = u > v ? (b.hi - a.hi - v * b.x + u * a.x) / (u - v) : b.x;
    if (!(x >= a.x)) x = a.x;
    if (!(x <= b.x)) x = b.x;
    const first = a.hi + u * (x - a.x);
    const second = b.hi - v * (b.x - x);
    peaks.push({ x, y: u > v ? Math.min(first, second) : Math.max(first, second) });
  }
  return peaks;
}

/**
 * The line the curve follows past its last tent: from the hull's last vertex but one at the slope of the chord before
 * it (rate0 from the origin), above the pool's output at every input from that vertex on.
 */
function lastLine(hull: readonly Sample[], rate0: number): { from: Sample; slope: number; at: (x: number) => number } {
  const j = hull.length - 2;
  const from = hull[j];
  const slope = slopesAfter(hull, rate0)[j];
  return { from, slope, at: (x) => from.hi + slope * (x - from.x) };
}

/**
 * The concave polyline above the samples' tents (see the header) as linear pieces: the origin, each tent's peak, and
 * past them the last tent's first line, run (stable) until it has paid the whole balance out and then a last piece
 * without end, or (weighted) to its last sample, at its side's limit (exact input: a billionth short of 30% of the
 * balance in; exact output, where further: a millionth past the input 30% of the balance out asks), and then
 * CAPACITY_MARGIN nearly flat (there the curve is below the exact math by a billionth at most, which the bounds'
 * FLOAT_MARGIN covers; past the limit every swap of that side reverts: any bound holds, and the split search, which
 * steers by marginal rates, never gives a pool more than its limit where the rate falls to nearly nothing).
 */
function polyline(hull: readonly Sample[], rate0: number, weighted: boolean, balanceOut: number): Piece[] {
  const { from, slope, at: lineAt } = lastLine(hull, rate0);
  const lastX = hull[hull.length - 1].x;
  const end = weighted ? lastX : from.x + Math.max(0, balanceOut * (1 + 1e-9) - from.hi) / slope;
  // The peaks' upper concave hull: above the polyline through them (their slopes bound the curve's from both sides of
  // each sample, a rounding apart), and concave.
  const vertices: { x: number; y: number }[] = [{ x: 0, y: 0 }];
  for (const p of [...tentPeaks(hull, rate0), { x: end, y: lineAt(end) }]) {
    let last = vertices[vertices.length - 1];
    if (!(p.x > last.x)) {
      last.y = Math.max(last.y, p.y);
      continue;
    }
    while (vertices.length >= 2) {
      const a = vertices[vertices.length - 2];
      last = vertices[vertices.length - 1];
      if ((last.y - a.y) * (p.x - a.x) <= (p.y - a.y) * (last.x - a.x)) vertices.pop();
      else break;
    }
    vertices.push({ x: p.x, y: Math.max(p.y, vertices[vertices.length - 1].y) });
  }
  const pieces: Piece[] = [];
  for (let k = 1; k < vertices.length; k++) {
    const len = vertices[k].x - vertices[k - 1].x;
    pieces.push({ len, slope: (vertices[k].y - vertices[k - 1].y) / len });
  }
  // Nearly flat: below any rate the split search could equalise at (it must give the pool nothing there).
  pieces.push({ len: weighted ? lastX * CAPACITY_MARGIN : Number.POSITIVE_INFINITY, slope: TAIL_SLOPE });
  return pieces;
}

/**
 * The pieces as CurveSegments. A piece whose slope is not below the previous one's by MERGE is merged into it at the
 * higher slope (still a bound). Then runs of pieces become constant-product arcs (arcFrom): each through both ends of
 * its run and above every vertex inside it (so above the polyline: still a bound), within ARC_TOLERANCE of them, its
 * marginal rate falling from a start slope σ to an end slope m² / σ (m: the run's slope); σ at most the previous
 * arc's end slope and at most m² / (the next piece's slope) (so the next arc can start below this one's end): concave
 * throughout, with a marginal rate that moves smoothly, which the split search's equal-rate solve needs, and far
 * fewer segments than pieces.
 */
function toSegments(pieces: readonly Piece[]): CurveSegment[] {
  const merged: Piece[] = [];
  for (const p of pieces) {
    const prev = merged[merged.length - 1];
    if (!(p.len > 0)) continue;
    const slope = Math.max(p.slope, Number.MIN_VALUE * 1e20);
    if (prev && p.len !== Number.POSITIVE_INFINITY && slope * (1 + MERGE) >= prev.slope) {
      prev.len += p.len;
      prev.slope = Math.max(prev.slope, slope);
    } else merged.push({ len: p.len, slope });
  }
  const finite = merged.filter((p) => p.len !== Number.POSITIVE_INFINITY);
  const x = [0];
  const y = [0];
  for (const p of finite) {
    x.push(x[x.length - 1] + p.len);
    y.push(y[y.length - 1] + p.slope * p.len);
  }
  const segments: CurveSegment[] = [];
  let prevEnd = Number.POSITIVE_INFINITY;
  for (let from = 0; from < finite.length; ) {
    const arc = arcFrom(finite, x, y, from, prevEnd);
    segments.push(arc.segment);
    prevEnd = arc.end;
    from = arc.to;
  }
  for (const p of merged)
    if (p.len === Number.POSITIVE_INFINITY) {
      // Pays at most `a` in all (a tiny amount past the whole balance), starting at its slope.
      const a = p.slope * 1e9;
      segments.push({ len: p.len, a, b: a / p.slope, ticks: 0 });
    }
  return segments;
}

/** Longest run of pieces one arc spans, and how far above the polyline's vertices it may pass (share of their output). */
const ARC_SPAN = 256;
const ARC_TOLERANCE = 1e-5;

/**
 * The longest arc from vertex `from` (x[from], y[from]) over whole pieces that keeps to toSegments' rules: its
 * segment, the vertex it ends at and its end slope.
 */
function arcFrom(
  pieces: readonly Piece[],
  x: readonly number[],
  y: readonly number[],
  from: number,
  prevEnd: number,
): { segment: CurveSegment; to: number; end: number } {
  const nextSlope = (to: number) => (to < pieces.length ? pieces[to].slope : 0);
  const most = (m: number, to: number) =>
    Math.min(prevEnd, nextSlope(to) > 0 ? (m * m) / nextSlope(to) / (1 + MERGE / 2) : Number.POSITIVE_INFINITY);
  // One piece: σ near the geometric mean of its slope and the previous one's.
  const m1 = pieces[from].slope;
  const wanted =
    from > 0 ? Math.sqrt(pieces[from - 1].slope * m1) : nextSlope(from + 1) > 0 ? m1 * Math.sqrt(m1 / nextSlope(from + 1)) : m1;
  let best = { to: from + 1, sigma: Math.min(Math.max(wanted, m1), most(m1, from + 1)) };
  for (let to = from + 2; to <= Math.min(pieces.length, from + ARC_SPAN); to++) {
    const len = x[to] - x[from];
    const rise = y[to] - y[from];
    const m = rise / len;
    // The least σ that passes above every vertex inside (the arc through both ends and that vertex).
    let sigma = m * (1 + 2 / LINEAR_B);
    for (let k = from + 1; k < to; k++) {
      const d = x[k] - x[from];
      const h = y[k] - y[from];
      const over = h * len - rise * d;
      if (over <= 0) continue;
      const b = (d * len * (rise - h)) / over;
      sigma = Math.max(sigma, m * (1 + len / b));
    }
    if (!(sigma <= most(m, to)) || !Number.isFinite(sigma)) break;
    const b = (m * len) / (sigma - m);
    const at = (d: number) => y[from] + (sigma * b * d) / (b + d);
    let close = true;
    for (let k = from + 1; k < to && close; k++) {
      const mid = (x[k - 1] + x[k]) / 2;
      close = at(x[k] - x[from]) - y[k] <= ARC_TOLERANCE * y[k] && at(mid - x[from]) - (y[k - 1] + y[k]) / 2 <= ARC_TOLERANCE * y[k];
    }
    if (!close) break;
    best = { to, sigma };
  }
  const len = x[best.to] - x[from];
  const m = (y[best.to] - y[from]) / len;
  if (best.sigma > m * (1 + 1 / LINEAR_B) && Number.isFinite(best.sigma)) {
    const b = (m * len) / (best.sigma - m);
    return { segment: { len, a: best.sigma * b, b, ticks: 0 }, to: best.to, end: (m * m) / best.sigma };
  }
  const b = len * LINEAR_B;
  return { segment: { len, a: m * (b + len), b, ticks: 0 }, to: best.to, end: (m * b) / (b + len) };
}
