// A trade's split percents (exactTrade's sharePercents): each share of the fixed amount in millionths, rounded down,
// the missing millionths (fewer than the shares) given one each to the largest remainders, the first of equal ones
// first. The oracle checks the properties that fix the answer, from exact rationals: the parts add up to exactly
// 100; each is its exact share rounded down or up by one millionth; a part rounded up never has a smaller
// remainder than one rounded down, nor an equal one at a later position.
import t from 'tap';
import { sharePercents } from '../../src/routing/exactTrade.ts';

/** Checks one list of shares against the properties; returns a failure message or undefined. */
function check(shares: readonly bigint[]): string | undefined {
  const percents = sharePercents(shares);
  if (percents.length !== shares.length) return 'one percent per share';
  const total = shares.reduce((a, b) => a + b, 0n);
  const parts = percents.map((p) => Math.round(p * 10_000));
  if (!percents.every((p, i) => p === parts[i] / 10_000)) return 'four decimals';
  if (parts.reduce((a, b) => a + b, 0) !== 1_000_000) return `parts add up to ${parts.reduce((a, b) => a + b, 0)}`;
  const floors = shares.map((s) => (s * 1_000_000n) / total);
  const rests = shares.map((s, i) => s * 1_000_000n - floors[i] * total);
  const up = parts.map((p, i) => BigInt(p) - floors[i]);
  if (up.some((u) => u !== 0n && u !== 1n)) return 'each part is its share rounded down or up by one millionth';
  if (shares.length === 1) return parts[0] === 1_000_000 ? undefined : 'one share is 100';
  for (let i = 0; i < shares.length; i++)
    for (let j = 0; j < shares.length; j++) {
      if (up[i] !== 1n || up[j] !== 0n) continue;
      if (rests[i] < rests[j]) return `share ${i} rounded up with a smaller remainder than share ${j}`;
      if (rests[i] === rests[j] && i > j) return `share ${i} rounded up before the equal remainder of share ${j}`;
    }
  return undefined;
}

t.test('by hand: thirds, equal remainders, one share', async (t) => {
  t.same(sharePercents([1n, 1n, 1n]), [33.3334, 33.3333, 33.3333], 'thirds: the first of equal remainders gets the millionth');
  t.same(sharePercents([2n, 1n]), [66.6667, 33.3333], 'the larger remainder gets it');
  t.same(sharePercents([1n, 2n]), [33.3333, 66.6667], 'by remainder, not by position');
  t.same(sharePercents([5n]), [100], 'one share is 100');
  t.same(sharePercents([3n, 1n]), [75, 25], 'exact shares: nothing missing');
});

t.test('random shares: the properties hold', async (t) => {
  let seed = 11;
  const next = (n: number): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed % n;
  };
  let checked = 0;
  for (let i = 0; i < 3000; i++) {
    const n = 2 + (i % 5);
    const scale = 10n ** BigInt(next(25));
    // Some lists repeat a share (equal remainders), some are tiny (remainders of a few units).
    const base = BigInt(1 + next(1000)) * scale + BigInt(next(7));
    const shares = Array.from({ length: n }, () => (next(3) === 0 ? base : BigInt(1 + next(1_000_000)) * scale + BigInt(next(3))));
    const failure = check(shares);
    if (failure) t.fail(`${shares.join(', ')}: ${failure}`);
    checked++;
  }
  t.equal(checked, 3000, 'every list checked');
});
