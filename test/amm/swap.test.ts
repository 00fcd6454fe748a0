// Targeted cases of the swap loop and the quoters: price limits, reverts, the known-window edge, partial fills,
// ladders, and the shipped devnet snapshot, each against @uniswap/v3-sdk.
import { existsSync, readFileSync } from 'node:fs';
import t from 'tap';
import { quoteExactInputLadder, quoteExactInputSingle, quoteExactOutputLadder, quoteExactOutputSingle } from '../../src/amm/quoter.ts';
import { type SwapResult, swap, swapLadder } from '../../src/amm/swap.ts';
import { MAX_SQRT_RATIO, MIN_SQRT_RATIO } from '../../src/amm/tickMath.ts';
import { createV3Pool, type V3Pool, type V3PoolData } from '../../src/amm/v3Pool.ts';
import { b, fullWords, j, type RandomPool, Rng, randomPool, sdkPoolOf, v3sdk } from './oracle.ts';

const MIN_SQRT = b(v3sdk.TickMath.MIN_SQRT_RATIO);
const MAX_SQRT = b(v3sdk.TickMath.MAX_SQRT_RATIO);
const R = (tick: number): bigint => b(v3sdk.TickMath.getSqrtRatioAtTick(tick));

// Spacing 60, positions around tick 0; the current price lies inside [0, 1).
const TICKS: [number, bigint][] = [
  [-1200, 3n * 10n ** 18n],
  [-600, 2n * 10n ** 18n],
  [-120, 10n ** 18n],
  [120, -(10n ** 18n)],
  [600, -2n * 10n ** 18n],
  [1200, -3n * 10n ** 18n],
];
const SQRT_P = R(0) + 10n ** 20n;
const LIQ = 6n * 10n ** 18n;

function data(words: [number, number], over: Partial<V3PoolData> = {}): V3PoolData {
  return { sqrtPriceX96: SQRT_P, tick: 0, liquidity: LIQ, tickSpacing: 60, fee: 3000, ticks: TICKS, bitmapWords: words, ...over };
}
const random: RandomPool = {
  fee: 3000,
  tickSpacing: 60,
  sqrtPriceX96: SQRT_P,
  tick: 0,
  liquidity: LIQ,
  ticks: TICKS.map(([x, n]) => [x, n, n < 0n ? -n : n]),
  rangeLiquidity: [],
  liquidityBelowAll: 0n,
};
const sdk = sdkPoolOf(random);
const full = createV3Pool(data([-58, 57]));

async function sdkSwap(zeroForOne: boolean, amount: bigint, limit?: bigint) {
  const r = await sdk.swap(zeroForOne, j(amount), limit === undefined ? undefined : j(limit));
  return { amountCalculated: b(r.amountCalculated), sqrtPriceX96: b(r.sqrtRatioX96), tick: r.tickCurrent, liquidity: b(r.liquidity) };
}

t.test('a price limit exactly on an initialized tick: stops there after crossing it, like the contract', async (t) => {
  for (const [zeroForOne, tick] of [
    [true, -600],
    [false, 600],
  ] as const) {
    const limit = R(tick);
    const ours = swap(full, zeroForOne, 10n ** 30n, limit);
    const expected = await sdkSwap(zeroForOne, 10n ** 30n, limit);
    t.same(
      { amountCalculated: ours.amountCalculated, sqrtPriceX96: ours.sqrtPriceX96, tick: ours.tick, liquidity: ours.liquidity },
      expected,
      `zeroForOne=${zeroForOne}`,
    );
    t.equal(ours.tick, zeroForOne ? tick - 1 : tick, 'the tick is crossed (liquidityNet applied)');
    const q = quoteExactInputSingle(full, zeroForOne, 10n ** 30n, limit);
    t.ok(q.ok && !q.filledFully && q.amountIn < 10n ** 30n, 'partial fill reported with the input used');
  }
});

t.test('exact output larger than the pool can give: partial, flagged, equal to the SDK', async (t) => {
  const q = quoteExactOutputSingle(full, true, 10n ** 30n);
  const expected = await sdkSwap(true, -(10n ** 30n));
  t.ok(q.ok);
  if (!q.ok) return;
  t.equal(q.filledFully, false);
  t.equal(q.amountIn, expected.amountCalculated);
  t.equal(q.sqrtPriceX96After, expected.sqrtPriceX96);
  t.equal(q.tickAfter, expected.tick);
  t.ok(q.amountOut < 10n ** 30n);
});

