import type { BridgeFeeTermsConfig, CatalogBridge, CatalogBridgeAsset } from '../catalog/Catalog.ts';
import type { RefusalCode } from '../errors/RefusalCode.ts';

/**
 * The fee terms of one bridge route (origin chain, asset, destination chain), every field resolved.
 * Display amounts are exact decimal strings in the asset's whole-token units.
 */
export interface BridgeFeeTerms {
  /** Proportional part, basis points of the bridged amount. */
  readonly feeBps: number;
  /** Fixed part, display units of the asset, taken from the output. */
  readonly fixedFee: string;
  /** Smallest accepted deposit (display units), or undefined for none. */
  readonly minAmount: string | undefined;
  /** Largest accepted deposit (display units), or undefined for none. */
  readonly maxAmount: string | undefined;
  /** Expected seconds from the deposit to the fill. */
  readonly fillTimeSeconds: number;
}

/** Built-in defaults, used for every term the catalogue leaves out. */
export const DEFAULT_BRIDGE_FEE_TERMS: BridgeFeeTerms = Object.freeze({
  feeBps: 5,
  fixedFee: '0',
  minAmount: undefined,
  maxAmount: undefined,
  fillTimeSeconds: 120,
});

/**
 * Resolves the fee terms of `asset` bridged from `bridge`'s chain to `destinationChainId`, field by field:
 * built-in defaults < bridge `defaults` < the asset's own terms < the asset's `destinations[destinationChainId]`.
 */
export function resolveBridgeFeeTerms(bridge: CatalogBridge, asset: CatalogBridgeAsset, destinationChainId: number): BridgeFeeTerms {
  const layers: BridgeFeeTermsConfig[] = [bridge.defaults, asset, asset.destinations[String(destinationChainId)] ?? {}];
  let terms: BridgeFeeTerms = DEFAULT_BRIDGE_FEE_TERMS;
  for (const layer of layers) {
    terms = {
      feeBps: layer.feeBps ?? terms.feeBps,
      fixedFee: layer.fixedFee ?? terms.fixedFee,
      minAmount: layer.minAmount ?? terms.minAmount,
      maxAmount: layer.maxAmount ?? terms.maxAmount,
      fillTimeSeconds: layer.fillTimeSeconds ?? terms.fillTimeSeconds,
    };
  }
  return terms;
}

/** A non-negative decimal as an exact fraction: value = numerator / 10^places. */
export interface DecimalFraction {
  readonly numerator: bigint;
  readonly places: number;
}

const DECIMAL = /^(0|[1-9]\d*)(\.\d+)?$/;

/** Parses a display-unit decimal string ("0.5", "1000") into an exact fraction; throws RangeError on anything else. */
export function parseDecimal(text: string): DecimalFraction {
  if (!DECIMAL.test(text)) throw new RangeError(`"${text}" is not a non-negative decimal`);
  const [whole, fraction = ''] = text.split('.');
  return { numerator: BigInt(whole + fraction), places: fraction.length };
}

/**
 * Converts an amount between two decimal scales (the same asset on two chains), rounding down: the result is
 * the largest integer not above amount x 10^toDecimals / 10^fromDecimals. Exact when toDecimals >= fromDecimals.
 */
export function scaleAmount(amount: bigint, fromDecimals: number, toDecimals: number): bigint {
  if (toDecimals >= fromDecimals) return amount * 10n ** BigInt(toDecimals - fromDecimals);
  return amount / 10n ** BigInt(fromDecimals - toDecimals);
}

/** Parameters of {@link bridgeOutputAmount}. */
export interface BridgeAmountParams {
  /** Deposit amount, smallest units of the origin chain's token. */
  readonly inputAmount: bigint;
  readonly inputDecimals: number;
  /** Decimals of the same asset's token on the destination chain. */
  readonly outputDecimals: number;
  readonly terms: BridgeFeeTerms;
  /** Asset key, for messages. */
  readonly asset: string;
}

/** The outcome of pricing one bridge transfer. */
export type BridgeAmount =
  | {
      readonly ok: true;
      /** What the relayer pays the recipient: the deposit's outputAmount, smallest destination units. */
      readonly outputAmount: bigint;
      /** The input scaled to the destination's decimals (rounded down) minus outputAmount: all the user gives up. */
      readonly feeAmount: bigint;
    }
  | { readonly ok: false; readonly code: RefusalCode; readonly reason: string };

/**
 * The output of a bridge transfer under the fee terms, in the destination token's smallest units:
 *
 *   outputAmount = floor( inputAmount / 10^inputDecimals x (1 - feeBps / 10000) x 10^outputDecimals
 *                         - fixedFee x 10^outputDecimals )
 *
 * computed as one exact fraction with a single floor, so the user loses less than one destination unit to
 * rounding and never gains (the decimal scaling and both fee parts are exact until that floor). The deposit must
 * lie within [minAmount, maxAmount] (compared exactly in display units) and leave a positive output.
 */
export function bridgeOutputAmount(params: BridgeAmountParams): BridgeAmount {
  const { inputAmount, inputDecimals, outputDecimals, terms, asset } = params;
  const inUnit = 10n ** BigInt(inputDecimals);
  const outUnit = 10n ** BigInt(outputDecimals);
  const shown = (amount: bigint): string => formatFraction(amount, inputDecimals);
  if (terms.minAmount !== undefined) {
    const min = parseDecimal(terms.minAmount);
    if (inputAmount * 10n ** BigInt(min.places) < min.numerator * inUnit) {
      return {
        ok: false,
        code: 'AMOUNT_OUT_OF_RANGE',
        reason: `${shown(inputAmount)} ${asset} is below the bridge minimum of ${terms.minAmount} ${asset}`,
      };
    }
  }
  if (terms.maxAmount !== undefined) {
    const max = parseDecimal(terms.maxAmount);
    if (inputAmount * 10n ** BigInt(max.places) > max.numerator * inUnit) {
      return {
        ok: false,
        code: 'AMOUNT_OUT_OF_RANGE',
        reason: `${shown(inputAmount)} ${asset} is above the bridge maximum of ${terms.maxAmount} ${asset}`,
      };
    }
  }
  const fixed = parseDecimal(terms.fixedFee);
  const fixedUnit = 10n ** BigInt(fixed.places);
  const bps = BigInt(terms.feeBps);
  const numerator = inputAmount * outUnit * (10_000n - bps) * fixedUnit - fixed.numerator * outUnit * inUnit * 10_000n;
  const denominator = inUnit * 10_000n * fixedUnit;
  const outputAmount = numerator <= 0n ? 0n : numerator / denominator;
  if (outputAmount <= 0n) {
    return {
      ok: false,
      code: 'AMOUNT_TOO_SMALL',
      reason: `${shown(inputAmount)} ${asset} does not cover the bridge fee (${terms.feeBps} bps + ${terms.fixedFee} ${asset})`,
    };
  }
  return { ok: true, outputAmount, feeAmount: scaleAmount(inputAmount, inputDecimals, outputDecimals) - outputAmount };
}

/** An integer amount in smallest units as an exact display decimal without trailing zeros. */
function formatFraction(amount: bigint, decimals: number): string {
  const unit = 10n ** BigInt(decimals);
  const fraction = (amount % unit).toString().padStart(decimals, '0').replace(/0+$/, '');
  return fraction === '' ? (amount / unit).toString() : `${amount / unit}.${fraction}`;
}
