// quoteWarnings, formatBps and priceImpactRefusal (issue 23 item 4): expected texts written by hand from the rule in
// docs/api.md (basis points / 100, at most two decimals, trailing zeros dropped).
import t from 'tap';
import { formatBps, priceImpactRefusal, quoteWarnings } from '../../src/quote/quoteWarnings.ts';

t.test('formatBps: basis points as a percent, exact', async (t) => {
  const cases: [number, string][] = [
    [9977, '99.77%'],
    [1500, '15%'],
    [1550, '15.5%'],
    [1505, '15.05%'],
    [500, '5%'],
    [10, '0.1%'],
    [5, '0.05%'],
    [1, '0.01%'],
    [0, '0%'],
    [10000, '100%'],
    [-25, '-0.25%'],
  ];
  for (const [bps, text] of cases) t.equal(formatBps(bps), text, `${bps} bps`);
});

t.test('quoteWarnings: HIGH_PRICE_IMPACT above 500 bps, one per swap, naming the swap when it has a place', async (t) => {
  const swap = (priceImpactBps: number, where?: string) => ({ trade: { priceImpactBps }, where });
  t.strictSame(quoteWarnings({ swaps: [] }), []);
  t.strictSame(quoteWarnings({ swaps: [swap(500), swap(0), swap(-3)] }), [], '5% itself is not above 5%');
  const advice = 'you receive noticeably less than the market price; a smaller amount moves the price less';
  t.strictSame(quoteWarnings({ swaps: [swap(501)] }), [
    { code: 'HIGH_PRICE_IMPACT', message: `price impact 5.01% is above 5%: ${advice}` },
  ]);
  t.strictSame(
    quoteWarnings({ swaps: [swap(120, 'the swap before the bridge (devnet)'), swap(1304, 'the swap after the bridge (devnet-b)')] }),
    [{ code: 'HIGH_PRICE_IMPACT', message: `price impact 13.04% on the swap after the bridge (devnet-b) is above 5%: ${advice}` }],
  );
});

t.test('priceImpactRefusal: above the bound only, a 400 with the stable code', async (t) => {
  t.equal(priceImpactRefusal({ trade: { priceImpactBps: 1500 } }, 1500), undefined, 'equal to the bound is accepted');
  const refused = priceImpactRefusal({ trade: { priceImpactBps: 9977 } }, 1500);
  t.strictSame(
    [refused?.status, refused?.code, refused?.message],
    [400, 'PRICE_IMPACT_TOO_HIGH', 'quote unavailable: price impact 99.77% exceeds maxPriceImpactBps 15%'],
  );
  t.equal(
    priceImpactRefusal({ trade: { priceImpactBps: 2050 }, where: 'the swap before the bridge (devnet)' }, 0)?.message,
    'quote unavailable: price impact 20.5% on the swap before the bridge (devnet) exceeds maxPriceImpactBps 0%',
  );
});

t.test('quoteWarnings: PRICE_MOVED when a refresh falls outside the bound of the quote it replaces', async (t) => {
  const usdc = { symbol: 'USDC', decimals: 6 };
  const weth = { symbol: 'WETH', decimals: 18 };
  const advice = "the previous quote's transaction would revert at this price: ask the user to confirm the new amounts";
  const refresh = (tradeType: 'exactIn' | 'exactOut', amountIn: bigint, amountOut: bigint) => ({
    swaps: [],
    refresh: {
      previous: { tradeType, amountOutMinimum: '2500000', amountInMaximum: '1000000000000000000' },
      amountIn,
      amountOut,
      tokenIn: weth,
      tokenOut: usdc,
    },
  });
  t.strictSame(quoteWarnings(refresh('exactIn', 10n ** 18n, 2_500_000n)), [], 'exactIn: the old minimum itself still executes');
  t.strictSame(quoteWarnings(refresh('exactIn', 10n ** 18n, 2_499_999n)), [
    { code: 'PRICE_MOVED', message: `the price moved: amountOut 2.499999 USDC is below the previous amountOutMinimum 2.5 USDC; ${advice}` },
  ]);
  t.strictSame(quoteWarnings(refresh('exactOut', 10n ** 18n, 2_500_000n)), [], 'exactOut: the old maximum itself still executes');
  t.strictSame(quoteWarnings(refresh('exactOut', 10n ** 18n + 1n, 2_500_000n)), [
    {
      code: 'PRICE_MOVED',
      message: `the price moved: amountIn 1.000000000000000001 WETH is above the previous amountInMaximum 1 WETH; ${advice}`,
    },
  ]);
});