t.test('reverts of UniswapV3Pool.swap become typed errors', async (t) => {
  t.throws(() => quoteExactInputSingle(full, true, 0n), { name: 'AmmError', code: 'INVALID_AMOUNT' }, 'AS');
  t.throws(() => quoteExactOutputSingle(full, true, -5n), { code: 'INVALID_AMOUNT' });
  t.throws(() => swap(full, true, 0n), { code: 'INVALID_AMOUNT' });
  t.throws(() => quoteExactInputSingle(full, true, 1n, SQRT_P), { code: 'INVALID_PRICE_LIMIT' }, 'SPL: limit at the current price');
  t.throws(() => quoteExactInputSingle(full, true, 1n, MIN_SQRT), { code: 'INVALID_PRICE_LIMIT' }, 'SPL: limit at MIN_SQRT_RATIO');
  t.throws(() => quoteExactInputSingle(full, false, 1n, MAX_SQRT), { code: 'INVALID_PRICE_LIMIT' }, 'SPL: limit at MAX_SQRT_RATIO');
  t.throws(() => quoteExactInputSingle(full, false, 1n, SQRT_P - 1n), { code: 'INVALID_PRICE_LIMIT' }, 'SPL: limit below for oneForZero');
  const atBound = createV3Pool(data([-58, 57], { sqrtPriceX96: MIN_SQRT + 1n, tick: -887272, liquidity: 0n, ticks: [] }));
  t.throws(() => quoteExactInputSingle(atBound, true, 1n), { code: 'INVALID_PRICE_LIMIT' }, 'QuoterV2 default limit already reached');
});

t.test('createV3Pool refuses inconsistent snapshot state', async (t) => {
  t.throws(() => createV3Pool(data([-58, 57], { sqrtPriceX96: MIN_SQRT - 1n })), { code: 'INVALID_POOL_STATE' });
  t.throws(() => createV3Pool(data([-58, 57], { fee: 1_000_000 })), { code: 'INVALID_POOL_STATE' });
  t.throws(() => createV3Pool(data([-58, 57], { tickSpacing: 0 })), { code: 'INVALID_POOL_STATE' });
  t.throws(() => createV3Pool(data([-58, 57], { liquidity: -1n })), { code: 'INVALID_POOL_STATE' });
  t.throws(() => createV3Pool(data([3, 1])), { code: 'INVALID_POOL_STATE' });
  t.throws(
    () => createV3Pool(data([-58, 57], { ticks: [[30, 1n]] })),
    { code: 'INVALID_POOL_STATE' },
    'tick not a multiple of the spacing',
  );
});

t.test('known bitmap window: INSUFFICIENT_KNOWN_LIQUIDITY exactly when the walk needs an unknown word', async (t) => {
  // Word 0 only (ticks 0..15359): walking down needs word -1 as soon as the price passes tick 0.
  const narrow = createV3Pool(data([0, 0], { ticks: TICKS.filter(([x]) => x >= 0) }));
  const small = quoteExactInputSingle(narrow, false, 10n ** 15n);
  const expectedSmall = await sdkSwap(false, 10n ** 15n);
  t.ok(small.ok && small.amountOut === -expectedSmall.amountCalculated, 'a walk inside the window is answered');
  const big = quoteExactInputSingle(narrow, true, 10n ** 19n);
  t.equal(big.ok, false, 'a walk leaving the window is refused');
  if (big.ok) return;
  t.equal(big.code, 'INSUFFICIENT_KNOWN_LIQUIDITY');
  // Up to the edge (tick 0) the amounts are exact: the SDK, given exactly that input, ends on the edge with the same output.
  const edge = await sdkSwap(true, big.amountIn);
  t.equal(edge.sqrtPriceX96, R(0), 'the SDK stops exactly at the window edge');
  t.equal(edge.tick, -1);
  t.equal(-edge.amountCalculated, big.amountOut);
  // With exactly that input the walk ends at the edge without asking for the next word: answered.
  const atEdge = quoteExactInputSingle(narrow, true, big.amountIn);
  t.ok(
    atEdge.ok && atEdge.filledFully && atEdge.tickAfter === -1 && atEdge.sqrtPriceX96After === R(0),
    'ending exactly on the edge is answered',
  );
  // The current tick's own word unknown: nothing can be priced.
  const outside = createV3Pool(data([1, 3], { ticks: [] }));
  t.same(quoteExactInputSingle(outside, true, 1000n), { ok: false, code: 'INSUFFICIENT_KNOWN_LIQUIDITY', amountIn: 0n, amountOut: 0n });
});

