// load (src/amm/balancerDoubleDouble.ts): a bigint into an exact normalized double-double, hi the nearest double, over
// seeded integers of every size below 2^106 and both signs, with the edges of its two branches (2^53, 2^84) and of its
// 32-bit residue (remainders near +-2^31, values a little off multiples of 2^32); and stored (back to a bigint) on
// each, its word branch's edges (0, 2^32 and 2^64 multiples, 2^84) included. Seeded; DD_LOAD_CASES=<n> for more.
import t from 'tap';
import { load, R, stored } from '../../src/amm/balancerDoubleDouble.ts';
import { seededDraws } from '../helpers/seededDraws.ts';
import { seededRandom } from '../helpers/seededRandom.ts';

const CASES = Number(process.env.DD_LOAD_CASES ?? 100000);
const random = seededRandom(0xdd10ad);
const { between, pick } = seededDraws(random);

function value(): bigint {
  const bits = BigInt(1 + Math.floor(random() * 105));
  const sign = random() < 0.2 ? -1n : 1n;
  switch (Math.floor(random() * 5)) {
    case 0:
      return sign * between(0n, 2n ** bits - 1n);
    case 1: // near the branch edges and powers of two
      return sign * (pick([2n ** 53n, 2n ** 84n, 2n ** 83n, 2n ** bits, 2n ** 32n, 2n ** 64n, 2n ** 63n]) + between(-5n, 5n));
    case 2: // a multiple of 2^32 off by a little (the residue wraps)
      return sign * (between(0n, 2n ** 52n) * 2n ** 32n + between(-3n, 3n));
    case 3: // a multiple of 2^64 off by a little (stored's high word and top bits carry)
      return sign * (between(1n, 2n ** 21n) * 2n ** 64n + between(-3n, 3n));
    default: // halfway between doubles (a remainder of ulp / 2, rounded to even)
      return sign * (between(2n ** 52n, 2n ** 53n - 1n) * 2n ** (bits / 2n + 1n) + 2n ** (bits / 2n));
  }
}

t.test(`load is exact and normalized over ${CASES} seeded integers`, async (t) => {
  let bad = 0;
  for (let i = 0; i < CASES; i++) {
    const v = value();
    load(v);
    const [h, l] = [R[0], R[1]];
    const ok = h === Number(v) && BigInt(h) + BigInt(l) === v && h + l === h && stored() === v;
    if (!ok) {
      bad++;
      if (bad <= 5) t.fail(`load(${v}) = (${h}, ${l})`);
    }
  }
  t.equal(bad, 0, 'every value exact, its high part the nearest double');
});
