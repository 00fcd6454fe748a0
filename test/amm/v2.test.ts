import t from 'tap';
import { getAmountIn, getAmountOut } from '../../src/amm/v2.ts';
import { b, Rng, sdkCore, TOKEN_A, TOKEN_B, v2sdk } from './oracle.ts';

const amount = (token: unknown, raw: bigint) => sdkCore.CurrencyAmount.fromRawAmount(token, raw.toString());

t.test('getAmountOut / getAmountIn at 30 bps equal @uniswap/v2-sdk Pair on random reserves', async (t) => {
  const rng = new Rng(3);
  let bad = 0;
  let checked = 0;
  let roundsToZero = 0;
  for (let i = 0; i < 300; i++) {
    const r0 = rng.logUniform(3, 33);
    const r1 = rng.logUniform(3, 33);
    const pair = new v2sdk.Pair(amount(TOKEN_A, r0), amount(TOKEN_B, r1));
    const amountIn = rng.logUniform(0, 30);
    let expectedOut: bigint | undefined;
    try {
      expectedOut = b(pair.getOutputAmount(amount(TOKEN_A, amountIn))[0].quotient);
    } catch (e) {
      // The SDK throws InsufficientInputAmountError when the output rounds to 0; the library returns 0. Any other
      // error is the test's.
      if (!(e as { isInsufficientInputAmountError?: boolean }).isInsufficientInputAmountError) throw e;
      expectedOut = undefined;
      roundsToZero++;
    }
    const out = getAmountOut(amountIn, r0, r1, 30);
    if (expectedOut === undefined ? out !== 0n : out !== expectedOut) bad++;
    const amountOut = (r1 * BigInt(rng.int(1, 999_999))) / 1_000_000n;
    if (amountOut > 0n) {
      const expectedIn = b(pair.getInputAmount(amount(TOKEN_B, amountOut))[0].quotient);
      if (getAmountIn(amountOut, r0, r1, 30) !== expectedIn) bad++;
    }
    checked++;
  }
  t.equal(bad, 0, `${checked} pairs`);
  t.ok(roundsToZero > 0 && roundsToZero < checked / 2, `outputs rounding to 0 (the SDK refuses, we answer 0): ${roundsToZero}, a minority`);
});

t.test('getAmountOut / getAmountIn at 25 bps (PancakeLibrary: 9975 / 10000), values from Python integer arithmetic', async (t) => {
  t.equal(getAmountOut(10n ** 18n, 5n * 10n ** 21n, 7n * 10n ** 24n, 25), 1396221453819962917397n);
  t.equal(getAmountOut(123456789n, 10n ** 12n, 3n * 10n ** 9n, 25), 369398n);
  t.equal(getAmountOut(1n, 10n ** 6n, 10n ** 6n, 25), 0n, 'rounds down to 0 without reverting, like the library');
  t.equal(getAmountOut(10n ** 30n, 2n ** 112n - 1n, 2n ** 112n - 1n, 25), 997308405574322053476084707342n, 'uint112 reserves');
  t.equal(getAmountIn(10n ** 18n, 5n * 10n ** 21n, 7n * 10n ** 24n, 25), 716076006342402n);
  t.equal(getAmountIn(123456789n, 10n ** 12n, 3n * 10n ** 9n, 25), 43026019578n);
  t.equal(getAmountIn(999999n, 10n ** 6n, 10n ** 6n, 25), 1002505263158n);
});

t.test('typed errors where UniswapV2Library reverts', async (t) => {
  t.throws(() => getAmountOut(0n, 10n, 10n, 30), { name: 'AmmError', code: 'INSUFFICIENT_INPUT_AMOUNT' });
  t.throws(() => getAmountOut(1n, 0n, 10n, 30), { code: 'ZERO_RESERVES' });
  t.throws(() => getAmountOut(1n, 10n, 0n, 30), { code: 'ZERO_RESERVES' });
  t.throws(() => getAmountIn(0n, 10n, 10n, 30), { code: 'INSUFFICIENT_OUTPUT_AMOUNT' });
  t.throws(() => getAmountIn(1n, 0n, 10n, 30), { code: 'ZERO_RESERVES' });
  t.throws(() => getAmountIn(10n, 10n, 10n, 30), { code: 'INSUFFICIENT_RESERVES' }, 'amountOut == reserveOut');
  t.throws(() => getAmountIn(11n, 10n, 10n, 30), { code: 'INSUFFICIENT_RESERVES' }, 'amountOut > reserveOut');
  t.throws(() => getAmountOut(1n, 10n, 10n, 10_000), { code: 'INVALID_FEE' });
  t.throws(() => getAmountOut(1n, 10n, 10n, -1), { code: 'INVALID_FEE' });
  t.throws(() => getAmountOut(2n ** 250n, 2n ** 250n, 2n ** 250n, 30), { code: 'OVERFLOW' }, 'SafeMath overflow');
  t.throws(() => getAmountOut(1n, 2n ** 243n, 10n, 30), { code: 'OVERFLOW' }, 'reserveIn * 10000 past uint256');
  t.throws(() => getAmountIn(2n ** 150n, 2n ** 110n, 2n ** 151n, 30), { code: 'OVERFLOW' }, 'reserveIn * amountOut past uint256');
  t.throws(
    () => getAmountIn(2n ** 140n, 2n ** 110n, 2n ** 141n, 30),
    { code: 'OVERFLOW' },
    'reserveIn * amountOut fits, times 10000 does not',
  );
  t.equal(getAmountIn(2n ** 140n, 2n ** 100n, 2n ** 141n, 30), (2n ** 240n * 10000n) / (2n ** 140n * 9970n) + 1n, 'within uint256');
});
