import t from 'tap';
import { divRoundingUp, MAX_UINT256, mulDiv, mulDivRoundingUp } from '../../src/amm/fullMath.ts';
import { b, j, Rng, v3sdk } from './oracle.ts';

const Q128 = 1n << 128n;

t.test('mulDiv: vectors of v3-core FullMath.spec', async (t) => {
  t.equal(mulDiv(Q128, (50n * Q128) / 100n, (150n * Q128) / 100n), Q128 / 3n, 'accurate without phantom overflow');
  t.equal(mulDiv(Q128, 35n * Q128, 8n * Q128), (4375n * Q128) / 1000n, 'accurate with phantom overflow');
  t.equal(mulDiv(Q128, 1000n * Q128, 3000n * Q128), Q128 / 3n, 'phantom overflow, repeating decimal');
  t.equal(mulDiv(MAX_UINT256, MAX_UINT256, MAX_UINT256), MAX_UINT256, 'all max inputs');
  t.throws(() => mulDiv(Q128, 5n, 0n), { code: 'DIVISION_BY_ZERO' }, 'reverts on denominator 0');
  t.throws(() => mulDiv(Q128, Q128, 1n), { code: 'OVERFLOW' }, 'reverts on output overflow');
  t.throws(() => mulDiv(MAX_UINT256, MAX_UINT256, MAX_UINT256 - 1n), { code: 'OVERFLOW' }, 'reverts on overflow with all max inputs');
});

t.test('mulDivRoundingUp: vectors of v3-core FullMath.spec', async (t) => {
  t.equal(mulDivRoundingUp(Q128, (50n * Q128) / 100n, (150n * Q128) / 100n), Q128 / 3n + 1n, 'rounds up');
  t.equal(mulDivRoundingUp(Q128, 35n * Q128, 8n * Q128), (4375n * Q128) / 1000n, 'exact stays exact');
  t.equal(mulDivRoundingUp(MAX_UINT256, MAX_UINT256, MAX_UINT256), MAX_UINT256, 'all max inputs');
  t.throws(
    () => mulDivRoundingUp(535006138814359n, 432862656469423142931042426214547535783388063929571229938474969n, 2n),
    { code: 'OVERFLOW' },
    'reverts if mulDiv overflows 256 bits after rounding up',
  );
  t.throws(
    () =>
      mulDivRoundingUp(
        115792089237316195423570985008687907853269984659341747863450311749907997002549n,
        115792089237316195423570985008687907853269984659341747863450311749907997002550n,
        115792089237316195423570985008687907853269984653042931687443039491902864365164n,
      ),
    { code: 'OVERFLOW' },
    'reverts if mulDiv overflows 256 bits after rounding up, case 2',
  );
  t.throws(() => mulDivRoundingUp(1n, 1n, 0n), { code: 'DIVISION_BY_ZERO' });
});

t.test('mulDivRoundingUp and divRoundingUp equal @uniswap/v3-sdk FullMath on random 256-bit inputs', async (t) => {
  const rng = new Rng(7);
  let bad = 0;
  let compared = 0;
  // The SDK computes in unbounded integers; where its result exceeds uint256 the contract reverts (FullMath's
  // `require(result < type(uint256).max)` / the 512-bit `require(denominator > prod1)`): ours must throw OVERFLOW.
  let beyondUint256 = 0;
  for (let i = 0; i < 2500; i++) {
    const bitsA = rng.int(1, 256);
    const a = rng.bits(bitsA);
    // 2,000 products within uint256 most of the time, then 500 large ones over small denominators.
    const c = i < 2000 ? rng.bits(rng.int(1, 256 - Math.min(255, bitsA) + 1)) : rng.bits(256);
    const d = rng.bits(i < 2000 ? rng.int(1, 256) : rng.int(1, 128)) + 1n;
    const expected = b(v3sdk.FullMath.mulDivRoundingUp(j(a), j(c), j(d)));
    if (divRoundingUp(a, d) !== b(v3sdk.FullMath.mulDivRoundingUp(j(a), j(1n), j(d)))) bad++;
    if (expected > MAX_UINT256) {
      beyondUint256++;
      let code: unknown;
      try {
        mulDivRoundingUp(a, c, d);
      } catch (e) {
        code = (e as { code?: unknown }).code;
      }
      if (code !== 'OVERFLOW') bad++;
      continue;
    }
    compared++;
    if (mulDivRoundingUp(a, c, d) !== expected) bad++;
  }
  t.equal(bad, 0, `${compared} results equal the SDK, ${beyondUint256} beyond uint256 revert with OVERFLOW`);
  t.ok(beyondUint256 >= 100 && beyondUint256 <= 500, `the overflow branch is exercised, at most by the 500 large inputs: ${beyondUint256}`);
  t.ok(compared >= 2000, `at least 2,000 of 2,500 compared by value (${compared})`);
  t.equal(divRoundingUp(5n, 0n), 0n, 'UnsafeMath.divRoundingUp: EVM div by zero yields 0');
});
