import t from 'tap';
import { MAX_UINT256 } from '../../src/amm/fullMath.ts';
import { getAmount0Delta, getAmount1Delta, getNextSqrtPriceFromInput, getNextSqrtPriceFromOutput } from '../../src/amm/sqrtPriceMath.ts';
import { b, j, Rng, v3sdk } from './oracle.ts';

const SPM = v3sdk.SqrtPriceMath;
const Q96 = 1n << 96n;
const E18 = 10n ** 18n;
const MAX_UINT128 = (1n << 128n) - 1n;
const MAX_UINT160 = (1n << 160n) - 1n;
// encodePriceSqrt(121, 100) = sqrt(1.21) * 2^96 and encodePriceSqrt(2, 1), floored.
const PRICE_1_21 = 87150978765690771352898345369n;
const PRICE_2 = 112045541949572279837463876454n;

function sdkOrError(f: () => { toString(): string }): bigint | 'error' {
  try {
    return b(f());
  } catch {
    return 'error';
  }
}

t.test('getNextSqrtPriceFromInput: v3-core SqrtPriceMath.spec vectors, also checked against the SDK', async (t) => {
  const cases: [string, bigint, bigint, bigint, boolean, bigint][] = [
    ['0.1 token1 in', Q96, E18, E18 / 10n, false, 87150978765690771352898345369n],
    ['0.1 token0 in', Q96, E18, E18 / 10n, true, 72025602285694852357767227579n],
    ['amountIn > type(uint96).max, zeroForOne', Q96, 10n * E18, 2n ** 100n, true, 624999999995069620n],
    ['can return 1 with enough amountIn (product overflows uint256)', Q96, 1n, MAX_UINT256 / 2n, true, 1n],
    ['any input amount cannot underflow the price', 1n, 1n, 2n ** 255n, true, 1n],
    ['zero amount in, zeroForOne', Q96, E18 / 10n, 0n, true, Q96],
    ['zero amount in, oneForZero', Q96, E18 / 10n, 0n, false, Q96],
    ['minimum price for max inputs', MAX_UINT160, MAX_UINT128, MAX_UINT256 - (MAX_UINT128 << 96n) / MAX_UINT160, true, 1n],
  ];
  for (const [name, p, l, a, z, expected] of cases) {
    t.equal(getNextSqrtPriceFromInput(p, l, a, z), expected, name);
    t.equal(
      sdkOrError(() => SPM.getNextSqrtPriceFromInput(j(p), j(l), j(a), z)),
      expected,
      `${name} (SDK)`,
    );
  }
  t.throws(() => getNextSqrtPriceFromInput(0n, 0n, E18 / 10n, false), 'fails if price is zero');
  t.throws(() => getNextSqrtPriceFromInput(1n, 0n, E18 / 10n, true), 'fails if liquidity is zero');
  // Solidity reverts (toUint160) here; the SDK returns a price above 2^160 (recorded as an SDK-vs-contract difference).
  t.throws(
    () => getNextSqrtPriceFromInput(MAX_UINT160, 1024n, 1024n, false),
    { code: 'OVERFLOW' },
    'fails if input amount overflows the price',
  );
  t.ok(b(SPM.getNextSqrtPriceFromInput(j(MAX_UINT160), j(1024n), j(1024n), false)) > MAX_UINT160, 'the SDK does not revert there');
});

t.test('getNextSqrtPriceFromOutput: v3-core SqrtPriceMath.spec vectors, also checked against the SDK', async (t) => {
  const P = 20282409603651670423947251286016n;
  const cases: [string, bigint, bigint, bigint, boolean, bigint | 'error'][] = [
    ['output exactly the virtual reserves of token0', P, 1024n, 4n, false, 'error'],
    ['output greater than the virtual reserves of token0', P, 1024n, 5n, false, 'error'],
    ['output greater than the virtual reserves of token1', P, 1024n, 262145n, true, 'error'],
    ['output exactly the virtual reserves of token1', P, 1024n, 262144n, true, 'error'],
    ['output just less than the virtual reserves of token1', P, 1024n, 262143n, true, 77371252455336267181195264n],
    ['zero amount out, zeroForOne', Q96, E18 / 10n, 0n, true, Q96],
    ['zero amount out, oneForZero', Q96, E18 / 10n, 0n, false, Q96],
    ['0.1 token1 out', Q96, E18, E18 / 10n, false, 88031291682515930659493278152n],
    ['0.1 token1 out, zeroForOne', Q96, E18, E18 / 10n, true, 71305346262837903834189555302n],
    ['impossible amountOut, zeroForOne', Q96, 1n, MAX_UINT256, true, 'error'],
    ['impossible amountOut, oneForZero', Q96, 1n, MAX_UINT256, false, 'error'],
  ];
  for (const [name, p, l, a, z, expected] of cases) {
    let ours: bigint | 'error';
    try {
      ours = getNextSqrtPriceFromOutput(p, l, a, z);
    } catch {
      ours = 'error';
    }
    t.equal(ours, expected, name);
    t.equal(
      sdkOrError(() => SPM.getNextSqrtPriceFromOutput(j(p), j(l), j(a), z)),
      expected,
      `${name} (SDK)`,
    );
  }
});

