// The fast paths of the Balancer v2 math equal the general path exactly, value for value and error for error:
// powFast/expFast against LogExpMath's transliteration (pow/exp), powUpBy(y) against powUp(x, y), the prepared weighted
// and stable quoters against weightedSwapGivenIn/Out and stableSwapGivenIn/Out, over random inputs (fast-check) and
// edge cases (exponents 0, 1, 2, 4, the ln_36 bounds, x at 2^255, zero balances, amounts past the pools' limits,
// balances too large for the prepared path). The general path itself equals the chain (balancerMath.devnet.test.ts).
import fc from 'fast-check';
import t from 'tap';
import { add, divUpInt, mul, ONE } from '../../src/amm/balancerFixedPoint.ts';
import { expFast, powFast, powUpBy } from '../../src/amm/balancerPow.ts';
import {
  balanceIteration,
  calculateInvariant,
  type StableSwapState,
  stableSwapGivenIn,
  stableSwapGivenOut,
} from '../../src/protocols/balancerStable/stableMath.ts';
import { convergedBalance, invariantMemo, solveBalance, stableQuoter } from '../../src/protocols/balancerStable/stableQuoter.ts';
import {
  type WeightedSide,
  weightedQuoter,
  weightedSwapGivenIn,
  weightedSwapGivenOut,
} from '../../src/protocols/balancerWeighted/weightedMath.ts';
import { exp, pow, powUp } from '../helpers/balancerLogExp.ts';
import { outcome } from '../helpers/callOutcome.ts';
import { seededRandom } from '../helpers/seededRandom.ts';

const RUNS = 3000;

const big = (max: bigint) => fc.bigInt({ min: 0n, max });
/** Numbers of every magnitude up to 2^bits, more of them small. */
const magnitude = (bits: number) => fc.integer({ min: 0, max: bits }).chain((b) => big((1n << BigInt(b)) - 1n));
const nearOne = fc.bigInt({ min: ONE - 2n * 10n ** 17n, max: ONE + 2n * 10n ** 17n });
const exponent = fc.oneof(
  fc.constantFrom(0n, 1n, ONE, 2n * ONE, 4n * ONE, ONE / 4n, ONE / 2n, (3n * ONE) / 2n, (2n * ONE) / 3n, 49n * ONE, ONE / 49n),
  big(8n * ONE),
  magnitude(200),
);
const powBase = fc.oneof(
  nearOne,
  fc.constantFrom(0n, 1n, ONE, ONE - 10n ** 17n, ONE - 10n ** 17n + 1n, ONE + 10n ** 17n, ONE + 10n ** 17n - 1n),
  fc.constantFrom((1n << 255n) - 1n, 1n << 255n),
  magnitude(256),
);

t.test('powFast and expFast equal LogExpMath pow and exp', async (t) => {
  fc.assert(
    fc.property(powBase, exponent, (x, y) => outcome(() => powFast(x, y)) === outcome(() => pow(x, y))),
    { numRuns: RUNS },
  );
  const natural = fc.oneof(fc.bigInt({ min: -42n * ONE, max: 131n * ONE }), fc.constantFrom(-41n * ONE, 130n * ONE, 0n, -1n, 1n));
  fc.assert(
    fc.property(natural, (x) => outcome(() => expFast(x)) === outcome(() => exp(x))),
    { numRuns: RUNS },
  );
  t.equal(powFast(ONE + 10n ** 17n - 1n, 3n * ONE), pow(ONE + 10n ** 17n - 1n, 3n * ONE), 'top of the ln_36 range');
  t.equal(
    outcome(() => powFast(1n << 255n, ONE / 2n)),
    'AmmError:OVERFLOW:pow: x out of bounds',
  );
});

t.test('powUpBy(y) equals powUp(x, y), special exponents included', async (t) => {
  fc.assert(
    fc.property(powBase, exponent, (x, y) => outcome(() => powUpBy(y)(x)) === outcome(() => powUp(x, y))),
    { numRuns: RUNS },
  );
  t.equal(powUpBy(4n * ONE)(ONE / 2n), powUp(ONE / 2n, 4n * ONE));
});

