// bridgeOutputAmount / scaleAmount / parseDecimal / resolveBridgeFeeTerms: the bridge fee model and the decimal
// scaling between chains. Expected values are exact rationals worked out independently (Python's
// fractions.Fraction: floor((amount / 10^dIn x (1 - bps/10000) - fixed) x 10^dOut)), and the property test checks
// the rounding against plain cross-multiplication, never against the code under test.
import fc from 'fast-check';
import t from 'tap';
import {
  type BridgeFeeTerms,
  bridgeOutputAmount,
  DEFAULT_BRIDGE_FEE_TERMS,
  parseDecimal,
  resolveBridgeFeeTerms,
  scaleAmount,
} from '../../src/bridge/bridgeFee.ts';
import type { CatalogBridge, CatalogBridgeAsset } from '../../src/catalog/Catalog.ts';

const terms = (over: Partial<BridgeFeeTerms> = {}): BridgeFeeTerms => ({ ...DEFAULT_BRIDGE_FEE_TERMS, ...over });

t.test('scaleAmount: exact upwards, rounded down downwards', async (t) => {
  t.equal(scaleAmount(1_500_000n, 6, 18), 1_500_000_000_000_000_000n, 'USDC 6 -> 18 decimals (Ethereum -> BNB)');
  t.equal(scaleAmount(1_500_000_000_000_000_001n, 18, 6), 1_500_000n, '18 -> 6 drops the dust');
  t.equal(scaleAmount(999_999_999_999n, 18, 6), 0n, 'less than one 6-decimal unit scales to 0');
  t.equal(scaleAmount(12_345n, 8, 8), 12_345n);
  t.equal(scaleAmount(1n, 0, 36), 10n ** 36n);
});

t.test('parseDecimal', async (t) => {
  t.strictSame(parseDecimal('0.25'), { numerator: 25n, places: 2 });
  t.strictSame(parseDecimal('1000'), { numerator: 1000n, places: 0 });
  t.strictSame(parseDecimal('0.000005'), { numerator: 5n, places: 6 });
  for (const bad of ['', '-1', '1e3', '01', '.5', '1.', ' 1']) t.throws(() => parseDecimal(bad), RangeError, `"${bad}" refused`);
});

t.test('bridgeOutputAmount: same decimals', async (t) => {
  // 100 USDC x 0.9995 - 0.1 = 99.85
  t.strictSame(
    bridgeOutputAmount({
      inputAmount: 100_000_000n,
      inputDecimals: 6,
      outputDecimals: 6,
      terms: terms({ feeBps: 5, fixedFee: '0.1' }),
      asset: 'USDC',
    }),
    { ok: true, outputAmount: 99_850_000n, feeAmount: 150_000n },
  );
  // 1 USDC x 0.9995 - 0.1 = 0.8995
  t.strictSame(
    bridgeOutputAmount({
      inputAmount: 1_000_000n,
      inputDecimals: 6,
      outputDecimals: 6,
      terms: terms({ feeBps: 5, fixedFee: '0.1' }),
      asset: 'USDC',
    }),
    { ok: true, outputAmount: 899_500n, feeAmount: 100_500n },
  );
  t.strictSame(
    bridgeOutputAmount({ inputAmount: 7n, inputDecimals: 6, outputDecimals: 6, terms: terms({ feeBps: 0, fixedFee: '0' }), asset: 'USDC' }),
    { ok: true, outputAmount: 7n, feeAmount: 0n },
    'no fee: the output is the input',
  );
});

