// Uniswap's own test vectors (../shared/vectors/uniswap-test-vectors.json beside the project, as CI has it: sources
// and commits in the file) through the project's engine:
// - v3-core's UniswapV3Pool.swaps.spec.ts: every pool x swap case against its Jest snapshot record. A pool is built
//   as the spec builds it (initialize at the starting price, then mint each position); amount0/amount1 of the swap
//   and the tick after equal the snapshot to the wei, reverts are reverts (SPL), and the pool balances before, the
//   prices (the snapshot's decimal.js formatting: precision 20, half up, toPrecision(5)) and the execution price
//   agree too. Each case runs through swap() and through the QuoterV2-style quoters; cases that differ only in
//   amount run again as one ladder (exact input and exact output).
// - v2-core's pair and v2-periphery's router vectors through getAmountOut / getAmountIn, reverts included.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { AmmError } from '../../src/amm/ammError.ts';
import {
  quoteExactInputLadder,
  quoteExactInputSingle,
  quoteExactOutputLadder,
  quoteExactOutputSingle,
  type V3QuoteResult,
} from '../../src/amm/quoter.ts';
import { getAmount0Delta, getAmount1Delta } from '../../src/amm/sqrtPriceMath.ts';
import { swap } from '../../src/amm/swap.ts';
import { getSqrtRatioAtTick, getTickAtSqrtRatio, MAX_TICK, MIN_TICK } from '../../src/amm/tickMath.ts';
import { getAmountIn, getAmountOut } from '../../src/amm/v2.ts';
import { createV3Pool, type V3Pool } from '../../src/amm/v3Pool.ts';

interface V3Case {
  description: string;
  zeroForOne: boolean;
  kind: 'exactIn' | 'exactOut' | 'toPrice';
  amount: string;
  sqrtPriceLimit: { sqrtPriceX96: string };
}
interface BalancesRecord {
  amount0Before: string;
  amount1Before: string;
  amount0Delta: string;
  amount1Delta: string;
  tickBefore: number;
  tickAfter: number;
  poolPriceBefore: string;
  poolPriceAfter: string;
  executionPrice: string;
}
interface ErrorRecord {
  swapError: string;
  poolBalance0: string;
  poolBalance1: string;
  poolPriceBefore: string;
  tickBefore: number;
}
interface V3PoolCase {
  description: string;
  feeAmount: number;
  tickSpacing: number;
  startingPrice: { sqrtPriceX96: string };
  positions: { tickLower: number; tickUpper: number; liquidity: string }[];
  expected: (BalancesRecord | ErrorRecord)[];
}
interface V2Vector {
  name: string;
  fn: 'getAmountOut' | 'getAmountIn';
  amountIn?: string;
  amountOut?: string;
  reserveIn: string;
  reserveOut: string;
  feeBps: number;
  expected?: string;
  revert?: string;
}

const vectors = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', '..', '..', 'shared', 'vectors', 'uniswap-test-vectors.json'), 'utf8'),
) as {
  v3: { cases: V3Case[]; pools: V3PoolCase[] };
  v2: V2Vector[];
};

// --- decimal.js as the snapshot used it: values rounded to 20 significant digits (half up) after each operation.

/** A decimal x = m * 10^e as an exact rational [numerator, denominator > 0]. */
type Rational = readonly [bigint, bigint];

const TEN = 10n;
const abs = (x: bigint): bigint => (x < 0n ? -x : x);

/** |num / den| rounded half up to `sd` significant digits: the digits (exactly sd of them) and the decimal exponent of the first. */
function significant(num: bigint, den: bigint, sd: number): { digits: bigint; exponent: number } {
  const n = abs(num);
  let exponent = (n / den).toString().length - 1;
  if (n < den) {
    exponent = -1;
    while (n * TEN ** BigInt(-exponent) < den) exponent--;
  }
  const shift = sd - 1 - exponent;
  const [sn, sdn] = shift >= 0 ? [n * TEN ** BigInt(shift), den] : [n, den * TEN ** BigInt(-shift)];
  let digits = sn / sdn;
  if (2n * (sn % sdn) >= sdn) digits++;
  if (digits === TEN ** BigInt(sd)) return { digits: TEN ** BigInt(sd - 1), exponent: exponent + 1 };
  return { digits, exponent };
}