const weights = fc.oneof(
  fc.constantFrom<[bigint, bigint]>([ONE / 2n, ONE / 2n], [(8n * ONE) / 10n, (2n * ONE) / 10n], [(6n * ONE) / 10n, (4n * ONE) / 10n]),
  fc.constantFrom<[bigint, bigint]>([(98n * ONE) / 100n, (2n * ONE) / 100n], [ONE / 3n, ONE / 3n], [0n, ONE / 2n]),
  fc.tuple(fc.bigInt({ min: 10n ** 16n, max: ONE }), fc.bigInt({ min: 10n ** 16n, max: ONE })),
);
const scaling = fc.oneof(
  fc.constantFrom(0, 6, 8, 18).map((d) => ONE * 10n ** BigInt(18 - d)),
  fc.bigInt({ min: 9n * 10n ** 17n, max: 2n * ONE }),
);
const fee = fc.oneof(fc.constantFrom(0n, 10n ** 12n, 3n * 10n ** 15n, 10n ** 17n, ONE, ONE + 1n), big(ONE / 10n));
const weightedSide = fc
  .record({
    balanceIn: magnitude(130),
    balanceOut: magnitude(130),
    w: weights,
    scalingFactorIn: scaling,
    scalingFactorOut: scaling,
    swapFee: fee,
  })
  .map(({ w, ...s }): WeightedSide => ({ ...s, weightIn: w[0], weightOut: w[1] }));

t.test('weightedQuoter equals weightedSwapGivenIn / weightedSwapGivenOut, amounts up to past the 30% limits', async () => {
  fc.assert(
    fc.property(weightedSide, fc.array(magnitude(135), { minLength: 1, maxLength: 6 }), (side, amounts) => {
      const exactIn = weightedQuoter(side, true);
      const exactOut = weightedQuoter(side, false);
      return amounts.every(
        (a) =>
          outcome(() => exactIn(a)) === outcome(() => weightedSwapGivenIn(side, a)) &&
          outcome(() => exactOut(a)) === outcome(() => weightedSwapGivenOut(side, a)),
      );
    }),
    { numRuns: RUNS },
  );
});

t.test('weightedQuoter on a side the preparation reverts on (overflowing balance) gives the general path', async (t) => {
  const side: WeightedSide = {
    balanceIn: 1n << 250n,
    balanceOut: ONE,
    weightIn: ONE / 2n,
    weightOut: ONE / 2n,
    scalingFactorIn: ONE * 10n ** 12n,
    scalingFactorOut: ONE,
    swapFee: 0n,
  };
  t.equal(
    outcome(() => weightedQuoter(side, true)(ONE)),
    outcome(() => weightedSwapGivenIn(side, ONE)),
  );
  t.equal(
    outcome(() => weightedQuoter(side, true)(ONE)),
    'AmmError:OVERFLOW:mulDown overflows uint256',
  );
});

const stableState = fc.integer({ min: 2, max: 5 }).chain((n) =>
  fc.record({
    balances: fc.array(fc.oneof(magnitude(120), fc.bigInt({ min: 10n ** 20n, max: 10n ** 30n })), { minLength: n, maxLength: n }),
    scalingFactors: fc.array(scaling, { minLength: n, maxLength: n }),
    amp: fc.oneof(fc.constantFrom(1000n, 200_000n, 5_000_000n, 0n), fc.bigInt({ min: 1000n, max: 5_000_000n })),
    swapFee: fee,
  }),
);

