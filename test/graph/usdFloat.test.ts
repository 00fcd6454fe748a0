// usdFloat (pool ranking's USD value) against the exact figure computed here with bigints: whole cents rounded down,
// then / 100. Its float estimate must never change a score: amounts just below a whole cent, values beyond 2^52
// cents, prices beyond a float's range, and random prices of the sizes usdPrices' path products reach.
import t from 'tap';
import { usdFloat } from '../../src/graph/usdPrices.ts';

const exact = (amount: bigint, num: bigint, den: bigint): number => Number((amount * num * 100n) / den) / 100;

t.test('a value a hair below a whole cent is floored, not rounded up as its float estimate is', async (t) => {
  // 10^17 / (10^17 + 1) of a dollar: 99.999999999999999 cents, while the floats read 10^17 + 1 as 10^17.
  const price = { num: 1n, den: 10n ** 17n + 1n };
  t.equal(usdFloat(10n ** 17n, price), 0.99);
  t.equal(usdFloat(10n ** 17n + 1n, price), 1);
  t.equal(usdFloat(3n * 10n ** 20n - 1n, { num: 1n, den: 3n * 10n ** 18n }), 99.99);
});

t.test('values beyond 2^52 cents and prices beyond a float are the exact figures', async (t) => {
  t.equal(usdFloat(10n ** 30n, { num: 1n, den: 1n }), exact(10n ** 30n, 1n, 1n));
  t.equal(usdFloat(2n ** 60n + 1n, { num: 1n, den: 1n }), exact(2n ** 60n + 1n, 1n, 1n));
  // num beyond a float, the value within one: 5 x 2^900 dollars.
  const huge = 2n ** 1100n;
  t.equal(usdFloat(5n, { num: huge, den: 2n ** 200n }), exact(5n, huge, 2n ** 200n));
  t.ok(Number.isFinite(usdFloat(5n, { num: huge, den: 2n ** 200n })));
  t.equal(usdFloat(5n, { num: 7n, den: huge }), 0);
  t.equal(usdFloat(0n, { num: huge, den: 1n }), 0);
});

t.test('random amounts and prices: the exact figure every time', async (t) => {
  let seed = 12345;
  const rand = (): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const big = (bits: number): bigint => {
    let v = 0n;
    for (let b = 0; b < bits; b += 30) v = (v << 30n) | BigInt(Math.floor(rand() * 2 ** 30));
    return (v >> BigInt(Math.max(0, Math.ceil(bits / 30) * 30 - bits))) | 1n;
  };
  let wrong = 0;
  for (let i = 0; i < 20_000; i++) {
    const amount = i % 7 === 0 ? 0n : big(1 + Math.floor(rand() * 130));
    const num = big(1 + Math.floor(rand() * 300));
    const den = big(1 + Math.floor(rand() * 300));
    // Every 3rd: the amount at or just below the next whole cent at that price (floor), or one unit above it.
    const next = (amount * num * 100n) / den + 1n;
    const a = i % 3 === 0 ? (next * den) / (num * 100n) + BigInt(i % 2) : amount;
    if (usdFloat(a, { num, den }) !== exact(a, num, den)) wrong++;
  }
  t.equal(wrong, 0);
});
