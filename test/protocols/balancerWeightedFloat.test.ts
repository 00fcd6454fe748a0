// The weighted quote in double-double floats (src/protocols/balancerWeighted/weightedFloat.ts, which weightedQuoter
// tries first on pools of 18-decimal tokens) against WeightedPool's swap written with the transliterated
// FixedPoint.powUp (test/helpers/balancerLogExp.ts, equal to the chain: balancerMath.devnet.test.ts): wherever the
// float quoter answers, the answer is the contract's; it answers nearly every pool-like quote; where a step's integer
// is exact (round balances, amounts and fees: quotients that are integers, which a float cannot place) it either
// decides it as an exact ratio or declines, and weightedQuoter (its bigint fallback) still equals the contract.
// Seeded; WEIGHTED_FLOAT_CASES=<n> and WEIGHTED_FLOAT_SEED=<n> run a larger one-off sweep.
import t from 'tap';
import { complement, divDown, divUp, mulDown, mulUp, ONE, sub } from '../../src/amm/balancerFixedPoint.ts';
import { weightedFloatQuoter } from '../../src/protocols/balancerWeighted/weightedFloat.ts';
import { type WeightedSide, weightedQuoter } from '../../src/protocols/balancerWeighted/weightedMath.ts';
import { powUp } from '../helpers/balancerLogExp.ts';
import { outcome } from '../helpers/callOutcome.ts';
import { seededDraws } from '../helpers/seededDraws.ts';
import { seededRandom } from '../helpers/seededRandom.ts';

const CASES = Number(process.env.WEIGHTED_FLOAT_CASES ?? 20000);
const random = seededRandom(Number(process.env.WEIGHTED_FLOAT_SEED ?? 0x27f1a7));
const { between, pick } = seededDraws(random);
const logUniform = (lo: number, hi: number) => lo * (hi / lo) ** random();
const MAX_RATIO = 3n * 10n ** 17n;

/** Vault.swap on a weighted pool of 18-decimal tokens, line by line as WeightedPool and WeightedMath compute it. */
function contractGivenIn(s: WeightedSide, amountIn: bigint): bigint {
  const amount = sub(amountIn, mulUp(amountIn, s.swapFee));
  if (amount > mulDown(s.balanceIn, MAX_RATIO)) throw new Error('BAL#304');
  const power = powUp(divUp(s.balanceIn, s.balanceIn + amount), divDown(s.weightIn, s.weightOut));
  return mulDown(s.balanceOut, complement(power));
}
function contractGivenOut(s: WeightedSide, amountOut: bigint): bigint {
  if (amountOut > mulDown(s.balanceOut, MAX_RATIO)) throw new Error('BAL#305');
  const power = powUp(divUp(s.balanceOut, sub(s.balanceOut, amountOut)), divUp(s.weightOut, s.weightIn));
  return divUp(mulUp(s.balanceIn, sub(power, ONE)), complement(s.swapFee));
}

const declined = (): undefined => undefined;

function floatQuoter(s: WeightedSide, exactIn: boolean) {
  const limit = mulDown(exactIn ? s.balanceIn : s.balanceOut, MAX_RATIO);
  const exponent = exactIn ? divDown(s.weightIn, s.weightOut) : divUp(s.weightOut, s.weightIn);
  return weightedFloatQuoter(s.balanceIn, s.balanceOut, limit, exponent, s.swapFee, exactIn, declined);
}

const WEIGHTS: [bigint, bigint][] = [
  [8n * 10n ** 17n, 2n * 10n ** 17n],
  [2n * 10n ** 17n, 8n * 10n ** 17n],
  [6n * 10n ** 17n, 4n * 10n ** 17n],
  [4n * 10n ** 17n, 6n * 10n ** 17n],
  [98n * 10n ** 16n, 2n * 10n ** 16n],
  [ONE / 3n, ONE / 3n + 1n],
  [5n * 10n ** 17n, 5n * 10n ** 17n],
  [666666666666666666n, 333333333333333333n],
  [333333333333333333n, 666666666666666666n],
];
const FEES = [3n * 10n ** 15n, 10n ** 12n, 10n ** 16n, 25n * 10n ** 14n, 0n, 1n, 10n ** 17n];

