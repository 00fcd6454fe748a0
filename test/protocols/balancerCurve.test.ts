// A Balancer pool's float curve (balancerV2.curveSegments, what the route search steers by and prunes with) is an
// upper bound of the exact math everywhere the pool carries: for weighted (50/50, 80/20, tokens of 6, 8 and 18
// decimals) and composable stable pools (3 tokens with a BPT, a rate provider, amplification 200 and 500, balanced and
// lopsided balances), every pair view and direction, at exact inputs from a wei to the pool's limit (weighted: 30% of the
// balance in; stable: far past the balance in, until the output balance is nearly exhausted) and at the inputs exact
// outputs up to their limit ask (weighted: 30% of the balance out, as far as an exact input could take that input;
// stable: nearly all of it):
// - the curve's output at an input is at least the exact output (and, at an exact output's input, at least that output);
// - its rate at zero times the input is too (the bound pathRateAtZero and OutputBound read);
// - the curve carries every input the pool carries (its segments reach past it: no -Infinity for a path that can carry);
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
        const curve = new PoolCurve(balancerV2.curveSegments(pool, zeroForOne));
        const first = curve.segment(0)!;
        const rate0 = first.a / first.b;
        let end = 0;
        let concave = true;
        let increasing = true;
        for (let k = 0; curve.segment(k); k++) {
          const s = curve.segment(k)!;
          end += s.len;
          const next = curve.segment(k + 1);
          if (next && next.a / next.b > s.a / s.b) increasing = false;
          const endRate = s.len === Number.POSITIVE_INFINITY ? 0 : (s.a * s.b) / (s.b + s.len) ** 2;
          if (next && next.a / next.b > endRate * (1 + 1e-12)) concave = false;
        }
        t.ok(increasing, 'segment start rates never increase');
        t.ok(concave, 'each segment ends at a rate at least the next one starts at');
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
        let looseAt = 0n;
        for (const x of inputs) {
          let y: bigint;
          try {
            y = balancerSwap(pool.state, iIn, iOut, 'exactIn', x, 0n);
          } catch {
            continue;
          }
          carried++;
          const bound = curve.outputAt(Number(x));
          if (bound < Number(y) && !below) below = `at ${x} in: curve ${bound} < exact ${y}`;
          if (rate0 * Number(x) < Number(y) && !rateBelow) rateBelow = `at ${x} in: ${rate0 * Number(x)} < ${y}`;
          if (Number(x) > end && !past) past = `the pool carries ${x} in, the curve ends at ${end}`;
          if (x > 10n ** 6n && y > 10n ** 6n && y < (balanceOut * 99n) / 100n && bound / Number(y) - 1 > loose) {
            loose = bound / Number(y) - 1;
            looseAt = x;
          }
        }
        const takes = (x: bigint): boolean => {
          try {
            balancerSwap(pool.state, iIn, iOut, 'exactIn', x, 0n);
            return true;
          } catch {
            return false;
          }
        };
        // Exact outputs: fractions of the balance out up to 30% (weighted) or nearly all (stable).
        const outTop = pool.kind === 'balancerWeighted' ? 0.3 : 0.9999;
        const outputs: bigint[] = [1n, 1000n];
        for (let e = -9; 10 ** e <= outTop; e += 0.25) outputs.push(BigInt(Math.floor(Number(balanceOut) * 10 ** e)));
        for (let i = 0; i < 100; i++) outputs.push(BigInt(Math.floor(Number(balanceOut) * outTop * random())));
        outputs.push(BigInt(Math.floor(Number(balanceOut) * outTop)));
        for (const y of outputs) {
          let x: bigint;
          try {
            x = balancerSwap(pool.state, iIn, iOut, 'exactOut', y, 0n);
          } catch {
            continue;
          }
          // A weighted pool's exact output may ask more input than 30% of the balance in, which no exact input may
          // take: the curve (one for both trade sides) ends at the exact-input limit, and such outputs are out of reach.
          if (pool.kind === 'balancerWeighted' && !takes(x)) continue;
          carried++;
          const bound = curve.outputAt(Number(x));
          if (bound < Number(y) && !below) below = `for ${y} out (${x} in): curve ${bound} < ${y}`;
          if (Number(x) > end && !past) past = `the pool gives ${y} out for ${x} in, the curve ends at ${end}`;
        }
        t.ok(carried > 200, `${carried} amounts the pool carries`);
        t.equal(below, '', 'the curve is never below the exact amount');
        t.equal(rateBelow, '', 'nor is its rate at zero times the input');
        t.equal(past, '', 'the curve reaches every input the pool carries');
        t.ok(
          loose < 0.001,
          `the curve exceeds the exact output by at most ${(loose * 100).toFixed(4)}% (at ${looseAt} in; amounts above 1e6, outputs below 99% of the balance)`,
        );
      });
    }
  }
}