t.test('quoteExactInputLadder: one result per amount, equal to the SDK', async (t) => {
  t.same(quoteExactInputLadder(full, true, []), []);
  t.throws(() => quoteExactInputLadder(full, true, [5n, 3n]), { code: 'INVALID_AMOUNT' });
  t.throws(() => quoteExactInputLadder(full, true, [0n, 3n]), { code: 'INVALID_AMOUNT' });
  const amounts = [1n, 10n ** 12n, 10n ** 12n, 10n ** 16n, 10n ** 17n, 3n * 10n ** 17n, 10n ** 18n, 10n ** 30n];
  for (const zeroForOne of [true, false]) {
    const ladder = quoteExactInputLadder(full, zeroForOne, amounts);
    for (let i = 0; i < amounts.length; i++) {
      const expected = await sdkSwap(zeroForOne, amounts[i]);
      const r = ladder[i];
      t.ok(r.ok, `${i} ok`);
      if (!r.ok) continue;
      t.same(
        [r.amountOut, r.sqrtPriceX96After, r.tickAfter, r.liquidityAfter],
        [-expected.amountCalculated, expected.sqrtPriceX96, expected.tick, expected.liquidity],
        `zeroForOne=${zeroForOne} amount ${amounts[i]}`,
      );
      t.same(r, quoteExactInputSingle(full, zeroForOne, amounts[i]), 'identical to the single quote');
    }
  }
});

t.test('quoteExactOutputLadder: one result per output amount, equal to the SDK; outputs the pool cannot deliver are flagged', async (t) => {
  t.same(quoteExactOutputLadder(full, true, []), []);
  t.throws(() => quoteExactOutputLadder(full, true, [5n, 3n]), {
    code: 'INVALID_AMOUNT',
    message: 'quoteExactOutputLadder: amounts must be positive and ascending',
  });
  t.throws(() => quoteExactOutputLadder(full, true, [-1n, 3n]), { code: 'INVALID_AMOUNT' });
  // All the pool can deliver is about 2.4e17 of either token: the four largest outputs are partial fills.
  const amounts = [1n, 10n ** 12n, 10n ** 12n, 10n ** 16n, 10n ** 17n, 3n * 10n ** 17n, 10n ** 18n, 10n ** 20n, 10n ** 30n];
  for (const zeroForOne of [true, false]) {
    const ladder = quoteExactOutputLadder(full, zeroForOne, amounts);
    let short = 0;
    for (let i = 0; i < amounts.length; i++) {
      const expected = await sdkSwap(zeroForOne, -amounts[i]);
      const r = ladder[i];
      t.ok(r.ok, `${i} ok`);
      if (!r.ok) continue;
      t.same(
        [r.amountIn, r.sqrtPriceX96After, r.tickAfter, r.liquidityAfter],
        [expected.amountCalculated, expected.sqrtPriceX96, expected.tick, expected.liquidity],
        `zeroForOne=${zeroForOne} amountOut ${amounts[i]}`,
      );
      t.same(r, quoteExactOutputSingle(full, zeroForOne, amounts[i]), 'identical to the single quote');
      if (!r.filledFully) {
        short++;
        t.ok(r.amountOut < amounts[i], `amountOut ${amounts[i]}: only ${r.amountOut} can be delivered`);
      } else t.equal(r.amountOut, amounts[i]);
    }
    t.equal(short, 4, `zeroForOne=${zeroForOne}: the four largest outputs are partial fills`);
  }
});