t.test('stableQuoter equals stableSwapGivenIn / stableSwapGivenOut for 2 to 5 tokens, every pair', async () => {
  fc.assert(
    fc.property(stableState, fc.array(magnitude(125), { minLength: 1, maxLength: 4 }), (state: StableSwapState, amounts) => {
      const n = state.balances.length;
      const memo = invariantMemo(); // shared by every pair and direction of the state, as balancerQuoter does
      for (let i = 0; i < n; i++) {
        for (let o = 0; o < n; o++) {
          if (i === o) continue;
          const exactIn = stableQuoter(state, i, o, true, memo);
          const exactOut = stableQuoter(state, i, o, false);
          for (const a of amounts) {
            if (outcome(() => exactIn(a)) !== outcome(() => stableSwapGivenIn(state, i, o, a))) return false;
            if (outcome(() => exactOut(a)) !== outcome(() => stableSwapGivenOut(state, i, o, a))) return false;
          }
        }
      }
      return true;
    }),
    { numRuns: RUNS / 3 },
  );
});

t.test(
  'stableQuoter for 18-decimal tokens without a rate (no scaling) equals the general path, amounts to and past the limits',
  async () => {
    const MAX_UNSCALED = ((1n << 256n) - 1n) / ONE;
    const plainState = fc.integer({ min: 2, max: 4 }).chain((n) =>
      fc.record({
        balances: fc.array(fc.oneof(fc.bigInt({ min: 10n ** 18n, max: 10n ** 30n }), magnitude(200)), { minLength: n, maxLength: n }),
        scalingFactors: fc.constant(Array.from({ length: n }, () => ONE)),
        amp: fc.oneof(fc.constantFrom(1000n, 200_000n, 5_000_000n), fc.bigInt({ min: 1000n, max: 5_000_000n })),
        swapFee: fee,
      }),
    );
    fc.assert(
      fc.property(plainState, fc.array(magnitude(200), { minLength: 1, maxLength: 4 }), (state: StableSwapState, picked) => {
        const n = state.balances.length;
        for (let i = 0; i < n; i++) {
          for (let o = 0; o < n; o++) {
            if (i === o) continue;
            const exactIn = stableQuoter(state, i, o, true);
            const exactOut = stableQuoter(state, i, o, false);
            const out = state.balances[o];
            const amounts = [...picked, 0n, 1n, out / 3n, out - 1n, out, out + 1n, MAX_UNSCALED, MAX_UNSCALED + 1n, -1n];
            for (const a of amounts) {
              if (outcome(() => exactIn(a)) !== outcome(() => stableSwapGivenIn(state, i, o, a))) return false;
              if (outcome(() => exactOut(a)) !== outcome(() => stableSwapGivenOut(state, i, o, a))) return false;
            }
          }
        }
        return true;
      }),
      { numRuns: RUNS / 15 },
    );
  },
);

t.test('invariantMemo answers from memory only for the same amplification and balances', async (t) => {
  const memo = invariantMemo();
  const a = [10n ** 24n, 2n * 10n ** 24n];
  const b = [10n ** 24n, 2n * 10n ** 24n + 1n];
  for (const [amp, balances] of [
    [200_000n, a],
    [200_000n, a],
    [200_000n, b],
    [300_000n, b],
    [200_000n, [...a, 5n]],
    [200_000n, a],
  ] as const) {
    t.equal(memo(amp, balances), calculateInvariant(amp, balances), `${amp} ${balances.join(',')}`);
  }
});

t.test('stableQuoter on edge states: zero balances, balances near 2^256, amounts at and past a balance', async (t) => {
  const E18 = ONE;
  const states: StableSwapState[] = [
    { balances: [0n, 0n, 0n], scalingFactors: [E18, E18, E18], amp: 200_000n, swapFee: 0n },
    { balances: [1n << 251n, 1n << 251n], scalingFactors: [E18, E18], amp: 200_000n, swapFee: 0n },
    { balances: [10n ** 24n, 10n ** 6n, 10n ** 24n], scalingFactors: [E18, E18 * 10n ** 12n, E18], amp: 500_000n, swapFee: 10n ** 14n },
    { balances: [1n << 125n, 1n, 1n << 124n], scalingFactors: [E18, E18, E18], amp: 1000n, swapFee: 0n },
  ];
  for (const state of states) {
    for (const a of [0n, 1n, 10n ** 6n, 10n ** 24n, state.balances[1] - 1n, state.balances[1], state.balances[1] + 1n, 1n << 251n]) {
      t.equal(
        outcome(() => stableQuoter(state, 0, 1, true)(a)),
        outcome(() => stableSwapGivenIn(state, 0, 1, a)),
        `in ${a}`,
      );
      t.equal(
        outcome(() => stableQuoter(state, 0, 1, false)(a)),
        outcome(() => stableSwapGivenOut(state, 0, 1, a)),
        `out ${a}`,
      );
    }
  }
});

