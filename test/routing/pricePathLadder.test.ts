// pricePath's ladders (src/routing/priceRoutes.ts) on the shipped devnet's paths of up to three pools, some amounts
// refused by a pool (too small, too large, beyond the known ticks, nothing left after a hand-over): each amount priced or
// refused as that amount alone (a ladder of one, which no refusal compacts), on both sides and with a hand-over after the first pool; pricePathHops' amounts,
// their legs made by legsOf, as pricePath makes them.
import t from 'tap';
import type { ChainPoolIndex } from '../../src/graph/ChainPoolIndex.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { PricingGraph } from '../../src/graph/PricingGraph.ts';
import { findRoutes } from '../../src/routing/findRoutes.ts';
import { legsOf, type PathQuote, type PricedPath, pricePath, pricePathHops, toPricedPath } from '../../src/routing/priceRoutes.ts';
import { seededRandom } from '../helpers/seededRandom.ts';
import { shippedDevnetGraph } from '../helpers/shippedDevnet.ts';

const { catalog, snapshot, tokens } = shippedDevnetGraph();
const index = new PricingGraph(new PoolGraph([snapshot], catalog), catalog).chain(31337) as ChainPoolIndex;
const text = (x: unknown): string => JSON.stringify(x, (_, v) => (typeof v === 'bigint' ? `${v}n` : v));

/** Every path of up to three pools between the first tokens, each with a hand-over after its first pool where it has two. */
function paths(): PricedPath[] {
  const all: PricedPath[] = [];
  for (const a of tokens.slice(0, 5)) {
    for (const b of tokens.slice(0, 5)) {
      if (a === b) continue;
      for (const p of findRoutes(index, a, b, { maxHops: 3, allow: () => true, maxRoutes: 12 })) {
        const priced = toPricedPath(index, p);
        if (!priced) continue;
        all.push(priced);
        if (priced.pools.length > 1) all.push({ ...priced, handovers: { at: [1], slippageBps: 50 } });
      }
    }
  }
  return all;
}

t.test('each amount a ladder prices is priced as it is alone, past the refused ones; pricePathHops + legsOf is pricePath', async (t) => {
  const random = seededRandom(24);
  let ladders = 0;
  let mixed = 0;
  let bad = 0;
  let hopsBad = 0;
  let pricedPast = 0;
  for (const path of paths()) {
    for (const tradeType of ['exactIn', 'exactOut'] as const) {
      for (let r = 0; r < 4; r++) {
        // Ascending amounts from 1 to far beyond any pool's reach.
        const amounts: bigint[] = [];
        let x = 10n ** BigInt(Math.floor(random() * 30));
        for (let k = 1 + Math.floor(random() * 4); k > 0; k--) {
          amounts.push(x);
          x = x * BigInt(1 + Math.floor(random() * 1000)) + 1n;
        }
        const ladder = pricePath(path, tradeType, amounts);
        const alone: PathQuote[] = amounts.map((a) => pricePath(path, tradeType, [a])[0]);
        ladders++;
        if (ladder.some((q) => q.ok) && ladder.some((q) => !q.ok)) mixed++;
        // Each amount of a ladder, priced or refused, is that amount alone: an amount that reaches a pool as nothing (a
        // hand-over's minimum of a tiny output) is refused by itself, the larger ones priced past it.
        for (let i = 0; i < amounts.length; i++) {
          if (text(ladder[i]) !== text(alone[i])) bad++;
          if (!ladder[i].ok && i + 1 < amounts.length && ladder[i + 1].ok) pricedPast++;
        }
        const at = Math.floor(random() * (amounts.length + 1)) - 1;
        const hops = pricePathHops(path, tradeType, amounts, at).map((q, i) => {
          if (!Array.isArray(q)) return i === at || !(q as PathQuote).ok ? q : 'legs made where none were asked';
          return i === at ? 'no legs where they were asked' : { ok: true, legs: legsOf(path, q) };
        });
        if (text(hops) !== text(ladder)) hopsBad++;
      }
    }
  }
  t.ok(ladders > 1000, `${ladders} ladders`);
  t.ok(mixed > 100, `${mixed} of them with amounts refused and amounts priced`);
  t.ok(pricedPast > 50, `${pricedPast} refused amounts with a larger one priced past them`);
  t.equal(bad, 0, 'every amount of the ladders is that amount priced alone, priced or refused');
  t.equal(hopsBad, 0, "pricePathHops' amounts with legsOf's legs are pricePath's quotes");
});