t.test('amounts beyond what the whole walk swaps: answered from the walk kept per pool, equal to the SDK and to the walk', async (t) => {
  // Each pool is new here: nothing is kept for it yet. The whole window (the walk ends at the price bound) and a
  // window of two words (it ends at their edge, INSUFFICIENT_KNOWN_LIQUIDITY).
  const pools = {
    full: createV3Pool(data([-58, 57])),
    narrow: createV3Pool(data([-1, 0], { ticks: TICKS.filter(([x]) => x >= -15360 && x < 15360) })),
  };
  const state = (r: SwapResult) => [r.complete, r.amountSpecifiedRemaining, r.amountCalculated, r.sqrtPriceX96, r.tick, r.liquidity];
  for (const [name, pool] of Object.entries(pools)) {
    for (const exactInput of [true, false]) {
      for (const zeroForOne of [true, false]) {
        const label = `${name} ${exactInput ? 'exact input' : 'exact output'} zeroForOne=${zeroForOne}`;
        const signed = (a: bigint) => (exactInput ? a : -a);
        // The walk with QuoterV2's default limit given explicitly: the same walk, never answered from what is kept.
        const walked = (a: bigint) => swapLadder(pool, zeroForOne, [signed(a)], zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n)[0];
        // The first amount left unfilled has the pool's whole walk kept; what it swapped is the whole walk's.
        const first = swapLadder(pool, zeroForOne, [signed(10n ** 30n)])[0];
        t.not(first.amountSpecifiedRemaining, 0n, `${label}: 1e30 is left unfilled`);
        const used = exactInput ? 10n ** 30n - first.amountSpecifiedRemaining : 10n ** 30n + first.amountSpecifiedRemaining;
        const amounts = [1n, used / 2n, used - 1n, used, used + 1n, 2n * used, 10n ** 30n];
        // Asked twice: the second time every amount beyond `used` is answered from the kept walk.
        for (const round of [1, 2]) {
          const ladder = swapLadder(pool, zeroForOne, amounts.map(signed));
          for (let i = 0; i < amounts.length; i++) {
            const alone = swapLadder(pool, zeroForOne, [signed(amounts[i])])[0];
            const expected = walked(amounts[i]);
            t.same(state(ladder[i]), state(expected), `${label} round ${round}: ${amounts[i]} in a ladder`);
            t.same(state(alone), state(expected), `${label} round ${round}: ${amounts[i]} alone`);
            t.equal(
              expected.amountSpecifiedRemaining === 0n,
              amounts[i] <= used,
              `${label}: ${amounts[i]} filled exactly when not beyond ${used}`,
            );
            if (name === 'full') {
              const sdk = await sdkSwap(zeroForOne, signed(amounts[i]));
              t.same(
                [ladder[i].amountCalculated, ladder[i].sqrtPriceX96, ladder[i].tick, ladder[i].liquidity],
                [sdk.amountCalculated, sdk.sqrtPriceX96, sdk.tick, sdk.liquidity],
                `${label} round ${round}: ${amounts[i]} equals the SDK`,
              );
            }
          }
          // The beyond amounts of a ladder whose others are walked, and a ladder of them alone.
          t.same(
            swapLadder(pool, zeroForOne, [used + 1n, 10n ** 30n].map(signed)).map(state),
            [walked(used + 1n), walked(10n ** 30n)].map(state),
          );
        }
      }
    }
  }
});

t.test('amounts beyond the whole walk on random pools: every fee tier and window, the same as the walk', async (t) => {
  const rng = new Rng(20261127);
  let beyond = 0;
  for (let k = 0; k < 80; k++) {
    const p = randomPool(rng, { maxPositions: rng.next() < 0.3 ? 120 : 30, otherTiers: true });
    const s = p.tickSpacing;
    // The whole bitmap for wide spacings (the walk ends at the price bound), else the words of the ticks and a few
    // beyond (it ends at their edge), as quoter.test.ts builds them.
    const curWord = Math.floor(p.tick / s) >> 8;
    const words: [number, number] =
      s >= 50
        ? fullWords(s)
        : [Math.floor(p.ticks[0][0] / s / 256) - rng.int(0, 4), Math.floor(p.ticks[p.ticks.length - 1][0] / s / 256) + rng.int(0, 4)];
    if (words[0] > curWord) words[0] = curWord;
    if (words[1] < curWord) words[1] = curWord;
    const build = () => createV3Pool({ ...p, ticks: p.ticks.map(([x, n]) => [x, n] as const), bitmapWords: words });
    for (const exactInput of [true, false]) {
      for (const zeroForOne of [true, false]) {
        const signed = (a: bigint) => (exactInput ? a : -a);
        const limit = zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n;
        const reference = build();
        const walked = (a: bigint) => swapLadder(reference, zeroForOne, [signed(a)], limit)[0];
        let probe: SwapResult;
        try {
          probe = walked(10n ** 45n);
        } catch {
          continue; // a pool whose whole walk reverts keeps nothing
        }
        if (probe.amountSpecifiedRemaining === 0n) continue;
        const used = exactInput ? 10n ** 45n - probe.amountSpecifiedRemaining : 10n ** 45n + probe.amountSpecifiedRemaining;
        if (used < 3n) continue;
        // A new pool whose first amount left unfilled is just beyond: then the ladder and the amounts alone.
        const pool = build();
        const amounts = [used / 3n + 1n, used - 1n, used, used + 1n, used + 1n + rng.range(0n, 10n ** 45n - used - 1n), 10n ** 45n];
        const label = `pool ${k} fee ${p.fee} spacing ${s} ${exactInput ? 'in' : 'out'} zeroForOne=${zeroForOne}`;
        const state = (r: SwapResult) => [r.complete, r.amountSpecifiedRemaining, r.amountCalculated, r.sqrtPriceX96, r.tick, r.liquidity];
        t.same(state(swapLadder(pool, zeroForOne, [signed(used + 1n)])[0]), state(walked(used + 1n)), `${label}: first beyond`);
        t.same(
          swapLadder(pool, zeroForOne, amounts.map(signed)).map(state),
          amounts.map((a) => state(walked(a))),
          `${label}: ladder`,
        );
        for (const a of amounts) t.same(state(swapLadder(pool, zeroForOne, [signed(a)])[0]), state(walked(a)), `${label}: ${a} alone`);
        beyond++;
      }
    }
  }
  t.ok(beyond > 150, `${beyond} pools, directions and sides compared beyond their whole walk`);
});