t.test('stableQuoter where the balance iteration passes 2^126 (its checked iteration takes over) equals the general path', async (t) => {
  // Found by a random search; the same cases overflow or not in both paths.
  const cases: [bigint[], bigint, bigint][] = [
    [[8796093022436n, 9671406556917033397649852n], 2840774n, 8796093022221n],
    [[590295810358705651944n, 18889465931478580855103n], 339032n, 590295810358705651940n],
    [[1152921504606847356n, 77371252455336267181195837n, 302231454903657293676607n], 3719551n, 1152921504606847159n],
  ];
  for (const [balances, amp, a] of cases) {
    const state: StableSwapState = { balances, scalingFactors: balances.map(() => ONE), amp, swapFee: 0n };
    t.equal(
      outcome(() => stableQuoter(state, 0, 1, true)(a)),
      outcome(() => stableSwapGivenIn(state, 0, 1, a)),
      `in ${a}`,
    );
    t.equal(
      outcome(() => stableQuoter(state, 1, 0, false)(a)),
      outcome(() => stableSwapGivenOut(state, 1, 0, a)),
      `out ${a}`,
    );
  }
});

t.test('solveBalance equals the checked balance iteration, roots at and near integers included', async (t) => {
  // The contract: its initial guess ceil((D^2 + c) / (D + b)), then the checked iteration.
  const contract = (c: bigint, b: bigint, d: bigint) => balanceIteration(divUpInt(add(mul(d, d), c), add(d, b)), c, b, d);
  const same = (c: bigint, b: bigint, d: bigint) => outcome(() => solveBalance(c, b - d, d)) === outcome(() => contract(c, b, d));
  // Any c, b and invariant: values and errors alike (past 2^126, overflow, zero).
  fc.assert(fc.property(magnitude(256), magnitude(130), magnitude(130), same), { numRuns: RUNS });
  // Pool-like: c up to D^2-ish, b and D of similar size.
  const poolLike = fc.tuple(magnitude(220), fc.bigInt({ min: 1n, max: 10n ** 35n }), fc.bigInt({ min: 10n ** 6n, max: 10n ** 35n }));
  fc.assert(
    fc.property(poolLike, ([c, b, d]) => same(c, b, d)),
    { numRuns: RUNS },
  );
  // The root r of y^2 + (b - D) y - c just below, at or just above an integer R: h(R) = k, the direct answer taken only
  // for k >= 4 or k < 0 (k in 0..3: the iteration's last steps are followed instead).
  let direct = 0;
  const nearInteger = fc
    .tuple(
      fc.bigInt({ min: 2n, max: 1n << 120n }),
      fc.bigInt({ min: 1n, max: 1n << 125n }),
      fc.bigInt({ min: -1n << 120n, max: 1n << 120n }),
    )
    .chain(([root, d, beta]) => fc.bigInt({ min: -3n, max: 8n }).map((k) => [root * (root + beta) - k, d + beta, d] as const))
    .filter(([c, b]) => c >= 0n && b >= 0n);
  fc.assert(
    fc.property(nearInteger, ([c, b, d]) => {
      if (convergedBalance(c, b - d, d) !== undefined) direct++;
      return same(c, b, d);
    }),
    { numRuns: RUNS },
  );
  t.ok(direct > RUNS / 10, `the direct answer was taken (${direct} cases)`);
  const root = 10n ** 24n + 7n;
  const beta = -(3n * 10n ** 23n);
  const d = 10n ** 25n;
  for (const k of [-1n, 0n, 1n, 2n, 3n, 4n]) {
    // h(R) = k: k < 0 puts r just above R (ceil is R + 1, taken), 0 <= k < 4 just below or at it (not taken).
    const c = root * (root + beta) - k;
    t.equal(convergedBalance(c, beta, d), k < 0n ? root + 1n : k >= 4n ? root : undefined, `h(R) = ${k}`);
    t.ok(same(c, d + beta, d), `h(R) = ${k}: same as the iteration`);
  }
  // R above the invariant: not taken (the iteration could pass 2^126), and still the same.
  t.equal(convergedBalance(root * (root + beta) - 5n, beta, root - 10n), undefined, 'R > D');
  t.ok(same(root * (root + beta) - 5n, root - 10n + beta, root - 10n), 'R > D: same as the iteration');
});

