// The quoteLadder contract every pool protocol honours (PoolProtocol.quoteLadder): an ascending ladder of amounts
// priced in one walk gives, entry by entry, what pricing each amount alone gives; exact input and exact output agree
// (the input an output needs buys at least that output); refusals carry their code. Every priced entry equals the
// Uniswap SDKs' answer for the same pool (@uniswap/v2-sdk Pair, @uniswap/v3-sdk Pool); every refusal is placed by hand
// computation below, not by the code under test.
import t from 'tap';
import type { RefusalCode } from '../../src/errors/RefusalCode.ts';
import type { LadderQuote, TradeType } from '../../src/protocols/PoolProtocol.ts';
import { PROTOCOL_KINDS, protocolOf, type SnapshotPool, snapshotProtocol } from '../../src/protocols/registry.ts';
import type { SnapshotPoolV2 } from '../../src/protocols/uniswapV2/SnapshotPoolV2.ts';
import type { SnapshotPoolV3 } from '../../src/protocols/uniswapV3/SnapshotPoolV3.ts';
import type { SnapshotPoolV4 } from '../../src/protocols/uniswapV4/SnapshotPoolV4.ts';
import { b, v3sdk } from '../amm/oracle.ts';
import { type SdkAmount, type SdkToken, sdkAmount, sdkCore, sdkRaw, sdkV2Pair, sdkV3Pool } from '../helpers/sdkPools.ts';

const TOKEN0 = '0x1111111111111111111111111111111111111111';
const TOKEN1 = '0x2222222222222222222222222222222222222222';
const sdk0 = new sdkCore.Token(1, TOKEN0, 18);
const sdk1 = new sdkCore.Token(1, TOKEN1, 18);
const common = { dex: 'uniswap', token0: TOKEN0, token1: TOKEN1, fee: 3000, balance0: '0', balance1: '0' } as const;

/** A pair of 1,000 token0 (18 decimals) against 2,000 token1 (6 decimals) at 0.3%, the v2-sdk's fee. */
const v2: SnapshotPoolV2 = {
  ...common,
  address: '0x9999999999999999999999999999999999999999',
  version: 'v2',
  reserve0: (10n ** 21n).toString(),
  reserve1: (2n * 10n ** 9n).toString(),
};

/**
 * A 0.3% pool (tick spacing 60) at tick 37 with two positions: 2e18 over [-600, 600] and 5e17 over [-1200, 1200];
 * no liquidity beyond ±1200 in the window read (bitmap words -1..0, ticks -15360..15359).
 */
const v3: SnapshotPoolV3 = {
  ...common,
  address: '0xaAaAaAaaAaAaAaaAaAAAAAAAAaaaAaAaAaaAaaAa',
  version: 'v3',
  sqrtPriceX96: (b(v3sdk.TickMath.getSqrtRatioAtTick(37)) + 12_345n).toString(),
  tick: 37,
  liquidity: (25n * 10n ** 17n).toString(),
  tickSpacing: 60,
  bitmapWords: [-1, 0],
  ticks: [
    [-1200, (5n * 10n ** 17n).toString()],
    [-600, (2n * 10n ** 18n).toString()],
    [600, (-2n * 10n ** 18n).toString()],
    [1200, (-5n * 10n ** 17n).toString()],
  ],
};

/**
 * The same curve as a hookless v4 pool without a protocol fee: v4-core's Pool.swap then walks exactly as
 * UniswapV3Pool.swap does (the same SwapMath, the fee charged on the input), so the v3 SDK's pool is its oracle
 * here and its ladders are v3's (the v4 walk against V4Quoter: test/protocols/uniswapV4.devnet.test.ts).
 */
const v4: SnapshotPoolV4 = {
  ...v3,
  address: `0x${'ab'.repeat(32)}`,
  version: 'v4',
  poolManager: '0x0000000000000000000000000000000000004444',
  hooks: '0x0000000000000000000000000000000000000000',
  lpFee: 3000,
  protocolFee: 0,
};

/** One ladder: its amounts (ascending) and, by amount, the refusals worked out by hand; every other entry is priced. */
interface Ladder {
  readonly zeroForOne: boolean;
  readonly tradeType: TradeType;
  readonly amounts: readonly bigint[];
  readonly refused: ReadonlyMap<bigint, RefusalCode>;
}

const e = (n: number): bigint => 10n ** BigInt(n);

/*
 * v2 (UniswapV2Library, fee 997/1000): out = a·997·r1 / (r0·1000 + a·997). 1 and 1,000 wei of token0 buy
 * 1.994e15 / 1e24 -> 0 token1: too small; 1e12 buys 1. An exact output of the whole reserve or more cannot be
 * paid (getAmountIn requires amountOut < reserveOut).
 */