interface SnapshotPool {
  version: string;
  address: string;
  fee: number;
  sqrtPriceX96?: string;
  tick?: number;
  liquidity?: string;
  tickSpacing?: number;
  bitmapWords?: [number, number];
  ticks?: [number, string][];
}

t.test('pools of the shipped devnet snapshot: quotes equal the SDK', async (t) => {
  const file = new URL('../../seeds/snapshots/devnet.json', import.meta.url);
  // The snapshot ships with the repository: its absence is a failure, not a reason to compare nothing.
  t.ok(existsSync(file), 'seeds/snapshots/devnet.json is present');
  if (!existsSync(file)) return;
  const snapshot = JSON.parse(readFileSync(file, 'utf8')) as { pools: SnapshotPool[] };
  let compared = 0;
  for (const p of snapshot.pools) {
    if (p.version !== 'v3' || !v3sdk.TICK_SPACINGS[p.fee] || v3sdk.TICK_SPACINGS[p.fee] !== p.tickSpacing) continue;
    const ticks = p.ticks!.map(([x, n]) => [x, BigInt(n)] as [number, bigint]);
    if (ticks.reduce((a, [, n]) => a + n, 0n) !== 0n) continue; // the SDK's tick list must be complete
    const pool: V3Pool = createV3Pool({
      sqrtPriceX96: BigInt(p.sqrtPriceX96!),
      tick: p.tick!,
      liquidity: BigInt(p.liquidity!),
      tickSpacing: p.tickSpacing!,
      fee: p.fee,
      ticks,
      bitmapWords: p.bitmapWords!,
    });
    const sdkPool = sdkPoolOf({
      fee: p.fee,
      tickSpacing: p.tickSpacing!,
      sqrtPriceX96: pool.sqrtPriceX96,
      tick: pool.tick,
      liquidity: pool.liquidity,
      ticks: ticks.map(([x, n]) => [x, n, n < 0n ? -n : n]),
      rangeLiquidity: [],
      liquidityBelowAll: 0n,
    });
    for (const zeroForOne of [true, false]) {
      for (let e = 6; e <= 26; e += 4) {
        const amount = 10n ** BigInt(e);
        const q = quoteExactInputSingle(pool, zeroForOne, amount);
        const r = await sdkPool.swap(zeroForOne, j(amount));
        if (!q.ok) {
          // Beyond the seeded window: the SDK (which has no window) must have walked out of it.
          const s = pool.tickSpacing;
          t.ok(
            zeroForOne ? r.tickCurrent < pool.bitmapWords[0] * 256 * s : r.tickCurrent >= (pool.bitmapWords[1] * 256 + 255) * s,
            `${p.address} ${e}: unknown only past the window`,
          );
          continue;
        }
        compared++;
        t.same(
          [q.amountOut, q.sqrtPriceX96After, q.tickAfter, q.liquidityAfter],
          [-b(r.amountCalculated), b(r.sqrtRatioX96), r.tickCurrent, b(r.liquidity)],
          `${p.address} zeroForOne=${zeroForOne} 1e${e}`,
        );
      }
    }
  }
  t.ok(compared > 0, `${compared} snapshot quotes compared`);
});
