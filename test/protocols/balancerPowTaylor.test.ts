// powUpInto's exp (src/amm/balancerPowFloat.ts) where a Taylor term is taken in plain doubles and its quotient lies
// within the plain doubles' error (2^-50 relative) of an integer: the cases its 2^-48 margin must send to the
// double-double step. Random bases almost never land there, so the exponent's argument is chosen: y = 1 (through ln_36
// and exp, not powUp's exact case) and bases whose logarithm L gives a first term x = 100 |L| from 2^40 to 2^53 (an
// exact double, taken in plain doubles since 2026-11-27) or a little past 2^53 (not exact: double-double) with x^2 / 2e20 within a rounding (2^-53 relative) of an
// integer on either side, and the Taylor sum where a wrong term would change exp's result. Each answer must equal
// LogExpMath.pow's transliteration plus powUp's error term (the term's bound 2^53 dropped fails it).
import t from 'tap';
import { load, R } from '../../src/amm/balancerDoubleDouble.ts';
import { powFloatExponent, powUpInto } from '../../src/amm/balancerPowFloat.ts';
import { ln36Of, pow } from '../helpers/balancerLogExp.ts';
import { seededRandom } from '../helpers/seededRandom.ts';

const ONE = 10n ** 18n;
const E14 = 10n ** 14n;
const E20 = 10n ** 20n;
const random = seededRandom(0x7a7105);

function isqrt(n: bigint): bigint {
  let x = BigInt(Math.floor(Math.sqrt(Number(n))));
  while (x * x > n) x--;
  while ((x + 1n) * (x + 1n) <= n) x++;
  return x;
}

/** A base in ln_36's window whose trunc(ln_36 / 1e18) is l, or undefined. */
function baseOf(l: bigint): bigint | undefined {
  // e^(l / 1e18) * 1e18 to within a unit or two (|l| < 2^47: the fourth term is below 1e-2).
  const guess = ONE + l + (l * l) / (2n * ONE) + (l * l * l) / (6n * ONE * ONE);
  for (let d = -4n; d <= 4n; d++) if (ln36Of(guess + d) / ONE === l) return guess + d;
  return undefined;
}

t.test('powUpInto equals LogExpMath.pow where a plain-double Taylor quotient is near an integer', async (t) => {
  const y = powFloatExponent(ONE);
  if (y === undefined) throw new Error('y = 1 is in the float range');
  const LIMIT = 2n * 10n ** 16n;
  let cases = 0;
  let answered = 0;
  let differ = 0;
  for (let i = 0; i < 3000000 && cases < 100; i++) {
    // L^2 just below or just above a multiple m of 2e16: 100 L from 2^40 to 2^53 (m to 4.05e11), or past 2^53, where the
    // term has a low part and stays in double-double, up to x^2 / 2e20 = 2^40 (m to 1.1e12).
    const m = BigInt(Math.floor(2e9 + random() * 1.1e12));
    const below = random() < 0.5;
    const l = below ? isqrt(m * LIMIT - 1n) : isqrt(m * LIMIT - 1n) + 1n;
    const gap = below ? m * LIMIT - l * l : l * l - m * LIMIT;
    // within L^2 * 2^-53 of the multiple (x^2 / 2e20 = L^2 / 2e16 within its 2^-53 relative: a rounding)
    if (gap * 2n ** 53n > l * l) continue;
    // ... and the contract's Taylor sum one unit below a multiple of 100 (a term one too high crosses it) or on one
    // (one too low crosses it), so that a wrong term changes exp's result.
    const arg = 100n * l;
    let term = arg;
    let sum = E20 + arg;
    for (let n = 2n; n <= 12n; n++) {
      term = (term * arg) / E20 / n;
      sum += term;
    }
    if (sum % 100n !== (below ? 99n : 0n)) continue;
    for (const sign of [1n, -1n]) {
      const x = baseOf(sign * l);
      if (x === undefined) continue;
      cases++;
      load(x);
      if (!powUpInto(y)) continue;
      answered++;
      const got = BigInt(R[0]) + BigInt(R[1]);
      const raw = pow(x, ONE);
      const expected = raw + (raw + E14 - 1n) / E14 + 1n;
      if (got !== expected) {
        differ++;
        if (differ <= 5) t.fail(`powUpInto(${x}, 1) = ${got}, LogExpMath ${expected} (L ${sign * l})`);
      }
    }
  }
  t.equal(differ, 0, `no answer differs (${answered} of ${cases} answered)`);
  t.ok(cases >= 60 && answered > cases * 0.9, `enough cases answered (${answered} of ${cases})`);
});