const V2_LADDERS: readonly Ladder[] = [
  {
    zeroForOne: true,
    tradeType: 'exactIn',
    amounts: [1n, e(3), e(12), e(18), e(21), e(24)],
    refused: new Map([
      [1n, 'AMOUNT_TOO_SMALL'],
      [e(3), 'AMOUNT_TOO_SMALL'],
    ]),
  },
  { zeroForOne: false, tradeType: 'exactIn', amounts: [1n, e(6), e(9), e(12), e(15)], refused: new Map() },
  {
    zeroForOne: true,
    tradeType: 'exactOut',
    amounts: [1n, e(6), e(9), 2n * e(9) - 1n, 2n * e(9), e(12)],
    refused: new Map([
      [2n * e(9), 'INSUFFICIENT_LIQUIDITY'],
      [e(12), 'INSUFFICIENT_LIQUIDITY'],
    ]),
  },
  {
    zeroForOne: false,
    tradeType: 'exactOut',
    amounts: [1n, e(12), e(18), e(20), e(21) - 1n, e(21), e(22)],
    refused: new Map([
      [e(21), 'INSUFFICIENT_LIQUIDITY'],
      [e(22), 'INSUFFICIENT_LIQUIDITY'],
    ]),
  },
];

/*
 * v3, by hand with √p(t) = 1.0001^(t/2) and L = 2.5e18 inside [-600, 600], 5e17 in the outer bands:
 * - token0 in down to tick -1200: 2.5e18·(1/0.97045 − 1/1.00185) + 5e17·(1/0.94176 − 1/0.97045) ≈ 8.1e16 + 1.6e16
 *   ≈ 9.7e16 (before the 0.3% fee): 9e16 crosses tick -600 only, 2e17 walks out of the known liquidity;
 * - token1 out down to tick -1200: 2.5e18·(1.00185 − 0.97045) + 5e17·(0.97045 − 0.94176) ≈ 7.85e16 + 1.43e16 ≈ 9.3e16:
 *   8e16 crosses tick -600, 1e17 cannot be paid;
 * - token1 in up to tick 1200: 2.5e18·(1.03045 − 1.00185) + 5e17·(1.06184 − 1.03045) ≈ 7.15e16 + 1.57e16 ≈ 8.7e16:
 *   8e16 (7.98e16 after the fee) crosses tick 600, 2e17 walks out;
 * - token0 out up to tick 1200: 2.5e18·(1/1.00185 − 1/1.03045) + 5e17·(1/1.03045 − 1/1.06184) ≈ 6.93e16 + 1.43e16
 *   ≈ 8.4e16: 7.5e16 crosses tick 600, 1e17 cannot be paid.
 * One wei in pays only the fee (1·997000/1e6 rounds to 0 moving the price): nothing out, too small.
 */
const V3_LADDERS: readonly Ladder[] = [
  {
    zeroForOne: true,
    tradeType: 'exactIn',
    amounts: [1n, e(9), e(15), 5n * e(16), 9n * e(16), 2n * e(17), e(21)],
    refused: new Map([
      [1n, 'AMOUNT_TOO_SMALL'],
      [2n * e(17), 'INSUFFICIENT_LIQUIDITY'],
      [e(21), 'INSUFFICIENT_LIQUIDITY'],
    ]),
  },
  {
    zeroForOne: false,
    tradeType: 'exactIn',
    amounts: [1n, e(9), e(15), 5n * e(16), 8n * e(16), 2n * e(17), e(21)],
    refused: new Map([
      [1n, 'AMOUNT_TOO_SMALL'],
      [2n * e(17), 'INSUFFICIENT_LIQUIDITY'],
      [e(21), 'INSUFFICIENT_LIQUIDITY'],
    ]),
  },
  {
    zeroForOne: true,
    tradeType: 'exactOut',
    amounts: [1n, e(9), e(15), 5n * e(16), 8n * e(16), e(17), e(21)],
    refused: new Map([
      [e(17), 'INSUFFICIENT_LIQUIDITY'],
      [e(21), 'INSUFFICIENT_LIQUIDITY'],
    ]),
  },
  {
    zeroForOne: false,
    tradeType: 'exactOut',
    amounts: [1n, e(9), e(15), 5n * e(16), 75n * e(15), e(17), e(21)],
    refused: new Map([
      [e(17), 'INSUFFICIENT_LIQUIDITY'],
      [e(21), 'INSUFFICIENT_LIQUIDITY'],
    ]),
  },
];

/** The SDK's answer for one amount: the other side of the swap, and for v3 the tick the pool ends on. */
type Oracle = (zeroForOne: boolean, tradeType: TradeType, amount: bigint) => Promise<{ other: bigint; tick?: number }>;

