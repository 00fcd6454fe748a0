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

/**
 * The revert v3-core's SqrtPriceMath.sol (with FullMath, UnsafeMath, SafeMath, SafeCast) reaches for these inputs,
 * as the AmmError code our port must throw, or undefined when the contract returns. Written from the Solidity
 * `require`s in the order the contract evaluates them; the SDK only says "Invariant failed" (or does not check).
 */
function solidityRevert(fn: 'in' | 'out', p: bigint, l: bigint, a: bigint, z: boolean): string | undefined {
  const MAX_UINT256_ = (1n << 256n) - 1n;
  const ceilDiv = (x: bigint, y: bigint): bigint => (x + y - 1n) / y;
  if (p === 0n) return 'SQRT_PRICE_OUT_OF_RANGE';
  if (l === 0n) return 'ZERO_LIQUIDITY';
  if (a === 0n) return undefined;
  const numerator1 = l << 96n;
  if (fn === 'in' && z) {
    // getNextSqrtPriceFromAmount0RoundingUp(add): the mulDivRoundingUp branch cannot revert; the fallback's
    // `(numerator1 / sqrtPX96).add(amount)` reverts on uint256 overflow (its uint160 cast truncates silently).
    if (a * p <= MAX_UINT256_ && numerator1 + a * p <= MAX_UINT256_) return undefined;
    return numerator1 / p + a > MAX_UINT256_ ? 'OVERFLOW' : undefined;
  }
  if (fn === 'in') {
    // getNextSqrtPriceFromAmount1RoundingDown(add): mulDiv, SafeMath add, toUint160.
    const quotient = (a * Q96) / l;
    return quotient > MAX_UINT256_ || p + quotient > MAX_UINT160 ? 'OVERFLOW' : undefined;
  }
  if (z) {
    // getNextSqrtPriceFromAmount1RoundingDown(remove): mulDivRoundingUp may overflow, then require(sqrtPX96 > quotient).
    const quotient = ceilDiv(a * Q96, l);
    if (quotient > MAX_UINT256_) return 'OVERFLOW';
    return p > quotient ? undefined : 'PRICE_OUT_OF_BOUNDS';
  }
  // getNextSqrtPriceFromAmount0RoundingUp(remove): require(product did not wrap && numerator1 > product), then
  // mulDivRoundingUp(...).toUint160().
  const product = a * p;
  if (product > MAX_UINT256_ || numerator1 <= product) return 'PRICE_OUT_OF_BOUNDS';
  const result = ceilDiv(numerator1 * p, numerator1 - product);
  return result > MAX_UINT160 ? 'OVERFLOW' : undefined;
}

t.test('all SqrtPriceMath functions equal the SDK on random inputs; reverts match the contract', async (t) => {
  const rng = new Rng(5);
  type Fn = 'amount0' | 'amount1' | 'in' | 'out';
  const valueCompared: Record<Fn, number> = { amount0: 0, amount1: 0, in: 0, out: 0 };
  // The SDK returns a price above uint160 (or does not bound an intermediate) where the contract reverts: there the
  // SDK is no oracle; the contract's revert condition is, and these cases are counted and bounded.
  let sdkUnbounded = 0;
  let bothReverted = 0;
  const failures: string[] = [];
  for (let i = 0; i < 3000; i++) {
    const p = rng.range(4295128739n, 1461446703485210103287273052203988822378723970341n);
    const p2 =
      rng.next() < 0.5 ? rng.range(4295128739n, 1461446703485210103287273052203988822378723970341n) : p + rng.bits(rng.int(1, 120));
    const l = rng.bits(rng.int(1, 128));
    const a = rng.bits(rng.int(1, 256));
    const up = rng.next() < 0.5;
    const z = rng.next() < 0.5;
    const cases: [Fn, () => bigint, () => { toString(): string }][] = [
      ['amount0', () => getAmount0Delta(p, p2, l, up), () => SPM.getAmount0Delta(j(p), j(p2), j(l), up)],
      ['amount1', () => getAmount1Delta(p, p2, l, up), () => SPM.getAmount1Delta(j(p), j(p2), j(l), up)],
    ];
    if (l > 0n) {
      cases.push(['in', () => getNextSqrtPriceFromInput(p, l, a, z), () => SPM.getNextSqrtPriceFromInput(j(p), j(l), j(a), z)]);
      cases.push(['out', () => getNextSqrtPriceFromOutput(p, l, a, z), () => SPM.getNextSqrtPriceFromOutput(j(p), j(l), j(a), z)]);
    }
    for (const [fn, oursFn, sdk] of cases) {
      let o: bigint | { code: string };
      try {
        o = oursFn();
      } catch (err) {
        o = { code: String((err as { code?: unknown }).code) };
      }
      const e = sdkOrError(sdk);
      const where = `${fn}(p=${p}, p2=${p2}, l=${l}, a=${a}, up=${up}, z=${z})`;
      if (fn === 'amount0' || fn === 'amount1') {
        // Amounts between two uint160 prices for a uint128 liquidity always fit in uint256: neither side reverts.
        valueCompared[fn]++;
        if (o !== e) failures.push(`${where}: ours ${JSON.stringify(String(typeof o === 'bigint' ? o : o.code))}, SDK ${e}`);
        continue;
      }
      const revert = solidityRevert(fn, p, l, a, z);
      if (revert !== undefined) {
        if (e === 'error') bothReverted++;
        else if (e > MAX_UINT160) sdkUnbounded++;
        else failures.push(`${where}: the contract reverts (${revert}) but the SDK returned ${e} below 2^160`);
        if (typeof o === 'bigint' || o.code !== revert)
          failures.push(`${where}: the contract reverts with ${revert}, ours gave ${typeof o === 'bigint' ? o : o.code}`);
        continue;
      }
      valueCompared[fn]++;
      if (o !== e) failures.push(`${where}: ours ${typeof o === 'bigint' ? o : o.code}, SDK ${e}`);
    }
  }
  const total = Object.values(valueCompared).reduce((x, y) => x + y, 0);
  t.equal(failures.slice(0, 5).join('\n'), '', `no disagreement (${failures.length}; first 5 shown)`);
  t.same([valueCompared.amount0, valueCompared.amount1], [3000, 3000], 'every amount pair compared by value');
  t.comment(`value comparisons ${JSON.stringify(valueCompared)}; ${sdkUnbounded} SDK prices above uint160, ${bothReverted} both reverted`);
  // With seed 5: 2,253 + 841 price comparisons by value, 732 unbounded SDK prices, 2,128 reverts on both sides.
  t.ok(valueCompared.in >= 2000 && valueCompared.out >= 700, 'the price functions are compared by value on most inputs');
  t.ok(sdkUnbounded < 900, `SDK-unbounded prices checked against the contract's revert instead: ${sdkUnbounded} < 900`);
  t.ok(bothReverted < 2400, `inputs where both revert (codes checked against the contract's require): ${bothReverted} < 2400`);
  t.ok(total >= 9000, `${total} comparisons by value`);
});
