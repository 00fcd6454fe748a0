// bestTrade when no single path can take the whole amount (issue 23 item 3): a split routes each pool only the share
// it can take, on the hand-made pairs of test/helpers/handGraph.ts. Amounts from Uniswap V2's getAmountIn written
// out by hand (UniswapV2Library, 0.3% fee); the uint112 bound from UniswapV2Pair._update.
import t from 'tap';
import type { SnapshotPoolV2 } from '../../src/protocols/uniswapV2/SnapshotPoolV2.ts';
import { bestTrade } from '../../src/routing/bestTrade.ts';
import type { TradeRequest } from '../../src/routing/searchGas.ts';
import { handIndex, handPairs, P, USDC, WETH } from '../helpers/handGraph.ts';

const E18 = 10n ** 18n;
const MAX_UINT112 = 2n ** 112n - 1n;
const into = (amountOut: bigint, reserveIn: bigint, reserveOut: bigint): bigint =>
  (reserveIn * amountOut * 1000n) / ((reserveOut - amountOut) * 997n) + 1n;
const request = (over: Partial<TradeRequest> & Pick<TradeRequest, 'tokenIn' | 'tokenOut' | 'amount'>): TradeRequest => ({
  tradeType: 'exactIn',
  maxHops: 2,
  maxSplits: 3,
  gasPriceWei: 0n,
  allow: () => true,
  ...over,
});
const reserves = (pool: string, token: string): [bigint, bigint] => {
  const p = handPairs.find((x) => x.address === pool)!;
  const [r0, r1] = [BigInt(p.reserve0), BigInt(p.reserve1)];
  return p.token0 === token ? [r0, r1] : [r1, r0];
};

t.test('exact output beyond every single path (P1 holds 100 WETH, USDC -> DAI -> WETH ends in 50): a split', async (t) => {
  // 110 WETH: more than P1's 100 and P2's 50. The path through P3 and P2 is priced at a quarter (27.5 WETH: P2 asks
  // 150,000 x 27.5 / (22.5 x 0.997) ~ 183,900 DAI of P3's 200,000), so the search considers it.
  const amount = 110n * E18;
  const single = bestTrade(handIndex(), request({ tokenIn: USDC, tokenOut: WETH, amount, tradeType: 'exactOut', maxSplits: 1 }));
  t.strictSame(single, { ok: false, code: 'INSUFFICIENT_LIQUIDITY' }, 'one path cannot deliver 110 WETH');
  const outcome = bestTrade(handIndex(), request({ tokenIn: USDC, tokenOut: WETH, amount, tradeType: 'exactOut' }));
  if (!outcome.ok) throw new Error(outcome.code);
  const { trade } = outcome;
  t.equal(trade.amountOut, amount, 'exactly 110 WETH');
  t.ok(trade.splits.length >= 2, 'over more than one path');
  let paid = 0n;
  for (const { route } of trade.splits) {
    // Each leg, from the last back: the input getAmountIn asks of its pair for the leg's output.
    for (const leg of route.legs) {
      const [reserveIn, reserveOut] = reserves(leg.pool, leg.tokenIn);
      t.ok(leg.amountOut < reserveOut, `${leg.pool}: its output is within its reserve`);
      t.equal(leg.amountIn, into(leg.amountOut, reserveIn, reserveOut), `${leg.pool}: getAmountIn by hand`);
    }
    paid += route.amountIn;
  }
  t.equal(trade.amountIn, paid);
  t.ok(
    trade.splits.some((s) => s.route.legs[0].pool === P(1)),
    'P1 takes a share',
  );
});

t.test('exact input beyond what one pair can hold (uint112): split over pairs, each within its bound', async (t) => {
  // Two WETH/USDC pairs holding 2^111 WETH each: either takes at most 2^112 - 1 - 2^111 = 2^111 - 1 more WETH, so
  // 1.5 x 2^111 WETH needs both.
  const half = 2n ** 111n;
  const pair = (n: number): SnapshotPoolV2 => ({
    address: `0x00000000000000000000000000000000000000b${n}`,
    dex: 'uniswap',
    version: 'v2',
    token0: WETH,
    token1: USDC,
    fee: 3000,
    balance0: half.toString(),
    balance1: (10n ** 15n).toString(),
    reserve0: half.toString(),
    reserve1: (10n ** 15n).toString(),
  });
  const pairs = [pair(1), pair(2)];
  const amount = 3n * 2n ** 110n;
  t.ok(half + amount > MAX_UINT112, 'one pair cannot take it (hand check)');
  const single = bestTrade(handIndex(pairs), request({ tokenIn: WETH, tokenOut: USDC, amount, maxSplits: 1, maxHops: 1 }));
  t.strictSame(single, { ok: false, code: 'AMOUNT_TOO_LARGE' }, 'one path: too large');
  const outcome = bestTrade(handIndex(pairs), request({ tokenIn: WETH, tokenOut: USDC, amount, maxHops: 1 }));
  if (!outcome.ok) throw new Error(outcome.code);
  t.equal(outcome.trade.splits.length, 2, 'both pairs');
  t.equal(outcome.trade.amountIn, amount);
  for (const { route } of outcome.trade.splits) t.ok(half + route.amountIn <= MAX_UINT112, `${route.legs[0].pool}: within uint112`);
});