t.test('bridgeOutputAmount: decimals differ between chains', async (t) => {
  // 1.000001 USDC (6) -> 18 decimals: 1.000001 x 0.9995 - 0.25 = 0.7495009995, exact, no rounding
  t.strictSame(
    bridgeOutputAmount({
      inputAmount: 1_000_001n,
      inputDecimals: 6,
      outputDecimals: 18,
      terms: terms({ feeBps: 5, fixedFee: '0.25' }),
      asset: 'USDC',
    }),
    { ok: true, outputAmount: 749_500_999_500_000_000n, feeAmount: 250_500_000_500_000_000n },
  );
  // 1.234567890123456789 (18) -> 6 decimals, no fee: floor -> 1.234567 (0.890123456789 of a unit lost, < 1)
  t.strictSame(
    bridgeOutputAmount({
      inputAmount: 1_234_567_890_123_456_789n,
      inputDecimals: 18,
      outputDecimals: 6,
      terms: terms({ feeBps: 0, fixedFee: '0' }),
      asset: 'USDC',
    }),
    { ok: true, outputAmount: 1_234_567n, feeAmount: 0n },
  );
  // x 0.9995 = 1.2339506061783950606... -> 1.233950
  t.strictSame(
    bridgeOutputAmount({
      inputAmount: 1_234_567_890_123_456_789n,
      inputDecimals: 18,
      outputDecimals: 6,
      terms: terms({ feeBps: 5, fixedFee: '0' }),
      asset: 'USDC',
    }),
    { ok: true, outputAmount: 1_233_950n, feeAmount: 617n },
  );
  // one floor for everything: 1.2339506061... - 0.000001 = 1.2339496061... -> 1.233949 (not 1.233950 - 1 unit rounded twice)
  t.strictSame(
    bridgeOutputAmount({
      inputAmount: 1_234_567_890_123_456_789n,
      inputDecimals: 18,
      outputDecimals: 6,
      terms: terms({ feeBps: 5, fixedFee: '0.000001' }),
      asset: 'USDC',
    }),
    { ok: true, outputAmount: 1_233_949n, feeAmount: 618n },
  );
  // WBTC 8 -> BTCB 18: 0.00012345 x 0.9994 - 0.000005 = 0.00011837593
  t.strictSame(
    bridgeOutputAmount({
      inputAmount: 12_345n,
      inputDecimals: 8,
      outputDecimals: 18,
      terms: terms({ feeBps: 6, fixedFee: '0.000005' }),
      asset: 'WBTC',
    }),
    { ok: true, outputAmount: 118_375_930_000_000n, feeAmount: 5_074_070_000_000n },
  );
});

t.test('bridgeOutputAmount: rounding is against the user by less than one unit, never in their favour', async (t) => {
  t.doesNotThrow(
    () =>
      fc.assert(
        fc.property(
          fc.bigInt({ min: 1n, max: 10n ** 40n }),
          fc.integer({ min: 0, max: 36 }),
          fc.integer({ min: 0, max: 36 }),
          fc.integer({ min: 0, max: 9999 }),
          fc.bigInt({ min: 0n, max: 10n ** 12n }),
          fc.integer({ min: 0, max: 12 }),
          (inputAmount, inputDecimals, outputDecimals, feeBps, fixedNumerator, fixedPlaces) => {
            const fixed = fixedNumerator.toString().padStart(fixedPlaces + 1, '0');
            const fixedFee = fixedPlaces === 0 ? fixed : `${fixed.slice(0, -fixedPlaces)}.${fixed.slice(-fixedPlaces)}`;
            const result = bridgeOutputAmount({
              inputAmount,
              inputDecimals,
              outputDecimals,
              terms: terms({ feeBps, fixedFee }),
              asset: 'X',
            });
            // exact output E = (in/10^dIn x (10000-bps)/10000 - F/10^p) x 10^dOut = N / D
            const N =
              (inputAmount * BigInt(10_000 - feeBps) * 10n ** BigInt(fixedPlaces) -
                fixedNumerator * 10_000n * 10n ** BigInt(inputDecimals)) *
              10n ** BigInt(outputDecimals);
            const D = 10n ** BigInt(inputDecimals) * 10_000n * 10n ** BigInt(fixedPlaces);
            if (!result.ok) return N < D; // refused only when the exact output is below one unit
            // out <= E < out + 1
            return result.outputAmount * D <= N && N < (result.outputAmount + 1n) * D;
          },
        ),
        { numRuns: 2000 },
      ),
    '2000 random cases: out <= exact output < out + 1',
  );
});