/** A balance as pools hold them (a few wei to 7e10 tokens, below 2^96), or a round one (a whole number of tokens). */
function balance(round: boolean): bigint {
  const tokens = logUniform(1e-6, 7e10);
  return round
    ? BigInt(Math.max(1, Math.round(tokens))) * ONE
    : BigInt(Math.round(tokens * 1e6)) * 10n ** 12n + between(0n, 10n ** 12n - 1n);
}

function side(round: boolean): WeightedSide {
  const [weightIn, weightOut] =
    random() < 0.8 ? pick(WEIGHTS) : [between(10n ** 16n, 99n * 10n ** 16n), between(10n ** 16n, 99n * 10n ** 16n)];
  return {
    balanceIn: balance(round),
    balanceOut: balance(round),
    weightIn,
    weightOut,
    scalingFactorIn: ONE,
    scalingFactorOut: ONE,
    swapFee: random() < 0.8 ? pick(FEES) : between(0n, 10n ** 17n),
  };
}

/** An amount: a fraction of the balance it is checked against (1e-12 to past 30%), at the 30% limit, or round. */
let atLimit = false;
function amount(s: WeightedSide, exactIn: boolean, round: boolean): bigint {
  const b = exactIn ? s.balanceIn : s.balanceOut;
  const limit = exactIn ? (mulDown(b, MAX_RATIO) * ONE) / (ONE - s.swapFee) : mulDown(b, MAX_RATIO);
  const kind = Math.floor(random() * 4);
  atLimit = kind === 0;
  switch (kind) {
    case 0:
      return limit + between(-3n, 3n);
    case 1:
      return round ? BigInt(Math.round(logUniform(1, 1e6))) * 10n ** BigInt(Math.floor(random() * 19)) : between(1n, 10n ** 6n);
    default: {
      const fraction = logUniform(1e-12, 0.32);
      const a = (b * BigInt(Math.round(fraction * 2 ** 52))) / 2n ** 52n;
      return round ? (a / ONE) * ONE : a;
    }
  }
}

t.test(`weightedFloatQuoter equals the contract wherever it answers, ${CASES} seeded quotes each way`, async (t) => {
  let differ = 0;
  let poolLike = 0;
  let poolLikeAnswered = 0;
  let declined = 0;
  for (let i = 0; i < CASES; i++) {
    const round = random() < 0.25;
    const s = side(round);
    for (const exactIn of [true, false]) {
      const a = amount(s, exactIn, round);
      const expected = outcome(() => (exactIn ? contractGivenIn(s, a) : contractGivenOut(s, a)));
      const quoter = weightedQuoter(s, exactIn);
      const viaQuoter = outcome(() => quoter(a));
      const float = floatQuoter(s, exactIn);
      const got = float?.(a);
      const inRange = typeof expected === 'bigint';
      if (typeof expected === 'string' ? typeof viaQuoter !== 'string' : viaQuoter !== expected) {
        differ++;
        if (differ <= 5)
          t.fail(
            `weightedQuoter ${JSON.stringify(s, (_, v) => (typeof v === 'bigint' ? `${v}` : v))} ${exactIn} ${a}: ${viaQuoter}, contract ${expected}`,
          );
      }
      if (got !== undefined && got !== expected) {
        differ++;
        if (differ <= 5)
          t.fail(
            `float ${JSON.stringify(s, (_, v) => (typeof v === 'bigint' ? `${v}` : v))} ${exactIn} ${a}: ${got}, contract ${expected}`,
          );
      }
      if (got === undefined) declined++;
      // Pool-like: a general pow, balances of at least 1e12 wei, an amount from 1e-9 of its balance, not at the limit.
      const b = exactIn ? s.balanceIn : s.balanceOut;
      const y = exactIn ? divDown(s.weightIn, s.weightOut) : divUp(s.weightOut, s.weightIn);
      if (
        !round &&
        !atLimit &&
        inRange &&
        float !== undefined &&
        s.balanceIn > 10n ** 12n &&
        s.balanceOut > 10n ** 12n &&
        a * 10n ** 9n > b &&
        y !== ONE
      ) {
        poolLike++;
        if (got !== undefined) poolLikeAnswered++;
      }
    }
  }
  t.equal(differ, 0, 'no quote differs from the contract');
  t.ok(poolLike > CASES / 4, `pool-like quotes drawn (${poolLike})`);
  t.ok(poolLikeAnswered > poolLike * 0.995, `the float path answered ${poolLikeAnswered} of ${poolLike} pool-like quotes`);
  t.ok(declined > CASES / 20, `and declined some (${declined}: limits, dust, exact quotients)`);
});