/** Decimal's result rounding (precision 20, ROUND_HALF_UP) of num / den. */
function round20([num, den]: Rational): Rational {
  if (num === 0n) return [0n, 1n];
  const { digits, exponent } = significant(num, den, 20);
  const scale = exponent - 19;
  const signed = num < 0n !== den < 0n ? -digits : digits;
  return scale >= 0 ? [signed * TEN ** BigInt(scale), 1n] : [signed, TEN ** BigInt(-scale)];
}

/** Decimal#toPrecision(5) with toExpNeg -500 / toExpPos 500 (exponential only when the integer part needs more digits). */
function toPrecision5([num, den]: Rational): string {
  if (num === 0n) return '0.0000';
  const { digits, exponent } = significant(num, den, 5);
  const d = digits.toString();
  const sign = num < 0n !== den < 0n ? '-' : '';
  if (exponent >= 5) return `${sign}${d[0]}.${d.slice(1)}e+${exponent}`;
  if (exponent >= 0) return `${sign}${d.slice(0, exponent + 1)}${exponent < 4 ? `.${d.slice(exponent + 1)}` : ''}`;
  return `${sign}0.${'0'.repeat(-exponent - 1)}${d}`;
}

const mul = (a: Rational, b: Rational): Rational => [a[0] * b[0], a[1] * b[1]];
const div = (a: Rational, b: Rational): Rational => (b[0] < 0n ? [-a[0] * b[1], a[1] * -b[0]] : [a[0] * b[1], a[1] * b[0]]);
const TWO_POW_96 = round20([2n ** 96n, 1n]); // new Decimal(2).pow(96)

/** test/shared/format.ts formatPrice: (sqrtPriceX96 / 2^96)^2, toPrecision(5). */
function formatPrice(sqrtPriceX96: bigint): string {
  const ratio = round20(div([sqrtPriceX96, 1n], TWO_POW_96));
  return toPrecision5(round20(mul(ratio, ratio)));
}

/** The spec's executionPrice: Decimal(amount1).div(amount0).mul(-1).toPrecision(5). */
function executionPrice(amount0: bigint, amount1: bigint): string {
  if (amount0 === 0n) return amount1 === 0n ? 'NaN' : amount1 > 0n ? '-Infinity' : 'Infinity';
  const q = round20(div([amount1, 1n], [amount0, 1n]));
  return toPrecision5([-q[0], q[1]]);
}

// --- pools as the spec builds them.

const fullWords = (s: number): [number, number] => [Math.floor(MIN_TICK / s) >> 8, Math.floor(MAX_TICK / s) >> 8];

/** UniswapV3Pool.initialize(startingPrice), then mint(L) of every position; and the token balances that leaves. */
function buildPool(p: V3PoolCase): { pool: V3Pool; balance0: bigint; balance1: bigint } {
  const sqrtPriceX96 = BigInt(p.startingPrice.sqrtPriceX96);
  const tick = getTickAtSqrtRatio(sqrtPriceX96);
  const nets = new Map<number, bigint>();
  let liquidity = 0n;
  let balance0 = 0n;
  let balance1 = 0n;
  for (const { tickLower, tickUpper, liquidity: l } of p.positions) {
    const L = BigInt(l);
    nets.set(tickLower, (nets.get(tickLower) ?? 0n) + L);
    nets.set(tickUpper, (nets.get(tickUpper) ?? 0n) - L);
    const lower = getSqrtRatioAtTick(tickLower);
    const upper = getSqrtRatioAtTick(tickUpper);
    // UniswapV3Pool._modifyPosition: what the minter pays, rounded up.
    if (tick < tickLower) balance0 += getAmount0Delta(lower, upper, L, true);
    else if (tick < tickUpper) {
      liquidity += L;
      balance0 += getAmount0Delta(sqrtPriceX96, upper, L, true);
      balance1 += getAmount1Delta(lower, sqrtPriceX96, L, true);
    } else balance1 += getAmount1Delta(lower, upper, L, true);
  }
  const ticks = [...nets.entries()].sort((a, b) => a[0] - b[0]);
  const pool = createV3Pool({
    sqrtPriceX96,
    tick,
    liquidity,
    tickSpacing: p.tickSpacing,
    fee: p.feeAmount,
    ticks,
    bitmapWords: fullWords(p.tickSpacing),
  });
  return { pool, balance0, balance1 };
}

