// optimalSplit's splits are pool-disjoint (a pool's state moves with each swap through it, so two paths through one
// pool cannot be priced apart): hand-made Uniswap V2 pairs (test/helpers/handGraph.ts) where WETH -> DAI goes direct
// through P2, or through USDC by P1 or by a second WETH/USDC pair P6, both then through P3. The greedy would gain by
// taking both USDC paths (their curves each see all of P3); it may take only one. Each route's amounts are checked
// against UniswapV2Library's getAmountOut / getAmountIn written out by hand, leg by leg.
import t from 'tap';
import { bestTrade } from '../../src/routing/bestTrade.ts';
import { handIndex, handPairs, P, USDC, v2PairSnapshot, WETH, wethToDai } from '../helpers/handGraph.ts';

const E18 = 10n ** 18n;
const E6 = 10n ** 6n;
const P6 = '0x00000000000000000000000000000000000000c6';
const pairs = [handPairs[0], handPairs[1], handPairs[2], v2PairSnapshot(P6, WETH, USDC, 100n * E18, 300_000n * E6)];

/** A pair's reserves with `token` in. */
function reserves(pool: string, token: string): [bigint, bigint] {
  const p = pairs.find((x) => x.address === pool)!;
  const [r0, r1] = [BigInt(p.reserve0), BigInt(p.reserve1)];
  return p.token0 === token ? [r0, r1] : [r1, r0];
}
const out = (amountIn: bigint, [reserveIn, reserveOut]: [bigint, bigint]): bigint =>
  (amountIn * 997n * reserveOut) / (reserveIn * 1000n + amountIn * 997n);
const into = (amountOut: bigint, [reserveIn, reserveOut]: [bigint, bigint]): bigint =>
  (reserveIn * amountOut * 1000n) / ((reserveOut - amountOut) * 997n) + 1n;

for (const [tradeType, amount] of [
  ['exactIn', 60n * E18],
  ['exactOut', 150_000n * E18],
] as const) {
  t.test(`${tradeType}: a split takes P3 once, and each route's amounts are UniswapV2Library's`, async (t) => {
    const request = wethToDai({ tradeType, amount });
    const outcome = bestTrade(handIndex(pairs), request);
    if (!outcome.ok) throw new Error(outcome.code);
    const routes = outcome.trade.splits.map((s) => s.route);
    const pools = routes.flatMap((r) => r.legs.map((l) => l.pool));
    t.equal(new Set(pools).size, pools.length, `no pool twice: ${routes.map((r) => r.legs.map((l) => l.pool).join('>')).join(', ')}`);
    t.equal(pools.filter((p) => p === P(3)).length, 1, 'one route through USDC');
    t.equal(routes.length, 2, 'a split of the direct pair and one USDC path');
    for (const r of routes) {
      if (tradeType === 'exactIn') {
        let amountIn = r.legs[0].amountIn;
        for (const l of r.legs) {
          t.equal(l.amountIn, amountIn, `${l.pool}: its input is the previous leg's output`);
          t.equal(l.amountOut, out(l.amountIn, reserves(l.pool, l.tokenIn)), `${l.pool}: getAmountOut by hand`);
          amountIn = l.amountOut;
        }
      } else {
        let amountOut = r.legs[r.legs.length - 1].amountOut;
        for (const l of [...r.legs].reverse()) {
          t.equal(l.amountOut, amountOut, `${l.pool}: its output is the next leg's input`);
          t.equal(l.amountIn, into(l.amountOut, reserves(l.pool, l.tokenIn)), `${l.pool}: getAmountIn by hand`);
          amountOut = l.amountIn;
        }
      }
    }
    const fixed = routes.reduce((s, r) => s + (tradeType === 'exactIn' ? r.legs[0].amountIn : r.legs[r.legs.length - 1].amountOut), 0n);
    t.equal(fixed, amount, 'the routes carry the whole amount');
  });
}
