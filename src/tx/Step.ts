import type { Address, Hex } from 'viem';
import type { CatalogToken } from '../catalog/Catalog.ts';
import { checksumAddress } from './checksumAddress.ts';
import { StepBuildError } from './StepBuildError.ts';

/**
 * One transaction of a quote (SPEC section 2, Step). The client sends the steps in order from `from`,
 * waiting for each to confirm, and attaches `value` (wei) when present.
 */
export interface Step {
  /** Human-readable label; the texts are listed on `buildTradeSteps`, `buildWrapSteps` and `approveStep`. */
  readonly message: string;
  /** Wallet that must send the transaction (checksummed). */
  readonly from: Address;
  /** Contract called (checksummed); for a plain native transfer, the receiving address. */
  readonly to: Address;
  /** ABI-encoded calldata ('0x' for a plain native transfer). */
  readonly data: Hex;
  /** The amount this step spends (an exact-output swap: at most), approves or moves, as an integer string in the smallest units of its token. */
  readonly amount: string;
  readonly chainId: number;
  /** Approval steps only: the contract allowed to spend `amount`. */
  readonly spender?: Address;
  /** Native-asset value in wei (integer string), only on steps that send the native asset. */
  readonly value?: string;
  /**
   * Gas limit to send the transaction with (integer string): the gas model's estimate of the step with its margin
   * (src/routing/gasModel.ts `gasLimit`). On approvals, swaps, wraps and their hand-over; absent where the service
   * has no model (the Across deposit).
   */
  readonly gasLimit?: string;
}

/** What step building needs to know about a token: a CatalogToken fits. */
export type StepToken = Pick<CatalogToken, 'address' | 'symbol' | 'decimals' | 'approvalReset'>;

/** Checksums an address, naming the parameter when it is not a valid EVM address. */
export function stepAddress(value: string, field: string): Address {
  try {
    return checksumAddress(value);
  } catch (cause) {
    throw new StepBuildError(`${field}: "${value}" is not a valid EVM address`, { cause });
  }
}

/**
 * An amount in display units (step messages, a quote's amountInFloat and amountOutFloat): exact decimal, no trailing
 * zeros. The text of viem's formatUnits (test/tx/displayAmount.test.ts compares them), without its regular expression
 * and its padded copy of the digits.
 */
export function displayAmount(amount: bigint, token: Pick<StepToken, 'decimals'>): string {
  const { decimals } = token;
  if (!Number.isInteger(decimals) || decimals < 0)
    throw new RangeError(`displayAmount: decimals must be a non-negative integer, got ${decimals}`);
  const sign = amount < 0n ? '-' : '';
  const digits = (amount < 0n ? -amount : amount).toString();
  // Digits before `point` are whole units; a negative `point` stands for that many zeros after the decimal point.
  const point = digits.length - decimals;
  const fractionStart = point > 0 ? point : 0;
  let end = digits.length;
  while (end > fractionStart && digits.charCodeAt(end - 1) === 48) end--;
  const whole = point > 0 ? digits.slice(0, point) : '0';
  if (end === fractionStart) return `${sign}${whole}`;
  return `${sign}${whole}.${point < 0 ? '0'.repeat(-point) : ''}${digits.slice(fractionStart, end)}`;
}

const UINT256_END = 1n << 256n;

/** Rejects amounts that are not positive or do not fit a uint256. */
export function checkUint256(value: bigint, field: string, allowZero = false): void {
  if (value < 0n || (!allowZero && value === 0n) || value >= UINT256_END) {
    throw new StepBuildError(`${field}: must be ${allowZero ? 'a non-negative' : 'a positive'} uint256, got ${value}`);
  }
}