interface SdkPair {
  getOutputAmount(amount: SdkAmount): [SdkAmount, unknown];
  getInputAmount(amount: SdkAmount): [SdkAmount, unknown];
}
interface SdkPool {
  getOutputAmount(amount: SdkAmount): Promise<[SdkAmount, { tickCurrent: number }]>;
  getInputAmount(amount: SdkAmount): Promise<[SdkAmount, { tickCurrent: number }]>;
}

const sides = (zeroForOne: boolean): [SdkToken, SdkToken] => (zeroForOne ? [sdk0, sdk1] : [sdk1, sdk0]);

const v2Oracle: Oracle = async (zeroForOne, tradeType, amount) => {
  const pair = sdkV2Pair(v2, sdk0, sdk1) as unknown as SdkPair;
  const [tokenIn, tokenOut] = sides(zeroForOne);
  const [other] =
    tradeType === 'exactIn' ? pair.getOutputAmount(sdkAmount(tokenIn, amount)) : pair.getInputAmount(sdkAmount(tokenOut, amount));
  return { other: sdkRaw(other) };
};

const v3Oracle: Oracle = async (zeroForOne, tradeType, amount) => {
  const pool = sdkV3Pool(v3, sdk0, sdk1) as unknown as SdkPool;
  const [tokenIn, tokenOut] = sides(zeroForOne);
  const [other, after] =
    tradeType === 'exactIn'
      ? await pool.getOutputAmount(sdkAmount(tokenIn, amount))
      : await pool.getInputAmount(sdkAmount(tokenOut, amount));
  return { other: sdkRaw(other), tick: after.tickCurrent };
};

const CASES: Record<string, { readonly state: SnapshotPool; readonly ladders: readonly Ladder[]; readonly oracle: Oracle }> = {
  uniswapV2: { state: v2, ladders: V2_LADDERS, oracle: v2Oracle },
  uniswapV3: { state: v3, ladders: V3_LADDERS, oracle: v3Oracle },
  uniswapV4: { state: v4, ladders: V3_LADDERS, oracle: v3Oracle },
};
/** Kinds without a case: the wrap pseudo-pool (1:1, no state; issue 22 removes it). */
// Balancer v2: its ladders are checked against BalancerQueries.querySwap on the devnet
// (test/protocols/balancerSeedRoute.devnet.test.ts, through pricePath's one walk per ladder).
const EXEMPT: ReadonlySet<string> = new Set(['wrap', 'balancerWeighted', 'balancerStable']);

const label = (l: Ladder): string => `${l.zeroForOne ? 'zeroForOne' : 'oneForZero'} ${l.tradeType}`;

t.test('every protocol in the registry has a case here', async (t) => {
  for (const kind of PROTOCOL_KINDS) t.ok(EXEMPT.has(kind) || Object.hasOwn(CASES, kind), kind);
});