t.test('bridgeOutputAmount: minimum, maximum and fee-sized amounts, with their exact reasons', async (t) => {
  const usdc = terms({ feeBps: 5, fixedFee: '0.1', minAmount: '1', maxAmount: '1000000' });
  const run = (inputAmount: bigint, tm = usdc) =>
    bridgeOutputAmount({ inputAmount, inputDecimals: 6, outputDecimals: 6, terms: tm, asset: 'USDC' });
  t.equal(run(1_000_000n).ok, true, 'exactly the minimum is accepted');
  t.strictSame(run(999_999n), { ok: false, code: 'AMOUNT_OUT_OF_RANGE', reason: '0.999999 USDC is below the bridge minimum of 1 USDC' });
  t.equal(run(1_000_000_000_000n).ok, true, 'exactly the maximum is accepted');
  t.strictSame(run(1_000_000_000_001n), {
    ok: false,
    code: 'AMOUNT_OUT_OF_RANGE',
    reason: '1000000.000001 USDC is above the bridge maximum of 1000000 USDC',
  });
  // a minimum finer than the token: 0.0000005 on a 6-decimal token; 1 unit (0.000001) is above it
  const fine = terms({ feeBps: 0, fixedFee: '0', minAmount: '0.0000005' });
  t.strictSame(run(1n, fine), { ok: true, outputAmount: 1n, feeAmount: 0n });
  // fee boundary without min: 0.100051 x 0.9995 - 0.1 = 0.0000009745 -> 0: refused; 0.100052 -> 1 unit
  const feeOnly = terms({ feeBps: 5, fixedFee: '0.1' });
  t.strictSame(run(100_051n, feeOnly), {
    ok: false,
    code: 'AMOUNT_TOO_SMALL',
    reason: '0.100051 USDC does not cover the bridge fee (5 bps + 0.1 USDC)',
  });
  t.strictSame(run(100_052n, feeOnly), { ok: true, outputAmount: 1n, feeAmount: 100_051n });
  t.strictSame(run(50_000n, feeOnly), {
    ok: false,
    code: 'AMOUNT_TOO_SMALL',
    reason: '0.05 USDC does not cover the bridge fee (5 bps + 0.1 USDC)',
  });
});

t.test('resolveBridgeFeeTerms: defaults < bridge defaults < asset < asset destination', async (t) => {
  const asset: CatalogBridgeAsset = {
    asset: 'USDC',
    token: '0x0000000000000000000000000000000000000001',
    fixedFee: '0.25',
    minAmount: '1',
    destinations: { '1': { fixedFee: '3', fillTimeSeconds: 180 }, '10': { feeBps: 2 } },
  };
  const bridge: CatalogBridge = {
    chainId: 8453,
    protocol: 'across',
    network: 'mainnet',
    name: 'Across',
    slug: 'across',
    logo: '',
    spokePoolAddress: '0x0000000000000000000000000000000000000002',
    fillDeadlineOffsetSeconds: 10_800,
    defaults: { feeBps: 6, fillTimeSeconds: 60 },
    assets: [asset],
  };
  t.strictSame(resolveBridgeFeeTerms(bridge, asset, 42161), {
    feeBps: 6,
    fixedFee: '0.25',
    minAmount: '1',
    maxAmount: undefined,
    fillTimeSeconds: 60,
  });
  t.strictSame(resolveBridgeFeeTerms(bridge, asset, 1), {
    feeBps: 6,
    fixedFee: '3',
    minAmount: '1',
    maxAmount: undefined,
    fillTimeSeconds: 180,
  });
  t.strictSame(resolveBridgeFeeTerms(bridge, asset, 10), {
    feeBps: 2,
    fixedFee: '0.25',
    minAmount: '1',
    maxAmount: undefined,
    fillTimeSeconds: 60,
  });
  const bare: CatalogBridge = { ...bridge, defaults: {} };
  const plain: CatalogBridgeAsset = { asset: 'ETH', token: asset.token, destinations: {} };
  t.strictSame(
    resolveBridgeFeeTerms(bare, plain, 1),
    { feeBps: 5, fixedFee: '0', minAmount: undefined, maxAmount: undefined, fillTimeSeconds: 120 },
    'built-in defaults',
  );
});