/** The swap's (amount0, amount1) from the walk, as UniswapV3Pool.swap returns them (the pool's balance changes). */
function deltas(zeroForOne: boolean, amountSpecified: bigint, remaining: bigint, calculated: bigint): [bigint, bigint] {
  const exactInput = amountSpecified > 0n;
  return zeroForOne === exactInput ? [amountSpecified - remaining, calculated] : [calculated, amountSpecified - remaining];
}

/** The quoter's view of the same swap: (amount0, amount1) from amountIn / amountOut. */
function quoteDeltas(zeroForOne: boolean, q: V3QuoteResult): [bigint, bigint] {
  return zeroForOne ? [q.amountIn, -q.amountOut] : [-q.amountOut, q.amountIn];
}

const isError = (r: BalancesRecord | ErrorRecord): r is ErrorRecord => 'swapError' in r;
const SPL = 'VM Exception while processing transaction: revert SPL';
const amountSpecifiedOf = (c: V3Case): bigint => (c.kind === 'exactOut' ? -BigInt(c.amount) : BigInt(c.amount));

t.test('the vector file: 15 pools x 16 cases of v3-core, 17 v2 vectors', async (t) => {
  t.equal(vectors.v3.pools.length, 15);
  t.equal(vectors.v3.cases.length, 16);
  for (const p of vectors.v3.pools) t.equal(p.expected.length, vectors.v3.cases.length, `${p.description}: one record per case`);
  t.equal(vectors.v2.length, 17);
  t.same(
    [...new Set(vectors.v3.pools.flatMap((p) => p.expected.filter(isError).map((e) => e.swapError)))],
    [SPL],
    'the only v3 revert in the snapshot is SPL',
  );
});

t.test('decimal.js formatting as the snapshot used it', async (t) => {
  t.equal(formatPrice(79228162514264337593543950336n), '1.0000');
  t.equal(formatPrice(4295128739n), '0.0000000000000000000000000000000000000029390');
  t.equal(formatPrice(1461446703485210103287273052203988822378723970341n), '3.4026e+38');
  t.equal(executionPrice(1000n, -500n), '0.50000');
  t.equal(executionPrice(0n, 1n), '-Infinity');
  t.equal(executionPrice(0n, 0n), 'NaN');
  t.equal(executionPrice(2n, 0n), '0.0000');
});

t.test('v3-core UniswapV3Pool swap tests: every pool and case, to the wei', async (t) => {
  let balances = 0;
  let reverts = 0;
  for (const p of vectors.v3.pools) {
    const { pool, balance0, balance1 } = buildPool(p);
    vectors.v3.cases.forEach((c, i) => {
      const e = p.expected[i];
      const name = `${p.description} / ${c.description}`;
      const limit = BigInt(c.sqrtPriceLimit.sqrtPriceX96);
      const amountSpecified = amountSpecifiedOf(c);
      const exactOut = c.kind === 'exactOut';
      const quote = (): V3QuoteResult =>
        exactOut
          ? quoteExactOutputSingle(pool, c.zeroForOne, BigInt(c.amount), limit)
          : quoteExactInputSingle(pool, c.zeroForOne, BigInt(c.amount), limit);
      // The pool before the swap.
      const before = isError(e)
        ? { balance0: e.poolBalance0, balance1: e.poolBalance1, price: e.poolPriceBefore, tick: e.tickBefore }
        : { balance0: e.amount0Before, balance1: e.amount1Before, price: e.poolPriceBefore, tick: e.tickBefore };
      if (i === 0) {
        t.same(
          { balance0: balance0.toString(), balance1: balance1.toString(), price: formatPrice(pool.sqrtPriceX96), tick: pool.tick },
          before,
          `${p.description}: pool balances, price and tick after initialize + mint`,
        );
      }
      if (isError(e)) {
        t.throws(
          () => swap(pool, c.zeroForOne, amountSpecified, limit),
          new AmmError('INVALID_PRICE_LIMIT', 'swap: sqrtPriceLimitX96 is not strictly between the current price and the bound (SPL)'),
          `${name}: reverts SPL`,
        );
        t.throws(quote, { code: 'INVALID_PRICE_LIMIT' }, `${name}: the quoter reverts too`);
        reverts++;
        return;
      }
      const r = swap(pool, c.zeroForOne, amountSpecified, limit);
      const [amount0, amount1] = deltas(c.zeroForOne, amountSpecified, r.amountSpecifiedRemaining, r.amountCalculated);
      t.same(
        {
          complete: r.complete,
          amount0Delta: amount0.toString(),
          amount1Delta: amount1.toString(),
          tickAfter: r.tick,
          poolPriceAfter: formatPrice(r.sqrtPriceX96),
          executionPrice: executionPrice(amount0, amount1),
        },
        {
          complete: true,
          amount0Delta: e.amount0Delta,
          amount1Delta: e.amount1Delta,
          tickAfter: e.tickAfter,
          poolPriceAfter: e.poolPriceAfter,
          executionPrice: e.executionPrice,
        },
        name,
      );
      const q = quote();
      t.same(
        q.ok && [...quoteDeltas(c.zeroForOne, q).map(String), q.tickAfter, q.sqrtPriceX96After],
        [e.amount0Delta, e.amount1Delta, e.tickAfter, r.sqrtPriceX96],
        `${name}: the quoter agrees`,
      );
      balances++;
    });
  }
  t.equal(balances, 190, '190 swaps reproduced');
  t.equal(reverts, 50, '50 reverts reproduced');
});

