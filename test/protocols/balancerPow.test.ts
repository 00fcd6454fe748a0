// powFast, expFast and powUpBy (src/amm/balancerPow.ts) against LogExpMath's line-by-line transliteration
// (test/helpers/balancerLogExp.ts, which equals the chain: balancerMath.devnet.test.ts), value for value and revert for
// revert, over seeded random inputs drawn around every range branch: ln_36's window (0.9, 1.1) and its two bounds, ln's
// reductions (bases from 1e-18 to past e^128 and 2^255), exp's decomposition thresholds (x_0 .. x_9, the number path's
// |x| < 2 bound, the natural exponent bounds -41 and 130), negative exponents (bases below 1), exponents from 1e-18 to
// past the mild exponent bound. The seed is fixed, so a failure reproduces; POW_CASES=<n> (and POW_SEED=<n>) run a larger one-off sweep.
import t from 'tap';
import { expFast, powFast, powUpBy } from '../../src/amm/balancerPow.ts';
import { exp, pow, powUp } from '../helpers/balancerLogExp.ts';
import { outcome } from '../helpers/callOutcome.ts';
import { seededDraws } from '../helpers/seededDraws.ts';
import { seededRandom } from '../helpers/seededRandom.ts';

const ONE = 10n ** 18n;
const CASES = Number(process.env.POW_CASES ?? 20000);
const random = seededRandom(Number(process.env.POW_SEED ?? 0x27b41));

const { below, between, pick } = seededDraws(random);
/** A value of a random magnitude up to 2^bits. */
const magnitude = (bits: number) => below(1n << BigInt(1 + Math.floor(random() * bits)));

/** exp's thresholds in 18 decimals (x_0, x_1 and x_2 .. x_9 / 100) and the bounds the fast paths branch on. */
const EXP_EDGES = [
  128n * ONE,
  64n * ONE,
  32n * ONE,
  16n * ONE,
  8n * ONE,
  4n * ONE,
  2n * ONE,
  ONE,
  ONE / 2n,
  ONE / 4n,
  130n * ONE,
  41n * ONE,
  0n,
];
const LN36_EDGES = [ONE - 10n ** 17n, ONE + 10n ** 17n, ONE];

function base(): bigint {
  switch (Math.floor(random() * 6)) {
    case 0: // ln_36's window, the weighted quotes' bases
      return between(ONE - 10n ** 17n + 1n, ONE + 10n ** 17n - 1n);
    case 1: // at and around the window's bounds and 1
      return pick(LN36_EDGES) + between(-3n, 3n);
    case 2: // the rest of a weighted pool's range (30% limits: 1/1.3 .. 1/0.7)
      return between((ONE * 10n) / 13n, (ONE * 10n) / 7n);
    case 3: // any size, ln's reductions and 1 / x for x < 1
      return magnitude(200);
    case 4:
      return pick([1n, 2n, ONE / 3n, 10n ** 36n, (1n << 255n) - 1n, 1n << 255n]);
    default:
      return between(1n, 100n * ONE);
  }
}

function exponent(): bigint {
  switch (Math.floor(random() * 4)) {
    case 0: // weight ratios of 1% .. 99% weights
      return between(ONE / 99n, 99n * ONE);
    case 1:
      return pick([1n, ONE / 4n, (3n * ONE) / 2n, (2n * ONE) / 3n + 1n, ONE, 2n * ONE, 4n * ONE, 2n ** 254n / 10n ** 20n - 1n]);
    case 2:
      return magnitude(190);
    default:
      return between(1n, 4n * ONE);
  }
}

function natural(): bigint {
  const sign = random() < 0.5 ? -1n : 1n;
  switch (Math.floor(random() * 3)) {
    case 0:
      return sign * (pick(EXP_EDGES) + between(-2n, 2n));
    case 1:
      return sign * between(0n, 3n * ONE);
    default:
      return between(-42n * ONE, 131n * ONE);
  }
}

t.test(`powFast, powUpBy and expFast equal LogExpMath over ${CASES} seeded cases each`, async (t) => {
  let differ = 0;
  let reverts = 0;
  for (let i = 0; i < CASES; i++) {
    const x = base();
    const y = exponent();
    const expected = outcome(() => pow(x, y));
    if (typeof expected === 'string') reverts++;
    if (outcome(() => powFast(x, y)) !== expected) {
      differ++;
      if (differ <= 5) t.fail(`powFast(${x}, ${y})`);
    }
    if (outcome(() => powUpBy(y)(x)) !== outcome(() => powUp(x, y))) {
      differ++;
      if (differ <= 5) t.fail(`powUpBy(${y})(${x})`);
    }
    const e = natural();
    if (outcome(() => expFast(e)) !== outcome(() => exp(e))) {
      differ++;
      if (differ <= 5) t.fail(`expFast(${e})`);
    }
  }
  t.equal(differ, 0, 'no case differs');
  // The draw must reach both outcomes, or the comparison of reverts proves nothing.
  t.ok(reverts > 0 && reverts < CASES / 2, `some cases revert (${reverts})`);
});

t.test('weighted ladders of each exponent: every base of ln_36 window and beyond, both directions', async (t) => {
  let compared = 0;
  let differ = 0;
  for (const y of [ONE / 4n, (3n * ONE) / 2n, 666666666666666667n, ONE / 99n, 99n * ONE]) {
    const up = powUpBy(y);
    for (let k = 0; k <= 300; k++) {
      // fractions 1e-9 .. 0.3 of the balance, as exact in (x < 1) and exact out (x > 1) bases are
      const f = BigInt(Math.round(1e-9 * 0.3e9 ** (k / 300) * 1e15));
      for (const x of [(ONE * 10n ** 15n) / (10n ** 15n + f) + 1n, (ONE * 10n ** 15n) / (10n ** 15n - f) + 1n]) {
        compared++;
        if (outcome(() => up(x)) !== outcome(() => powUp(x, y))) differ++;
      }
    }
  }
  t.equal(differ, 0, `${compared} ladder bases`);
});