t.test('exact quotients at each step: decided as exact ratios or declined, never answered wrong', async (t) => {
  const bIn = 4000n * ONE;
  const bOut = 3000n * ONE;
  const s: WeightedSide = {
    balanceIn: bIn,
    balanceOut: bOut,
    weightIn: 6n * 10n ** 17n,
    weightOut: 4n * 10n ** 17n,
    scalingFactorIn: ONE,
    scalingFactorOut: ONE,
    swapFee: 0n,
  };
  // base = 4000 / 5000 exactly: its ceiling cannot be taken from a float quotient, so the float path declines.
  t.equal(floatQuoter(s, true)?.(1000n * ONE), undefined, 'exact base (exact in) declined');
  t.equal(weightedQuoter(s, true)(1000n * ONE), contractGivenIn(s, 1000n * ONE), 'and the quoter gives the contract');
  t.equal(floatQuoter(s, false)?.(600n * ONE), undefined, 'exact base (exact out: 3000 / 2400) declined');
  t.equal(weightedQuoter(s, false)(600n * ONE), contractGivenOut(s, 600n * ONE), 'and the quoter gives the contract');
  // The fee's quotient amount * 0.997 is an exact integer for a round amount, and balanceOut * (1 - power) / 1e18 has
  // denominator 1 for a whole-token balance: both are exact ratios the float path decides (floorOfRatio).
  const fee: WeightedSide = { ...s, swapFee: 3n * 10n ** 15n };
  for (const a of [10n ** 15n, 123n * ONE, 10n ** 20n + 7n, ONE]) {
    t.equal(floatQuoter(fee, true)?.(a), contractGivenIn(fee, a), `round balances, fee 0.3%, exact in ${a}: answered, equal`);
    t.equal(floatQuoter(fee, false)?.(a), contractGivenOut(fee, a), `round balances, fee 0.3%, exact out ${a}: answered, equal`);
  }
  // A fee of 1 wei: 1 - fee over 1e18 has no small denominator, so an exact fee quotient declines.
  const wei: WeightedSide = { ...s, swapFee: 1n };
  t.equal(floatQuoter(wei, true)?.(0n), undefined, 'amount 0 declined');
  t.equal(floatQuoter(wei, true)?.(10n ** 18n), undefined, '1e18 * (1e18 - 1) / 1e18, an exact integer: declined');
  t.equal(weightedQuoter(wei, true)(10n ** 18n), contractGivenIn(wei, 10n ** 18n), 'and the quoter gives the contract');
  const half = 5n * 10n ** 17n + 12_345n;
  t.equal(floatQuoter(wei, true)?.(half), contractGivenIn(wei, half), 'a fee quotient half-way between integers: answered');
  // The 30% limits: at the limit's nearest double and above it the bigint path decides (and reverts past it).
  const limitIn = mulDown(bIn, MAX_RATIO);
  t.equal(floatQuoter(s, true)?.(limitIn), undefined, 'exact in at the 30% limit declined');
  t.equal(
    outcome(() => weightedQuoter(s, true)(limitIn + 1n)),
    'AmmError:INSUFFICIENT_RESERVES:amount in exceeds 30% of the balance (MAX_IN_RATIO)',
  );
  t.equal(floatQuoter(s, true)?.(limitIn - 2n ** 20n), contractGivenIn(s, limitIn - 2n ** 20n), 'below it answered');
  // Outside the range: balances from 2^96, fees of 1e18 or more.
  t.equal(floatQuoter({ ...s, balanceIn: 2n ** 96n }, true), undefined, 'balance 2^96: no float quoter');
  // powUp's exact cases (exponents 1, 2 and 4: the base, one or two mulUp squares) are answered (their exact squares:
  // balancerPowFloat.test.ts); an exact base declines as for any exponent.
  for (const [weightIn, weightOut, y] of [
    [ONE / 2n, ONE / 2n, 1],
    [666666666666666666n, 333333333333333333n, 2],
    [8n * 10n ** 17n, 2n * 10n ** 17n, 4],
  ] as const) {
    const e: WeightedSide = { ...s, weightIn, weightOut, swapFee: 3n * 10n ** 15n };
    const a = 123_456_789_012_345_678_901n;
    t.equal(floatQuoter(e, true)?.(a), contractGivenIn(e, a), `exponent ${y}: answered, equal`);
    // base = 4000e18 * 1e18 / (4000e18 + net) = 0.8e18 exactly for net = 1000e18 (fee 0)
    t.equal(floatQuoter({ ...e, swapFee: 0n }, true)?.(1000n * ONE), undefined, `exponent ${y}, exact base 0.8e18: declined`);
  }
  t.equal(floatQuoter({ ...s, swapFee: ONE }, true), undefined, 'fee of 100%: none');
});