t.test('v3-core swap cases that differ only in amount, as one ladder per pool and side', async (t) => {
  let ladders = 0;
  for (const p of vectors.v3.pools) {
    const { pool } = buildPool(p);
    const groups = new Map<string, number[]>();
    vectors.v3.cases.forEach((c, i) => {
      const key = `${c.zeroForOne}/${c.kind}/${c.sqrtPriceLimit.sqrtPriceX96}`;
      groups.set(key, [...(groups.get(key) ?? []), i]);
    });
    for (const indexes of groups.values()) {
      if (indexes.length < 2) continue;
      const cases = indexes.map((i) => vectors.v3.cases[i]).sort((a, b) => (BigInt(a.amount) < BigInt(b.amount) ? -1 : 1));
      const records = cases.map((c) => p.expected[vectors.v3.cases.indexOf(c)]);
      const { zeroForOne, kind } = cases[0];
      const limit = BigInt(cases[0].sqrtPriceLimit.sqrtPriceX96);
      const amounts = cases.map((c) => BigInt(c.amount));
      const name = `${p.description} / ${kind} zeroForOne=${zeroForOne} ladder [${amounts.join(', ')}]`;
      const run = (): V3QuoteResult[] =>
        kind === 'exactOut'
          ? quoteExactOutputLadder(pool, zeroForOne, amounts, limit)
          : quoteExactInputLadder(pool, zeroForOne, amounts, limit);
      ladders++;
      if (records.every(isError)) {
        t.throws(run, { code: 'INVALID_PRICE_LIMIT' }, `${name}: reverts SPL`);
        continue;
      }
      const results = run();
      t.same(
        results.map((q) => q.ok && [...quoteDeltas(zeroForOne, q).map(String), q.tickAfter]),
        records.map((e) => !isError(e) && [e.amount0Delta, e.amount1Delta, e.tickAfter]),
        name,
      );
    }
  }
  t.equal(ladders, 60, '4 ladders per pool (exact in / out, both directions)');
});

t.test('v2-core pair and v2-periphery router vectors', async (t) => {
  // UniswapV2Library's revert strings and the AmmError codes that stand for them.
  const codes: Record<string, string> = {
    'UniswapV2Library: INSUFFICIENT_INPUT_AMOUNT': 'INSUFFICIENT_INPUT_AMOUNT',
    'UniswapV2Library: INSUFFICIENT_OUTPUT_AMOUNT': 'INSUFFICIENT_OUTPUT_AMOUNT',
    'UniswapV2Library: INSUFFICIENT_LIQUIDITY': 'ZERO_RESERVES',
  };
  let values = 0;
  let reverts = 0;
  for (const v of vectors.v2) {
    const run = (): bigint =>
      v.fn === 'getAmountOut'
        ? getAmountOut(BigInt(v.amountIn!), BigInt(v.reserveIn), BigInt(v.reserveOut), v.feeBps)
        : getAmountIn(BigInt(v.amountOut!), BigInt(v.reserveIn), BigInt(v.reserveOut), v.feeBps);
    if (v.revert !== undefined) {
      t.throws(run, { code: codes[v.revert] }, `${v.name}: reverts ${v.revert}`);
      reverts++;
    } else {
      t.equal(run().toString(), v.expected, v.name);
      values++;
    }
  }
  t.same([values, reverts], [11, 6], '11 amounts and 6 reverts reproduced');
});
