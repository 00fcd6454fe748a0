/**
 * Permit2 (Uniswap's AllowanceTransfer, at the same address on every chain): what the Universal Router pulls input
 * tokens through. A wallet lets it pull by `approve(Permit2)` on the token once, then either a plain transaction
 * `Permit2.approve(token, router, amount, expiration)` or an EIP-712 signed PermitSingle that the router submits in its
 * own call (command PERMIT2_PERMIT).
 */
import { type Address, type Hex, hashTypedData, recoverAddress } from 'viem';

/** uint160 / uint48 bounds of Permit2's allowance fields. */
export const MAX_UINT160 = (1n << 160n) - 1n;
export const MAX_UINT48 = 2 ** 48 - 1;

/** IAllowanceTransfer.PermitSingle: allow `spender` to pull `details.amount` of `details.token` until `details.expiration`. */
export interface PermitSingle {
  readonly details: {
    readonly token: Address;
    /** uint160 */
    readonly amount: bigint;
    /** uint48, Unix seconds: when the allowance ends. */
    readonly expiration: number;
    /** uint48: the owner's current Permit2 nonce for (token, spender); the permit uses it up. */
    readonly nonce: number;
  };
  readonly spender: Address;
  /** Unix seconds: the signature is refused after it. */
  readonly sigDeadline: bigint;
}

/** A PermitSingle with its owner's signature (65 bytes r, s, v; or 64 bytes EIP-2098), as PERMIT2_PERMIT takes it. */
export interface SignedPermit {
  readonly permit: PermitSingle;
  readonly signature: Hex;
}

/** Permit2's EIP-712 types of a PermitSingle (PermitHash.sol: `PermitSingle(PermitDetails details,address spender,uint256 sigDeadline)`). */
export const PERMIT_SINGLE_TYPES = {
  PermitSingle: [
    { name: 'details', type: 'PermitDetails' },
    { name: 'spender', type: 'address' },
    { name: 'sigDeadline', type: 'uint256' },
  ],
  PermitDetails: [
    { name: 'token', type: 'address' },
    { name: 'amount', type: 'uint160' },
    { name: 'expiration', type: 'uint48' },
    { name: 'nonce', type: 'uint48' },
  ],
} as const;

/** The EIP-712 typed data a wallet signs for a PermitSingle (domain: name "Permit2", the chain, Permit2's address; no version). */
export function permitTypedData(chainId: number, permit2: Address, permit: PermitSingle) {
  return {
    domain: { name: 'Permit2', chainId, verifyingContract: permit2 },
    types: PERMIT_SINGLE_TYPES,
    primaryType: 'PermitSingle' as const,
    message: permit,
  };
}

/**
 * Who signed a PermitSingle, as Permit2's SignatureVerification recovers it (65-byte r, s, v or 64-byte compact
 * signatures); undefined when the signature is malformed. Permit2 accepts an EOA signature only from the owner itself.
 */
export async function permitSigner(chainId: number, permit2: Address, signed: SignedPermit): Promise<Address | undefined> {
  const { signature } = signed;
  if (!/^0x([0-9a-fA-F]{128}|[0-9a-fA-F]{130})$/.test(signature)) return undefined;
  if (signature.length === 132) {
    const v = Number.parseInt(signature.slice(130), 16);
    if (v !== 27 && v !== 28) return undefined;
  }
  try {
    const hash = hashTypedData(permitTypedData(chainId, permit2, signed.permit));
    return await recoverAddress({ hash, signature });
  } catch {
    return undefined;
  }
}
