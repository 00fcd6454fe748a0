// bestTrade with the native asset at an end, on the hand-made pairs of test/helpers/handGraph.ts: the routes run
// between the wrapped tokens and the trade records the native end; native <-> wrapped alone is a trade without
// splits. Amounts from Uniswap V2's getAmountOut / getAmountIn written out by hand (UniswapV2Library, 0.3% fee).
import t from 'tap';
import { bestTrade } from '../../src/routing/bestTrade.ts';
import type { TradeRequest } from '../../src/routing/searchGas.ts';
import { DAI, ETH, handIndex, P, WETH, XYZ } from '../helpers/handGraph.ts';

const E18 = 10n ** 18n;
const index = handIndex();
const out = (amountIn: bigint, reserveIn: bigint, reserveOut: bigint): bigint =>
  (amountIn * 997n * reserveOut) / (reserveIn * 1000n + amountIn * 997n);
const into = (amountOut: bigint, reserveIn: bigint, reserveOut: bigint): bigint =>
  (reserveIn * amountOut * 1000n) / ((reserveOut - amountOut) * 997n) + 1n;
const request = (over: Partial<TradeRequest> & Pick<TradeRequest, 'tokenIn' | 'tokenOut' | 'amount'>): TradeRequest => ({
  tradeType: 'exactIn',
  maxHops: 2,
  maxSplits: 1,
  gasPriceWei: 0n,
  allow: () => true,
  ...over,
});

t.test('native input: the route starts at the wrapped token, the trade at the native asset', async (t) => {
  const outcome = bestTrade(index, request({ tokenIn: ETH, tokenOut: XYZ, amount: E18 }));
  if (!outcome.ok) throw new Error(outcome.code);
  const { trade } = outcome;
  // Through P2 then P4: 1 WETH -> DAI, then DAI -> XYZ (the other path, P1 + P5, ends in a 500 USDC pair).
  const dai = out(E18, 50n * E18, 150_000n * E18);
  const xyz = out(dai, 50_000n * E18, 10_000n * E18);
  t.ok(xyz > out(out(E18, 100n * E18, 300_000n * 10n ** 6n), 500n * 10n ** 6n, 100n * E18), 'the better of the two paths');
  t.strictSame([trade.tokenIn, trade.tokenOut, trade.nativeIn, trade.nativeOut], [ETH, XYZ, 'wrapped', 'none']);
  t.strictSame([trade.amountIn, trade.amountOut], [E18, xyz]);
  t.equal(trade.splits.length, 1);
  t.strictSame(
    trade.splits[0].route.legs.map((l) => [l.pool, l.tokenIn, l.tokenOut, l.amountIn, l.amountOut]),
    [
      [P(2), WETH, DAI, E18, dai],
      [P(4), DAI, XYZ, dai, xyz],
    ],
    'every leg is a pool',
  );
  t.equal(trade.splits[0].route.executor.kind, 'UniswapV2Router02');
});

t.test('native output, exact output: the route ends at the wrapped token, the trade at the native asset', async (t) => {
  const outcome = bestTrade(index, request({ tokenIn: XYZ, tokenOut: ETH, amount: E18, tradeType: 'exactOut' }));
  if (!outcome.ok) throw new Error(outcome.code);
  const { trade } = outcome;
  // Backwards through P2 then P4 (P1 would need more than P5's 500 USDC).
  const dai = into(E18, 150_000n * E18, 50n * E18);
  const xyz = into(dai, 10_000n * E18, 50_000n * E18);
  t.strictSame([trade.tokenIn, trade.tokenOut, trade.nativeIn, trade.nativeOut], [XYZ, ETH, 'none', 'wrapped']);
  t.strictSame([trade.amountIn, trade.amountOut], [xyz, E18]);
  t.strictSame(
    trade.splits[0].route.legs.map((l) => [l.pool, l.tokenIn, l.tokenOut, l.amountIn, l.amountOut]),
    [
      [P(4), XYZ, DAI, xyz, dai],
      [P(2), DAI, WETH, dai, E18],
    ],
  );
});

t.test('native asset <-> wrapped token: a trade without splits, 1:1, whatever the limits', async (t) => {
  for (const [tokenIn, tokenOut, tradeType, nativeIn, nativeOut] of [
    [ETH, WETH, 'exactIn', 'wrapped', 'none'],
    [WETH, ETH, 'exactOut', 'none', 'wrapped'],
  ] as const) {
    for (const amount of [1n, 3n * E18 + 7n]) {
      const outcome = bestTrade(index, request({ tokenIn, tokenOut, tradeType, amount, maxHops: 3, maxSplits: 3, gasPriceWei: 2n }));
      if (!outcome.ok) throw new Error(outcome.code);
      const { trade } = outcome;
      const label = `${tokenIn === ETH ? 'wrap' : 'unwrap'} of ${amount}`;
      t.strictSame(
        [trade.splits, trade.amountIn, trade.amountOut, trade.nativeIn, trade.nativeOut, trade.fees, trade.priceImpactBps],
        [[], amount, amount, nativeIn, nativeOut, 0n, 0],
        label,
      );
      t.strictSame(
        trade.gasCost,
        { tokenIn: trade.gasEstimate * 2n, tokenOut: trade.gasEstimate * 2n },
        `${label}: the network fee in wei`,
      );
    }
  }
});
