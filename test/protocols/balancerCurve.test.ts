// A Balancer pool's float curves (balancerV2.curveSegments, what the route search steers by and prunes with; one per
// trade side: PoolProtocol.curveBySide) are upper bounds of the exact math everywhere the pool carries on their side:
// for weighted (50/50, 80/20, 98/2, tokens of 6, 8 and 18 decimals) and composable stable pools (3 tokens with a BPT,
// a rate provider, amplification 200 and 500, balanced and lopsided balances), every pair view and direction, at exact
// inputs from a wei to the pool's limit (weighted: 30% of the balance in; stable: far past the balance in, until the
// output balance is nearly exhausted) and at the inputs exact outputs up to their limit ask (weighted: 30% of the
// balance out, which asks more than 30% of the balance in where wi / wo < 1.36; stable: nearly all of it):
// - each curve's output at an input is at least the exact output (and, at an exact output's input, at least that
//   output): the exact-input curve at every exact input and at the exact outputs an exact input could give, the
//   exact-output curve at all of them;
// - its rate at zero times the input is too (the bound pathRateAtZero and OutputBound read);
// - the curve carries every input the pool carries on its side (its segments reach past it: no -Infinity for a path
//   that can carry), and the exact-input curve adds less than a unit past the exact-input limit (so an exact-input
//   split never gives the pool more than it takes); where no exact output asks more, both sides' curves are one;
// - its segments' start rates never increase and each segment's end rate is at least the next one's start rate
//   (concave: the surplus bounds read it so), and the curve is close to the exact output (within 0.1% for amounts
//   above a million units and outputs below 99% of the balance out, in fact within 0.005%: it steers the split search).
import t from 'tap';
import { balancerSwap } from '../../src/protocols/balancer/balancerState.ts';
import { balancerV2 } from '../../src/protocols/balancer/balancerV2.ts';
import type { SnapshotPoolBalancer } from '../../src/protocols/balancer/SnapshotPoolBalancer.ts';
import { PoolCurve } from '../../src/routing/pathCurve.ts';
import { seededRandom } from '../helpers/seededRandom.ts';

const E18 = 10n ** 18n;
const addr = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
const id = (n: number) => `${addr(n)}${'0'.repeat(24)}`;

/** The fields every pool record here shares: pool n, its first pair (token0, token1 with their balances), the fee. */
function common(n: number, pair: string[], balances: bigint[], swapFee: bigint) {
  return {
    version: 'balancerV2' as const,
    address: id(n),
    dex: 'balancer',
    token0: pair[0],
    token1: pair[1],
    fee: Number(swapFee / 10n ** 12n),
    balance0: String(balances[0]),
    balance1: String(balances[1]),
    pool: addr(n),
    vault: addr(0xbeef),
    factory: addr(0xfac),
    swapFee: String(swapFee),
  };
}

function weighted(n: number, decimals: number[], balances: bigint[], weights: bigint[], swapFee: bigint): SnapshotPoolBalancer {
  const tokens = decimals.map((_, i) => addr(0x100 + n * 16 + i));
  return {
    ...common(n, tokens, balances, swapFee),
    poolKind: 'balancerWeighted',
    tokens,
    balances: balances.map(String),
    decimals,
    weights: weights.map(String),
  };
}

/** A composable stable pool; its BPT (the pool's own address) is registered first, with the given index. */
function stable(
  n: number,
  decimals: number[],
  balances: bigint[],
  amp: bigint,
  rates: (string | null)[],
  swapFee: bigint,
): SnapshotPoolBalancer {
  const own = decimals.map((_, i) => addr(0x100 + n * 16 + i + 1));
  return {
    ...common(n, own, balances, swapFee),
    poolKind: 'balancerStable',
    tokens: [addr(n), ...own],
    balances: ['2596148429267413814265248164610048', ...balances.map(String)],
    decimals: [18, ...decimals],
    bptIndex: 0,
    amp: String(amp * 1000n),
    rates: [null, ...rates],
  };
}

