// autoSlippageBps (issue 28 item 5): expected values worked by hand from the rule in docs/api.md (Uniswap's network fee
// over the value swapped, rounded up, at least the price impact, clamped to 50-550 bps).
import t from 'tap';
import { AUTO_SLIPPAGE_BOUNDS, autoSlippageBps, chosenSlippage } from '../../src/quote/autoSlippage.ts';

const trade = (
  tradeType: 'exactIn' | 'exactOut',
  amountIn: bigint,
  amountOut: bigint,
  gasCost: { tokenIn: bigint | null; tokenOut: bigint | null },
  priceImpactBps = 0,
) => ({ tradeType, amountIn, amountOut, gasCost, priceImpactBps });

t.test('the bounds are Uniswap MIN/MAX_AUTO_SLIPPAGE_TOLERANCE, 0.5% and 5.5%', async (t) => {
  t.strictSame(AUTO_SLIPPAGE_BOUNDS, { minimum: 50, maximum: 550 });
});

t.test('exactIn: the fee in tokenOut over amountOut, rounded up', async (t) => {
  t.equal(autoSlippageBps(trade('exactIn', 1n, 100_000n, { tokenIn: 0n, tokenOut: 1_000n })), 100, '1%');
  t.equal(autoSlippageBps(trade('exactIn', 1n, 100_000n, { tokenIn: 0n, tokenOut: 1_001n })), 101, '1.001% rounds up to 101');
  t.equal(autoSlippageBps(trade('exactIn', 1n, 30_000n, { tokenIn: 0n, tokenOut: 1n })), 50, 'a tiny fee: the minimum');
  t.equal(autoSlippageBps(trade('exactIn', 1n, 100n, { tokenIn: 0n, tokenOut: 1_000n })), 550, 'a fee above the output: the maximum');
  t.equal(autoSlippageBps(trade('exactIn', 1n, 100_000n, { tokenIn: 5n, tokenOut: null })), 50, 'no price for the fee: the minimum');
});

t.test('exactOut: the fee in tokenIn over amountIn', async (t) => {
  t.equal(autoSlippageBps(trade('exactOut', 200_000n, 1n, { tokenIn: 4_000n, tokenOut: 10n ** 30n })), 200);
  t.equal(autoSlippageBps(trade('exactOut', 200_000n, 1n, { tokenIn: null, tokenOut: 10n ** 30n })), 50);
});

t.test('refined by the price impact: at least it, still at most 550', async (t) => {
  t.equal(autoSlippageBps(trade('exactIn', 1n, 100_000n, { tokenIn: 0n, tokenOut: 1_000n }, 240)), 240, 'impact above the fee ratio');
  t.equal(autoSlippageBps(trade('exactIn', 1n, 100_000n, { tokenIn: 0n, tokenOut: 1_000n }, 80)), 100, 'fee ratio above the impact');
  t.equal(autoSlippageBps(trade('exactIn', 1n, 100_000n, { tokenIn: 0n, tokenOut: 0n }, 9_000)), 550);
});

t.test('chosenSlippage: the request wins unless it says "auto"', async (t) => {
  const x = trade('exactIn', 1n, 100_000n, { tokenIn: 0n, tokenOut: 1_000n });
  t.strictSame(chosenSlippage(30, x), { slippageBps: 30, slippageSource: 'request' });
  t.strictSame(chosenSlippage('auto', x), { slippageBps: 100, slippageSource: 'auto' });
});