for (const [kind, { state, ladders, oracle }] of Object.entries(CASES)) {
  const protocol = protocolOf(kind);
  const pool = snapshotProtocol(state.version).fromSnapshot(state);

  t.test(`${kind}: one walk prices each amount as it is priced alone`, async (t) => {
    t.equal(pool.kind, kind);
    for (const ladder of ladders) {
      const walk = protocol.quoteLadder(pool, ladder.zeroForOne, ladder.tradeType, ladder.amounts);
      t.equal(walk.length, ladder.amounts.length, `${label(ladder)}: one entry per amount`);
      ladder.amounts.forEach((amount, i) => {
        t.same(walk[i], protocol.quoteLadder(pool, ladder.zeroForOne, ladder.tradeType, [amount])[0], `${label(ladder)} ${amount}`);
      });
    }
    t.same(protocol.quoteLadder(pool, true, 'exactIn', []), [], 'an empty ladder');
  });

  t.test(`${kind}: priced entries equal the SDK, refusals carry the codes worked out by hand`, async (t) => {
    for (const ladder of ladders) {
      const walk = protocol.quoteLadder(pool, ladder.zeroForOne, ladder.tradeType, ladder.amounts);
      for (const [i, amount] of ladder.amounts.entries()) {
        const q = walk[i];
        const name = `${label(ladder)} ${amount}`;
        const code = ladder.refused.get(amount);
        if (code) {
          t.same(q.ok ? q : { ok: q.ok, code: q.code }, { ok: false, code }, `${name}: refused`);
          if (!q.ok) t.ok(q.reason.length > 0, `${name}: with a reason`);
          continue;
        }
        if (!q.ok) {
          t.fail(`${name}: refused (${q.code}: ${q.reason})`);
          continue;
        }
        const { other, tick } = await oracle(ladder.zeroForOne, ladder.tradeType, amount);
        const expected = ladder.tradeType === 'exactIn' ? { amountIn: amount, amountOut: other } : { amountIn: other, amountOut: amount };
        t.same({ amountIn: q.amountIn, amountOut: q.amountOut }, expected, name);
        if (tick === undefined) t.equal(q.ticksCrossed, 0, `${name}: no ticks`);
        else {
          // The SDK's final tick against the initialized ticks ±600 and ±1200: how many the swap went past.
          const crossed = ladder.zeroForOne ? [-600, -1200].filter((x) => tick < x).length : [600, 1200].filter((x) => tick >= x).length;
          t.equal(q.ticksCrossed, crossed, `${name}: ticks crossed (SDK ends on tick ${tick})`);
        }
      }
    }
  });

  t.test(`${kind}: a larger amount buys (or costs) no less and crosses no fewer ticks; once the pool runs dry it stays dry`, async (t) => {
    for (const ladder of ladders) {
      const walk = protocol.quoteLadder(pool, ladder.zeroForOne, ladder.tradeType, ladder.amounts);
      let previous: LadderQuote | undefined;
      let dry = false;
      for (const [i, q] of walk.entries()) {
        const name = `${label(ladder)} ${ladder.amounts[i]}`;
        if (dry) t.same(q.ok ? 'priced' : q.code, 'INSUFFICIENT_LIQUIDITY', `${name}: after a larger-amount refusal`);
        if (!q.ok) {
          dry ||= q.code === 'INSUFFICIENT_LIQUIDITY';
          continue;
        }
        if (previous?.ok) {
          // The other side grows with the amount (the price per unit need not fall: rounding costs small amounts most).
          const [other, before] = ladder.tradeType === 'exactIn' ? [q.amountOut, previous.amountOut] : [q.amountIn, previous.amountIn];
          t.ok(other >= before, `${name}: ${ladder.tradeType === 'exactIn' ? 'buys' : 'costs'} no less than the smaller amount`);
          t.ok(q.ticksCrossed >= previous.ticksCrossed, `${name}: crosses no fewer ticks`);
        }
        previous = q;
      }
    }
  });

  t.test(`${kind}: exact input then exact output agree`, async (t) => {
    for (const ladder of ladders.filter((l) => l.tradeType === 'exactIn')) {
      const walk = protocol.quoteLadder(pool, ladder.zeroForOne, 'exactIn', ladder.amounts);
      for (const q of walk) {
        if (!q.ok) continue;
        const name = `${label(ladder)} ${q.amountIn}`;
        const [back] = protocol.quoteLadder(pool, ladder.zeroForOne, 'exactOut', [q.amountOut]);
        if (!back.ok) {
          t.fail(`${name}: the output it bought cannot be bought exactly (${back.code})`);
          continue;
        }
        t.ok(back.amountIn <= q.amountIn, `${name}: its output costs no more than it (${back.amountIn})`);
        const [again] = protocol.quoteLadder(pool, ladder.zeroForOne, 'exactIn', [back.amountIn]);
        t.ok(again.ok && again.amountOut >= q.amountOut, `${name}: the input an output needs buys at least that output`);
      }
    }
  });
}

// A 100% fee (v4 allows it) pays nothing out whatever the input: its exact walk refuses every amount as a pool that
// cannot serve it (INSUFFICIENT_LIQUIDITY, not AMOUNT_TOO_SMALL: no larger amount would do), and its curve says so
// (one segment of no output, not "unknown", which would leave every path through it unbounded and priced first).
t.test('uniswapV4: a 100% fee pool pays nothing out, and its curve says so', async (t) => {
  const protocol = protocolOf('uniswapV4');
  const pool = protocol.fromSnapshot({ ...v4, fee: 1_000_000, lpFee: 1_000_000 });
  const amounts = [1n, e(15), e(18)];
  for (const zeroForOne of [true, false]) {
    const walk = protocol.quoteLadder(pool, zeroForOne, 'exactIn', amounts);
    t.same(
      walk.map((q) => (q.ok ? q.amountOut : `${q.code}: ${q.reason}`)),
      amounts.map(() => 'INSUFFICIENT_LIQUIDITY: a 100% fee pool pays nothing out'),
      `zeroForOne ${zeroForOne}: buys nothing`,
    );
    const next = protocol.curveSegments(pool, zeroForOne, 'exactIn');
    const first = next();
    t.ok(
      first !== undefined && first.a === 0 && first.len === Number.POSITIVE_INFINITY,
      `zeroForOne ${zeroForOne}: one segment of no output`,
    );
    t.equal(next(), undefined, `zeroForOne ${zeroForOne}: and nothing after it`);
  }
});
