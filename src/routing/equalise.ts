import type { TradeType } from '../protocols/PoolProtocol.ts';
import { type PathCurve, pieceAt, rateAtZero } from './pathCurve.ts';

/*
 * The optimal split of a fixed amount over paths that share no pool, in floating point (it steers the search; the
 * shares are then priced exactly): at the optimum every path that takes part has the same marginal rate λ (output
 * per unit of input), and a path left out has a lower rate at zero. For exact input the inputs at λ add up to the
 * amount; for exact output the outputs do (the least input for a given output meets the same condition). Each
 * path's input at λ is closed-form within one of its pieces (pathCurve.ts); in u = 1/sqrt(λ) a piece's input is
 * linear, x = x0 - beta + sqrt(alpha beta) u, and its output y0 + alpha - sqrt(alpha beta) / u, so each step
 * solves the sum exactly for the pieces it is in, and a bracket on u keeps the steps converging.
 */

/** A solved split: each path's input and output, the common marginal rate, and whether the paths carry the amount. */
export interface Equalised {
  readonly inputs: readonly number[];
  readonly outputs: readonly number[];
  readonly lambda: number;
  /** False when the paths together cannot carry the amount: then each is at its end. */
  readonly feasible: boolean;
}

/** Input and output of a curve where its marginal rate is 1/u^2, and their slopes in u (0 where clamped). */
interface AtRate {
  x: number;
  y: number;
  /** Interior of a piece: x = cx + d u, y = cy - d / u. */
  interior: boolean;
  cx: number;
  cy: number;
  d: number;
  /** The curve and piece whose sqrt(alpha beta) `root` is (a solve's steps mostly stay in a curve's piece). */
  curve: PathCurve | undefined;
  piece: number;
  root: number;
}

/** `out` for curve c at u, whose marginal rate `lambda` is 1 / u^2 (computed once per step by the caller). */
function atRate(c: PathCurve, u: number, lambda: number, out: AtRate): void {
  out.interior = false;
  const k = pieceAt(c, lambda);
  if (k < 0) {
    out.x = 0;
    out.y = 0;
    return;
  }
  const alpha = c.alpha[k];
  const beta = c.beta[k];
  if (out.curve !== c || out.piece !== k) {
    out.curve = c;
    out.piece = k;
    out.root = Math.sqrt(alpha * beta);
  }
  const d = out.root;
  const t = d * u - beta;
  if (t >= c.len[k]) {
    // Past the last piece: the curve's end.
    out.x = Number.isFinite(c.len[k]) ? c.x[k] + c.len[k] : c.endX;
    out.y = Number.isFinite(c.len[k]) ? c.y[k] + (alpha * c.len[k]) / (beta + c.len[k]) : c.endY;
    return;
  }
  out.interior = true;
  out.cx = c.x[k] - beta;
  out.cy = c.y[k] + alpha;
  out.d = d;
  const into = Math.max(0, t);
  out.x = c.x[k] + into;
  out.y = c.y[k] + (alpha * into) / (beta + into);
}

const RELATIVE_TOLERANCE = 1e-13;
const MAX_STEPS = 200;

/**
 * The split of `amount` (the fixed side: input for exactIn, output for exactOut) over the curves `members` names in
 * `all` (positions, in the set's order) that equalises their marginal rates. Curves that cannot reach the amount
 * together: each at its end, feasible false.
 */
export function equalise(all: readonly PathCurve[], members: readonly number[], tradeType: TradeType, amount: number): Equalised {
  const exactIn = tradeType === 'exactIn';
  const n = members.length;
  // Loops, not map/reduce/spread, and AtRate records reused across calls: the split search solves many sets per search.
  let reach = 0;
  for (let i = 0; i < n; i++) reach += exactIn ? lastX(all[members[i]]) : lastY(all[members[i]]);
  if (!(reach >= amount)) {
    const inputs = new Array<number>(n);
    const outputs = new Array<number>(n);
    for (let i = 0; i < n; i++) {
      inputs[i] = lastX(all[members[i]]);
      outputs[i] = lastY(all[members[i]]);
    }
    return { inputs, outputs, lambda: 0, feasible: false };
  }
  const at = atRecords(n);
  // Math.max over the rates at zero (NaN if one is).
  let maxRate = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n && !Number.isNaN(maxRate); i++) {
    const r = rateAtZero(all[members[i]]);
    if (Number.isNaN(r) || r > maxRate) maxRate = r;
  }
  let uLo = 1 / Math.sqrt(maxRate);
  let uHi = Number.POSITIVE_INFINITY;
  let u = uLo;
  for (let step = 0; step < MAX_STEPS; step++) {
    let sum = 0;
    let c0 = 0;
    let d0 = 0;
    const lambda = 1 / (u * u);
    for (let i = 0; i < n; i++) {
      atRate(all[members[i]], u, lambda, at[i]);
      const a = at[i];
      sum += exactIn ? a.x : a.y;
      if (a.interior) {
        c0 += exactIn ? a.cx : a.cy;
        d0 += a.d;
      } else c0 += exactIn ? a.x : a.y;
    }
    if (Math.abs(sum - amount) <= amount * RELATIVE_TOLERANCE) break;
    if (sum < amount) uLo = u;
    else uHi = u;
    // The u at which the sum meets the amount if every curve stays in its piece.
    let next = exactIn ? (d0 > 0 ? (amount - c0) / d0 : Number.NaN) : c0 > amount ? d0 / (c0 - amount) : Number.NaN;
    if (!(next > uLo && next < uHi)) next = Number.isFinite(uHi) ? (uLo + uHi) / 2 : uLo * 2;
    if (next === u) break;
    u = next;
  }
  const inputs = new Array<number>(n);
  const outputs = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    inputs[i] = at[i].x;
    outputs[i] = at[i].y;
  }
  return { inputs, outputs, lambda: 1 / (u * u), feasible: true };
}

/**
 * equalise's AtRate records, reused by every call (it is synchronous and not re-entered): at least `n` of them. A
 * record's kept root names its curve and piece (it keeps the last solve's few curves reachable), so one left from an earlier call is reused only for that same piece.
 */
const records: AtRate[] = [];

function atRecords(n: number): AtRate[] {
  while (records.length < n) records.push({ x: 0, y: 0, interior: false, cx: 0, cy: 0, d: 0, curve: undefined, piece: -1, root: 0 });
  return records;
}

/** Input where a curve ends (finite: an unbounded last piece stops at the limit it was built for). */
function lastX(c: PathCurve): number {
  const k = c.x.length - 1;
  if (k < 0) return 0;
  return Number.isFinite(c.len[k]) ? c.x[k] + c.len[k] : Number.MAX_VALUE;
}

/** Output where a curve ends. */
function lastY(c: PathCurve): number {
  const k = c.x.length - 1;
  if (k < 0) return 0;
  return Number.isFinite(c.len[k]) ? c.y[k] + (c.alpha[k] * c.len[k]) / (c.beta[k] + c.len[k]) : c.y[k] + c.alpha[k];
}
