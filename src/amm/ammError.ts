/** Stable machine-readable codes of the AMM math errors. */
export type AmmErrorCode =
  | 'INSUFFICIENT_INPUT_AMOUNT'
  | 'INSUFFICIENT_OUTPUT_AMOUNT'
  | 'ZERO_RESERVES'
  | 'INSUFFICIENT_RESERVES'
  | 'INVALID_FEE'
  | 'INVALID_AMOUNT'
  | 'INVALID_PRICE_LIMIT'
  | 'INVALID_POOL_STATE'
  | 'TICK_OUT_OF_RANGE'
  | 'SQRT_PRICE_OUT_OF_RANGE'
  | 'DIVISION_BY_ZERO'
  | 'OVERFLOW'
  | 'PRICE_OUT_OF_BOUNDS'
  | 'ZERO_LIQUIDITY'
  | 'LIQUIDITY_UNDERFLOW'
  | 'LIQUIDITY_OVERFLOW';

/**
 * Error thrown by the pure AMM math where the Solidity code it follows would revert.
 * Self-contained on purpose: the service's error tree maps `code` to its own classes.
 */
export class AmmError extends Error {
  override readonly name = 'AmmError';
  readonly code: AmmErrorCode;

  constructor(code: AmmErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}