t.test('getAmount0Delta / getAmount1Delta: v3-core SqrtPriceMath.spec vectors', async (t) => {
  t.equal(getAmount0Delta(Q96, PRICE_2, 0n, true), 0n, 'amount0: zero liquidity');
  t.equal(getAmount0Delta(Q96, Q96, E18, true), 0n, 'amount0: equal prices');
  t.equal(getAmount0Delta(Q96, PRICE_1_21, E18, true), 90909090909090910n, 'amount0 for 1 -> 1.21, rounded up');
  t.equal(getAmount0Delta(Q96, PRICE_1_21, E18, false), 90909090909090909n, 'amount0 for 1 -> 1.21, rounded down');
  t.equal(getAmount1Delta(Q96, PRICE_2, 0n, true), 0n, 'amount1: zero liquidity');
  t.equal(getAmount1Delta(Q96, PRICE_1_21, E18, true), 100000000000000000n, 'amount1 for 1 -> 1.21, rounded up');
  t.equal(getAmount1Delta(Q96, PRICE_1_21, E18, false), 99999999999999999n, 'amount1 for 1 -> 1.21, rounded down');
  // "works for prices that overflow": prices 2^90 and 2^96 * 2^? with large liquidity, both orders.
  const lo = 2n ** 90n;
  const hi = 2n ** 96n * 2n ** 10n;
  t.equal(getAmount0Delta(lo, hi, E18, true), getAmount0Delta(hi, lo, E18, true), 'argument order does not matter');
  t.throws(() => getAmount0Delta(0n, Q96, E18, true), 'requires a non-zero price');
});

t.test('all SqrtPriceMath functions equal the SDK on random inputs', async (t) => {
  const rng = new Rng(5);
  let bad = 0;
  let n = 0;
  for (let i = 0; i < 3000; i++) {
    const p = rng.range(4295128739n, 1461446703485210103287273052203988822378723970341n);
    const p2 =
      rng.next() < 0.5 ? rng.range(4295128739n, 1461446703485210103287273052203988822378723970341n) : p + rng.bits(rng.int(1, 120));
    const l = rng.bits(rng.int(1, 128));
    const a = rng.bits(rng.int(1, 256));
    const up = rng.next() < 0.5;
    const z = rng.next() < 0.5;
    const pairs: [() => bigint, () => { toString(): string }][] = [
      [() => getAmount0Delta(p, p2, l, up), () => SPM.getAmount0Delta(j(p), j(p2), j(l), up)],
      [() => getAmount1Delta(p, p2, l, up), () => SPM.getAmount1Delta(j(p), j(p2), j(l), up)],
    ];
    if (l > 0n) {
      pairs.push([() => getNextSqrtPriceFromInput(p, l, a, z), () => SPM.getNextSqrtPriceFromInput(j(p), j(l), j(a), z)]);
      pairs.push([() => getNextSqrtPriceFromOutput(p, l, a, z), () => SPM.getNextSqrtPriceFromOutput(j(p), j(l), j(a), z)]);
    }
    for (const [ours, sdk] of pairs) {
      let o: bigint | 'error';
      try {
        o = ours();
      } catch {
        o = 'error';
      }
      const e = sdkOrError(sdk);
      // Where the SDK returns a price above uint160 or an amount above uint256 the contract reverts; so do we.
      if (e !== 'error' && e > MAX_UINT160 && o === 'error') continue;
      n++;
      if (o !== e) bad++;
    }
  }
  t.equal(bad, 0, `${n} comparisons`);
});