const POOLS: [string, SnapshotPoolBalancer][] = [
  ['80UNI-20WETH', weighted(1, [18, 18], [4_000_000n * E18, 500n * E18], [8n * 10n ** 17n, 2n * 10n ** 17n], 3n * 10n ** 15n)],
  ['50WBTC-50USDC', weighted(2, [8, 6], [30n * 10n ** 8n, 2_000_000n * 10n ** 6n], [5n * 10n ** 17n, 5n * 10n ** 17n], 10n ** 15n)],
  ['98-2 weighted', weighted(3, [18, 6], [10n ** 22n, 3n * 10n ** 11n], [98n * 10n ** 16n, 2n * 10n ** 16n], 10n ** 16n)],
  [
    'USDC-USDT-DAI stable, amp 200',
    stable(4, [6, 6, 18], [3_000_000n * 10n ** 6n, 2_000_000n * 10n ** 6n, 4_000_000n * E18], 200n, [null, null, null], 10n ** 14n),
  ],
  [
    'USDT-rDAI stable, amp 500, rate 1.05',
    stable(5, [6, 18], [1_000_000n * 10n ** 6n, 900_000n * E18], 500n, [null, String(105n * 10n ** 16n)], 4n * 10n ** 14n),
  ],
  ['lopsided stable, amp 10', stable(6, [18, 18], [50_000n * E18, 5_000_000n * E18], 10n, [null, null], 10n ** 15n)],
];

const random = seededRandom(27);

