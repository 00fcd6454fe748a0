import { type Abi, decodeErrorResult, type Hex, parseAbi } from 'viem';

/** A revert as a client reads it: the reason decoded from the revert data, and the data itself. */
export interface RevertReason {
  /**
   * Error(string): its text ("STF", "Too little received", "UniswapV2: K"); Panic(uint256): `Panic(0x11: arithmetic
   * underflow or overflow)`; a known custom error: its signature with arguments (`ERC20InsufficientBalance(0x…, 0,
   * 5)`); an unknown one: `custom error 0x<selector>`; no data: `reverted without a reason`.
   */
  readonly reason: string;
  /** The revert data as the node returned it ('0x' when none). */
  readonly data: Hex;
}

/** Solidity's panic codes (docs.soliditylang.org, "Panic via assert and Error via require"). */
const PANICS: Readonly<Record<number, string>> = {
  0: 'generic compiler panic',
  1: 'assert failed',
  17: 'arithmetic underflow or overflow',
  18: 'division or modulo by zero',
  33: 'invalid enum value',
  34: 'invalid storage byte array',
  49: 'pop on an empty array',
  50: 'array index out of bounds',
  65: 'out of memory',
  81: 'call to a zero-initialized function',
};

/**
 * Custom errors a quote's steps can meet, by name: the ERC-20 errors of OpenZeppelin 5 (EIP-6093) and Permit2's. The
 * routers the service encodes for (UniswapV2Router02, SwapRouter, SwapRouter02) and their pools revert with
 * Error(string).
 */
const KNOWN_ERRORS: Abi = parseAbi([
  'error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)',
  'error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)',
  'error ERC20InvalidSender(address sender)',
  'error ERC20InvalidReceiver(address receiver)',
  'error ERC20InvalidApprover(address approver)',
  'error ERC20InvalidSpender(address spender)',
  'error AllowanceExpired(uint256 deadline)',
  'error InsufficientAllowance(uint256 amount)',
]);

/** Decodes revert data: Error(string), Panic(uint256), a known custom error, or names the unknown selector. */
export function decodeRevert(data: Hex | undefined): RevertReason {
  const hex = (data ?? '0x').toLowerCase() as Hex;
  if (hex === '0x') return { reason: 'reverted without a reason', data: hex };
  try {
    const decoded = decodeErrorResult({ abi: KNOWN_ERRORS, data: hex });
    const args = decoded.args ?? [];
    if (decoded.errorName === 'Error') return { reason: String(args[0]), data: hex };
    if (decoded.errorName === 'Panic') {
      const code = Number(args[0]);
      return { reason: `Panic(0x${code.toString(16).padStart(2, '0')}: ${PANICS[code] ?? 'unknown panic code'})`, data: hex };
    }
    return { reason: `${decoded.errorName}(${args.map(String).join(', ')})`, data: hex };
  } catch {
    return { reason: `custom error ${hex.slice(0, 10)}`, data: hex };
  }
}
