// npx tsx bench/balancer.ts — our Balancer v2 math against @balancer-labs/balancer-maths (Balancer v3's TypeScript
// maths, a test-only dependency) on the same upscaled inputs: a weighted 80/20 swap (WeightedMath with LogExpMath pow:
// 80/20 exact input is exponent 4, exact output 0.25) and a 3-token stable swap (invariant plus balance iteration).
// The v2 stable balance iteration rounds differently from v3's (see test/protocols/balancerMath.devnet.test.ts), so
// the stable figures compare the same amount of work, not bit-equal results. @balancer-labs/sor is not installed.
import { _computeInGivenExactOut, _computeOutGivenExactIn, Stable } from '@balancer-labs/balancer-maths';
import { calculateInvariant, calcOutGivenIn as stableOut } from '../src/protocols/balancerStable/stableMath.ts';
import { calcInGivenOut, calcOutGivenIn } from '../src/protocols/balancerWeighted/weightedMath.ts';
import { fmtOps, machine, measurePair } from './lib/measure.ts';

const E18 = 10n ** 18n;
const [bIn, wIn, bOut, wOut] = [1_234_567n * E18, 8n * 10n ** 17n, 987_654n * E18, 2n * 10n ** 17n];
const amount = 12_345n * E18;
const balances = [1_000_000n * E18, 1_200_000n * E18, 900_000n * E18];
const amp = 300_000n;
const stable = new Stable({ amp } as ConstructorParameters<typeof Stable>[0]);

const rows: [string, string, string, string][] = [];
const pairs: [string, () => unknown, () => unknown][] = [
  [
    'weighted exact in (80 -> 20)',
    () => calcOutGivenIn(bIn, wIn, bOut, wOut, amount),
    () => _computeOutGivenExactIn(bIn, wIn, bOut, wOut, amount),
  ],
  [
    'weighted exact in (20 -> 80)',
    () => calcOutGivenIn(bOut, wOut, bIn, wIn, amount),
    () => _computeOutGivenExactIn(bOut, wOut, bIn, wIn, amount),
  ],
  [
    'weighted exact out (80 -> 20)',
    () => calcInGivenOut(bIn, wIn, bOut, wOut, amount),
    () => _computeInGivenExactOut(bIn, wIn, bOut, wOut, amount),
  ],
  [
    'stable 3-token exact in',
    () => stableOut(amp, balances, 0, 1, amount, calculateInvariant(amp, balances)),
    () =>
      stable.onSwap({
        swapKind: 0,
        balancesLiveScaled18: [...balances],
        indexIn: 0,
        indexOut: 1,
        amountGivenScaled18: amount,
      } as Parameters<typeof stable.onSwap>[0]),
  ],
];
for (const [name, ours, theirs] of pairs) {
  const [a, b] = await measurePair(ours, {}, theirs, {});
  rows.push([name, fmtOps(a.opsPerSec), fmtOps(b.opsPerSec), `${(a.opsPerSec / b.opsPerSec).toFixed(2)}x`]);
}
console.log(`balancer math, ${machine()}`);
console.log('case | ours ops/s | balancer-maths ops/s | ratio');
for (const r of rows) console.log(r.join(' | '));
