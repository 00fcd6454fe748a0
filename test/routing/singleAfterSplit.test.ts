// bestTrade prices the single paths after the split search, only where a path's bound can reach the split's score
// (issue 24): a path beyond the steered ones (BestTradeOptions.maxRoutes) that alone beats the split of the steered
// ones is still priced and chosen. Hand-made pairs (test/helpers/handGraph.ts): two shallow WETH/DAI pairs (the
// steered direct paths, pool-disjoint: their split exists) and the deep WETH -> USDC -> DAI path through P1 and P3.
// Amounts from Uniswap V2's getAmountOut / getAmountIn written out by hand (UniswapV2Library, 0.3% fee).
import t from 'tap';
import type { SnapshotPoolV2 } from '../../src/protocols/uniswapV2/SnapshotPoolV2.ts';
import { bestTrade } from '../../src/routing/bestTrade.ts';
import { DAI, handIndex, handPairs, P, WETH, wethToDai } from '../helpers/handGraph.ts';

const E18 = 10n ** 18n;
const out = (amountIn: bigint, reserveIn: bigint, reserveOut: bigint): bigint =>
  (amountIn * 997n * reserveOut) / (reserveIn * 1000n + amountIn * 997n);
const into = (amountOut: bigint, reserveIn: bigint, reserveOut: bigint): bigint =>
  (reserveIn * amountOut * 1000n) / ((reserveOut - amountOut) * 997n) + 1n;

/** A shallow WETH/DAI pair: 1 WETH / 3,000 DAI. */
const shallow = (n: number): SnapshotPoolV2 => ({
  address: `0x00000000000000000000000000000000000000b${n}`,
  dex: 'uniswap',
  version: 'v2',
  token0: WETH,
  token1: DAI,
  fee: 3000,
  balance0: E18.toString(),
  balance1: (3000n * E18).toString(),
  reserve0: E18.toString(),
  reserve1: (3000n * E18).toString(),
});
const pairs = [handPairs[0], handPairs[2], shallow(1), shallow(2)];
const reserves = (pool: string, token: string): [bigint, bigint] => {
  const p = pairs.find((x) => x.address === pool)!;
  const [r0, r1] = [BigInt(p.reserve0), BigInt(p.reserve1)];
  return p.token0 === token ? [r0, r1] : [r1, r0];
};
const USDC = '0x2222222222222222222222222222222222222222';

t.test('a path beyond the steered ones that beats their split alone is chosen (exact input and exact output)', async (t) => {
  const index = handIndex(pairs);
  for (const [tradeType, amount] of [
    ['exactIn', E18],
    ['exactOut', 1000n * E18],
  ] as const) {
    // The steered paths alone (the deep path left out): a split of both shallow pairs.
    const steered = bestTrade(index, { ...wethToDai({ tradeType, amount }), allow: (e) => e.address !== P(1) }, { maxRoutes: 2 });
    if (!steered.ok) throw new Error(steered.code);
    t.equal(steered.trade.splits.length, 2, `${tradeType}: without the deep path, a split of the two shallow pairs`);
    const outcome = bestTrade(index, wethToDai({ tradeType, amount }), { maxRoutes: 2 });
    if (!outcome.ok) throw new Error(outcome.code);
    const { trade } = outcome;
    t.strictSame(
      trade.splits.map((s) => s.route.legs.map((l) => l.pool)),
      [[P(1), P(3)]],
      `${tradeType}: the deep path alone, though it is not steered`,
    );
    const [r1In, r1Out] = reserves(P(1), WETH);
    const [r3In, r3Out] = reserves(P(3), USDC);
    if (tradeType === 'exactIn') {
      t.equal(trade.amountOut, out(out(amount, r1In, r1Out), r3In, r3Out), 'getAmountOut through P1 and P3 by hand');
      t.ok(trade.amountOut > steered.trade.amountOut, 'more than the split');
    } else {
      t.equal(trade.amountIn, into(into(amount, r3In, r3Out), r1In, r1Out), 'getAmountIn through P3 and P1 by hand');
      t.ok(trade.amountIn < steered.trade.amountIn, 'less than the split asks');
    }
  }
});