t.test(
  'solveBalance equals the checked balance iteration on seeded pool-like and extreme inputs (float candidate, its fallback)',
  async (t) => {
    const random = seededRandom(Number(process.env.SOLVE_SEED ?? 0x5ab1e));
    const bits = (n: number) => {
      let v = 0n;
      for (let k = 0; k < n; k += 48) v = (v << 48n) | BigInt(Math.floor(random() * 2 ** 48));
      return v >> BigInt(Math.ceil(n / 48) * 48 - n);
    };
    const contract = (c: bigint, b: bigint, d: bigint) => balanceIteration(divUpInt(add(mul(d, d), c), add(d, b)), c, b, d);
    let differ = 0;
    let direct = 0;
    const cases = Number(process.env.SOLVE_CASES ?? 6000);
    for (let i = 0; i < cases; i++) {
      let c: bigint;
      let b: bigint;
      let d: bigint;
      const kind = i % 4;
      if (kind === 0) {
        // A root constructed at an integer R with h(R) = k, from 2 to 2^120, beta of either sign.
        const root = bits(2 + Math.floor(random() * 119)) + 2n;
        const beta = (random() < 0.5 ? -1n : 1n) * bits(1 + Math.floor(random() * 120));
        c = root * (root + beta) - BigInt(Math.floor(random() * 12) - 3);
        d = root + bits(1 + Math.floor(random() * 125));
        b = d + beta;
      } else if (kind === 1) {
        // Pool-like: balances 1e15 .. 1e33, c up to about D^2.
        d = bits(50 + Math.floor(random() * 60)) + 1n;
        b = d + (random() < 0.5 ? -1n : 1n) * (bits(1 + Math.floor(random() * 100)) % d);
        c = bits(1 + Math.floor(random() * 220));
      } else if (kind === 2) {
        // Extremes: c near 2^254, beta past what floats square, zeros.
        c = random() < 0.3 ? 0n : bits(200 + Math.floor(random() * 54));
        d = random() < 0.2 ? 0n : bits(1 + Math.floor(random() * 126));
        b = random() < 0.2 ? d : d + bits(1 + Math.floor(random() * 250));
      } else {
        c = bits(1 + Math.floor(random() * 256));
        d = bits(1 + Math.floor(random() * 130));
        b = bits(1 + Math.floor(random() * 130));
      }
      if (b < 0n || c < 0n) continue;
      if (convergedBalance(c, b - d, d) !== undefined) direct++;
      if (outcome(() => solveBalance(c, b - d, d)) !== outcome(() => contract(c, b, d))) {
        differ++;
        if (differ <= 5) t.fail(`c ${c} b ${b} d ${d}`);
      }
    }
    t.equal(differ, 0, `${cases} cases`);
    t.ok(direct > cases / 5, `the direct answer was taken (${direct})`);
  },
);