for (const [name, record] of POOLS) {
  for (const view of balancerV2.pairViews!(record)) {
    const pool = balancerV2.fromSnapshot(view);
    for (const zeroForOne of [true, false]) {
      const [iIn, iOut] = zeroForOne ? [pool.index0, pool.index1] : [pool.index1, pool.index0];
      const balanceIn = pool.state.balances[iIn];
      const balanceOut = pool.state.balances[iOut];
      t.test(`${name}: token ${iIn} -> ${iOut}`, async (t) => {
        // The curve each side's search reads (a weighted pool's exact-output one runs further where wi / wo < 1.36).
        const curves = {
          exactIn: new PoolCurve(balancerV2.curveSegments(pool, zeroForOne, 'exactIn')),
          exactOut: new PoolCurve(balancerV2.curveSegments(pool, zeroForOne, 'exactOut')),
        };
        const ends = { exactIn: 0, exactOut: 0 };
        const rates = { exactIn: 0, exactOut: 0 };
        for (const side of ['exactIn', 'exactOut'] as const) {
          const curve = curves[side];
          const first = curve.segment(0)!;
          rates[side] = first.a / first.b;
          let concave = true;
          let increasing = true;
          for (let k = 0; curve.segment(k); k++) {
            const s = curve.segment(k)!;
            ends[side] += s.len;
            const next = curve.segment(k + 1);
            if (next && next.a / next.b > s.a / s.b) increasing = false;
            const endRate = s.len === Number.POSITIVE_INFINITY ? 0 : (s.a * s.b) / (s.b + s.len) ** 2;
            if (next && next.a / next.b > endRate * (1 + 1e-12)) concave = false;
          }
          t.ok(increasing, `${side}: segment start rates never increase`);
          t.ok(concave, `${side}: each segment ends at a rate at least the next one starts at`);
        }
        const takes = (x: bigint): boolean => {
          try {
            balancerSwap(pool.state, iIn, iOut, 'exactIn', x, 0n);
            return true;
          } catch {
            return false;
          }
        };
        // Exact inputs: fractions of the balance in, log-spaced and random, up to 30% (weighted) or 100x (stable).
        const top = pool.kind === 'balancerWeighted' ? 0.31 : 100;
        const inputs: bigint[] = [1n, 7n, 1000n];
        for (let e = -9; 10 ** e <= top; e += 0.25) inputs.push(BigInt(Math.floor(Number(balanceIn) * 10 ** e)));
        for (let i = 0; i < 150; i++) inputs.push(BigInt(Math.floor(Number(balanceIn) * top * random() ** 2)));
        inputs.push((balanceIn * 3n) / 10n, (balanceIn * 29n) / 100n, (balanceIn * 30n) / 100n + 1n);
        let carried = 0;
        let below = '';
        let rateBelow = '';
        let past = '';
        let loose = 0;
        let looseAt = '';
        /** Checks one amount the pool carries (exact input x, exact output y) against the curve of `side`. */
        const check = (side: 'exactIn' | 'exactOut', x: bigint, y: bigint) => {
          const bound = curves[side].outputAt(Number(x));
          if (bound < Number(y) && !below) below = `${side} curve at ${x} in: ${bound} < exact ${y} out`;
          if (rates[side] * Number(x) < Number(y) && !rateBelow) rateBelow = `${side} at ${x} in: ${rates[side] * Number(x)} < ${y}`;
          if (Number(x) > ends[side] && !past) past = `the pool carries ${x} in for ${y} out, the ${side} curve ends at ${ends[side]}`;
          if (x > 10n ** 6n && y > 10n ** 6n && y < (balanceOut * 99n) / 100n && bound / Number(y) - 1 > loose) {
            loose = bound / Number(y) - 1;
            looseAt = `${side}, ${x} in`;
          }
        };
        for (const x of inputs) {
          if (!takes(x)) continue;
          carried++;
          const y = balancerSwap(pool.state, iIn, iOut, 'exactIn', x, 0n);
          check('exactIn', x, y);
          // The exact-output curve is a bound at every input too (a split or a path before it may ask any).
          check('exactOut', x, y);
        }
        // Exact outputs: fractions of the balance out up to 30% (weighted) or nearly all (stable).
        const outTop = pool.kind === 'balancerWeighted' ? 0.3 : 0.9999;
        const outputs: bigint[] = [1n, 1000n];
        for (let e = -9; 10 ** e <= outTop; e += 0.25) outputs.push(BigInt(Math.floor(Number(balanceOut) * 10 ** e)));
        for (let i = 0; i < 100; i++) outputs.push(BigInt(Math.floor(Number(balanceOut) * outTop * random())));
        outputs.push(BigInt(Math.floor(Number(balanceOut) * outTop)), (balanceOut * 3n) / 10n);
        let beyond = 0;
        for (const y of outputs) {
          let x: bigint;
          try {
            x = balancerSwap(pool.state, iIn, iOut, 'exactOut', y, 0n);
          } catch {
            continue;
          }
          carried++;
          // The exact-output search reads its own curve: it must reach every input an exact output asks, even past
          // what an exact input may take (a weighted pool whose wi / wo is below 1.36).
          check('exactOut', x, y);
          if (takes(x)) check('exactIn', x, y);
          else beyond++;
        }
        t.ok(carried > 200, `${carried} amounts the pool carries (${beyond} exact outputs asking more than an exact input may take)`);
        t.equal(below, '', 'the curves are never below the exact amount');
        t.equal(rateBelow, '', 'nor are their rates at zero times the input');
        t.equal(past, '', 'the curves reach every input the pool carries on their side');
        t.ok(
          loose < 0.001,
          `the curves exceed the exact output by at most ${(loose * 100).toFixed(4)}% (at ${looseAt}; amounts above 1e6, outputs below 99% of the balance)`,
        );
        const segments = (curve: PoolCurve) => Array.from({ length: 1000 }, (_, k) => curve.segment(k)).filter((s) => s);
        if (beyond === 0)
          t.same(segments(curves.exactOut), segments(curves.exactIn), 'no exact output asks more: one curve for both sides');
        if (pool.kind === 'balancerWeighted') {
          // The exact-input curve gives nothing past the most an exact input may take (found by bisection): an
          // exact-input split, which equalises marginal rates, never gives the pool more.
          let lo = 1n;
          let hi = balanceIn;
          while (hi - lo > 1n) {
            const mid = (lo + hi) / 2n;
            if (takes(mid)) lo = mid;
            else hi = mid;
          }
          const atLimit = curves.exactIn.outputAt(Number(lo));
          const further = curves.exactIn.outputAt(Number(lo) * 1.02) - atLimit;
          t.ok(further < 1, `past the exact-input limit (${lo} in) the exact-input curve adds ${further} < 1 unit`);
        }
      });
    }
  }
}