t.test('seeded quotes built on exact quotients (base, fee, result): the float path never answers them wrong', async (t) => {
  let differ = 0;
  let declined = 0;
  const n = Math.max(2000, CASES / 10);
  for (let i = 0; i < n; i++) {
    // sum = balance + amount a power-of-ten divisor (2^i 5^j) times m, balance p of its parts: base = p / (p + q) * 1e18
    // is an exact integer (exact in, no fee); exact out the other way round. Fees of 1 wei to 1e-6 on whole-token
    // amounts make the fee quotient an exact integer with no small denominator.
    const parts = 2n ** BigInt(Math.floor(random() * 8)) * 5n ** BigInt(Math.floor(random() * 8));
    const m = between(1n, 10n ** 12n) * (random() < 0.5 ? ONE : 1n);
    const q = between(1n, (parts * 3n) / 13n > 0n ? (parts * 3n) / 13n : 1n);
    const p = parts - q;
    const [weightIn, weightOut] = pick(WEIGHTS);
    const fee = random() < 0.5 ? 0n : between(1n, 10n ** 12n);
    const s: WeightedSide = {
      balanceIn: p * m,
      balanceOut: random() < 0.5 ? between(10n ** 15n, 10n ** 28n) : p * m,
      weightIn,
      weightOut,
      scalingFactorIn: ONE,
      scalingFactorOut: ONE,
      swapFee: fee,
    };
    const cases: [boolean, bigint][] = [
      [true, fee === 0n ? q * m : between(1n, 10n ** 6n) * ONE],
      [false, s.balanceOut === p * m ? (q * m * p) / parts : between(1n, 10n ** 6n) * ONE],
    ];
    for (const [exactIn, a] of cases) {
      const expected = outcome(() => (exactIn ? contractGivenIn(s, a) : contractGivenOut(s, a)));
      const got = floatQuoter(s, exactIn)?.(a);
      const viaQuoter = outcome(() => weightedQuoter(s, exactIn)(a));
      if (got === undefined) declined++;
      const bad =
        (got !== undefined && got !== expected) || (typeof expected === 'string' ? typeof viaQuoter !== 'string' : viaQuoter !== expected);
      if (bad) {
        differ++;
        if (differ <= 5)
          t.fail(
            `${exactIn ? 'in' : 'out'} ${s.balanceIn} ${s.balanceOut} ${weightIn}/${weightOut} fee ${fee} amount ${a}: ${got} / ${viaQuoter}, contract ${expected}`,
          );
      }
    }
  }
  t.equal(differ, 0, `no quote differs (${declined} of ${2 * n} declined)`);
});
