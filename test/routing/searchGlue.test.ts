// The route search's glue cut for CPU (issue 24), each against the code it replaced as the oracle: soleDeployment
// (bestTradesByDeployment) against a Set of every leg's deployment id; dropUnpaid's smallestFirst against
// Array.prototype.sort with the comparator it replaced; gasCost's kept fees against the BigInt formula, across gas
// prices and totals beyond what a number holds exactly.
import t from 'tap';
import { deploymentId } from '../../src/catalog/Catalog.ts';
import { soleDeployment } from '../../src/routing/bestTradesByDeployment.ts';
import { type Share, smallestFirst } from '../../src/routing/priceSolved.ts';
import { gasCost, gasCostUnits, type Search } from '../../src/routing/searchGas.ts';
import type { Leg, Trade } from '../../src/routing/Trade.ts';

/** A seeded generator (mulberry32), so a failure repeats. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let r = Math.imul(a ^ (a >>> 15), 1 | a);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

/** A trade whose splits' legs go through these (dex, version) pairs; soleDeployment reads nothing else. */
function tradeOf(routes: readonly (readonly [string, string])[][]): Trade {
  const splits = routes.map((legs) => ({ percent: 0, route: { legs: legs.map(([dex, version]) => ({ dex, version }) as Leg) } }));
  return { splits } as unknown as Trade;
}

/** The code soleDeployment replaced. */
function soleBySet(trade: Trade): string | undefined {
  const used = new Set(trade.splits.flatMap((s) => s.route.legs.map((l) => deploymentId(l.dex, l.version))));
  return used.size === 1 ? [...used][0] : undefined;
}

t.test('soleDeployment: the one deployment of every leg, as a Set of their ids says', async (t) => {
  const byHand: [(readonly [string, string])[][], string | undefined][] = [
    [[[['uniswap', 'v3']]], 'uniswap/v3'],
    [
      [
        [
          ['uniswap', 'v3'],
          ['uniswap', 'v3'],
        ],
        [['uniswap', 'v3']],
      ],
      'uniswap/v3',
    ],
    [[[['uniswap', 'v3']], [['uniswap', 'v2']]], undefined],
    [
      [
        [
          ['uniswap', 'v2'],
          ['sushiswap', 'v2'],
        ],
      ],
      undefined,
    ],
    [[], undefined],
    [[[]], undefined],
    // Two (dex, version) pairs that name one id: one deployment, as the ids say.
    [[[['a/b', 'c']], [['a', 'b/c']]], 'a/b/c'],
  ];
  for (const [routes, want] of byHand) t.equal(soleDeployment(tradeOf(routes)), want, JSON.stringify(routes));
  const rand = random(7);
  const dexes = ['uniswap', 'sushiswap', 'pancakeswap'];
  const versions = ['v2', 'v3', 'v4'];
  let failures = 0;
  for (let n = 0; n < 2000; n++) {
    const routes = Array.from({ length: 1 + Math.floor(rand() * 3) }, () =>
      Array.from({ length: 1 + Math.floor(rand() * 3) }, () => {
        // Mostly one deployment, so that both answers are common.
        const same = rand() < 0.8;
        return [same ? 'uniswap' : dexes[Math.floor(rand() * 3)], same ? 'v3' : versions[Math.floor(rand() * 3)]] as const;
      }),
    );
    const trade = tradeOf(routes);
    if (soleDeployment(trade) !== soleBySet(trade)) failures++;
  }
  t.equal(failures, 0, '2,000 random trades: the same answer as the Set');
});

t.test("gasCost: each gas total's fee as the BigInt formula gives it, through gas price changes and huge totals", async (t) => {
  const rate = { num: 3n * 10n ** 40n + 7n, den: 10n ** 30n + 11n };
  const searchAt = (gasPriceWei: bigint): Search => ({ rate, feeNum: gasPriceWei * rate.num }) as unknown as Search;
  const rand = random(5);
  let failures = 0;
  for (let n = 0; n < 4000; n++) {
    // Two gas prices in turn on one rate (the kept fees are the last price's), few totals (most asked again).
    const gasPriceWei = n % 3 === 0 ? 7n : 1_000_000_007n;
    const search = searchAt(gasPriceWei);
    const gas = BigInt(50_000 + Math.floor(rand() * 50) * 1000);
    const want = (gas * gasPriceWei * rate.num) / rate.den;
    if (gasCost(search, gas) !== want) failures++;
    if (gasCostUnits(search, Number(gas)) !== Number(want)) failures++;
  }
  t.equal(failures, 0, '4,000 totals at two gas prices: the formula');
  const search = searchAt(3n);
  for (const gas of [2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, 2n ** 60n + 3n])
    t.equal(gasCost(search, gas), (gas * 3n * rate.num) / rate.den, `${gas} gas: beyond a number's exact integers, not confused`);
  t.equal(gasCost({ rate: undefined, feeNum: undefined } as unknown as Search, 100n), 0n, 'unpriced: 0');
});

t.test("smallestFirst (dropUnpaid's order): the stable library sort by share it replaced", async (t) => {
  const rand = random(9);
  let failures = 0;
  for (let n = 0; n < 3000; n++) {
    const shares = Array.from(
      { length: Math.floor(rand() * 7) },
      (_x, member) => ({ member, share: BigInt(Math.floor(rand() * 5)) }) as Share,
    );
    const want = [...shares].sort((a, b) => (a.share < b.share ? -1 : a.share > b.share ? 1 : 0));
    const got = smallestFirst(shares);
    if (got.length !== want.length || got.some((x, i) => x !== want[i])) failures++;
  }
  t.equal(failures, 0, '3,000 random share lists, ties among them: the same order');
});
