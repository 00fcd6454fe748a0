import type { Address, Hex } from 'viem';
import { ValidationError } from '../errors/BaseError.ts';
import { MAX_UINT160, PERMIT_SINGLE_TYPES, type PermitSingle, permitSigner } from '../tx/permit2.ts';
import { withPermit } from '../tx/routers/universalRouter.ts';
import type { Step } from '../tx/Step.ts';
import { isExpired } from './quoteLifecycle.ts';

/**
 * A quote's `permitData` (approvalMode "permit2"): the EIP-712 typed data of the PermitSingle the sender signs, in the
 * form eth_signTypedData_v4 and viem's signTypedData take as they are (domain, types with EIP712Domain, primaryType,
 * message). uint160/uint256 values are decimal strings, uint48 values numbers.
 */
export interface PermitData {
  readonly domain: { readonly name: 'Permit2'; readonly chainId: number; readonly verifyingContract: string };
  readonly types: typeof PERMIT_DATA_TYPES;
  readonly primaryType: 'PermitSingle';
  readonly message: {
    readonly details: { readonly token: string; readonly amount: string; readonly expiration: number; readonly nonce: number };
    readonly spender: string;
    readonly sigDeadline: string;
  };
}

/** Permit2's EIP-712 domain type (no version) beside the PermitSingle types. */
const PERMIT_DATA_TYPES = {
  EIP712Domain: [
    { name: 'name', type: 'string' },
    { name: 'chainId', type: 'uint256' },
    { name: 'verifyingContract', type: 'address' },
  ],
  ...PERMIT_SINGLE_TYPES,
} as const;

/**
 * The PermitSingle a permit2-mode quote asks its sender to sign: Permit2 lets `router` pull exactly `amount` of
 * `token` (the quote's amountIn; exact output: its amountInMaximum) until the quote's deadline, the signature valid
 * until the deadline too, with the sender's current Permit2 nonce for (token, router).
 */
export function quotePermit(p: {
  readonly chainId: number;
  readonly permit2: Address;
  readonly token: Address;
  readonly router: Address;
  readonly amount: bigint;
  readonly deadline: number;
  readonly nonce: number;
}): PermitData {
  if (p.amount > MAX_UINT160) throw new ValidationError(`approvalMode: "permit2" cannot permit ${p.amount}: more than Permit2's uint160`);
  return {
    domain: { name: 'Permit2', chainId: p.chainId, verifyingContract: p.permit2 },
    types: PERMIT_DATA_TYPES,
    primaryType: 'PermitSingle',
    message: {
      details: { token: p.token, amount: p.amount.toString(), expiration: p.deadline, nonce: p.nonce },
      spender: p.router,
      sigDeadline: p.deadline.toString(),
    },
  };
}

/** The PermitSingle of a saved quote's permitData. */
function permitOf(data: PermitData): PermitSingle {
  const { details, spender, sigDeadline } = data.message;
  return {
    details: { token: details.token as Address, amount: BigInt(details.amount), expiration: details.expiration, nonce: details.nonce },
    spender: spender as Address,
    sigDeadline: BigInt(sigDeadline),
  };
}

/** 65 bytes (r, s, v) or 64 bytes (EIP-2098 compact), hex. */
const SIGNATURE = /^0x([0-9a-fA-F]{128}|[0-9a-fA-F]{130})$/;

/**
 * The body of POST /quotes/{quoteId}/swap: `{ "signature": "0x…" }`, nothing else; 400 naming each problem (sorted by
 * field, joined by "; "). `undefined`: a body that is not JSON.
 */
export function parseSwapBody(body: unknown): Hex {
  if (body === undefined) throw new ValidationError('request body must be JSON (Content-Type: application/json)');
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ValidationError('request body must be a JSON object');
  const problems: string[] = [];
  const record = body as Record<string, unknown>;
  for (const field of Object.keys(record).sort()) {
    if (field !== 'signature') problems.push(`${field.length > 64 ? `${field.slice(0, 64)}…` : field}: is not a field of the swap request`);
  }
  const { signature } = record;
  if (signature === undefined) problems.push('signature: is required');
  else if (typeof signature !== 'string' || !SIGNATURE.test(signature))
    problems.push('signature: must be 0x and 130 hex digits (r, s, v) or 128 (EIP-2098 compact)');
  if (problems.length > 0) throw new ValidationError(problems.sort().join('; '));
  return signature as Hex;
}

/** What POST /quotes/{quoteId}/swap reads of a saved quote. */
export interface Permit2Quote {
  readonly quoteId: string;
  readonly deadline: number;
  readonly expiresAt: string;
  /** The sender: the permit's owner and the swap's `from`. */
  readonly walletAddress: string;
  readonly permitData?: PermitData;
}

/**
 * POST /quotes/{quoteId}/swap: the held-back swap step of a permit2-mode quote with the sender's signed permit put
 * first (PERMIT2_PERMIT, universalRouter.withPermit). Refused with a 400 before any calldata is built, in this order:
 * a quote made without approvalMode "permit2", a body that is not `{ "signature": "0x…" }`, an expired quote (or a permit past its sigDeadline), a signature that does not
 * recover, or one by anyone but the quote's sender.
 */
export async function permit2Swap(quote: Permit2Quote, held: Step | undefined, body: unknown, nowMs: number): Promise<Step> {
  const { quoteId } = quote;
  if (!quote.permitData || !held)
    throw new ValidationError(
      `quote ${quoteId} was not made with approvalMode "permit2": its steps already hold the swap; POST /quotes/{quoteId}/swap is for permit2 quotes only`,
    );
  const signature = parseSwapBody(body);
  if (isExpired(quote, nowMs))
    throw new ValidationError(
      `quote ${quoteId} expired at ${quote.expiresAt}: refresh it (POST /quotes/${quoteId}/refresh) and sign the new permitData`,
    );
  const permit = permitOf(quote.permitData);
  if (BigInt(Math.floor(nowMs / 1000)) > permit.sigDeadline)
    throw new ValidationError(
      `signature: the permit's sigDeadline ${permit.sigDeadline} has passed: refresh the quote and sign the new permitData`,
    );
  const { chainId, verifyingContract } = quote.permitData.domain;
  const signer = await permitSigner(chainId, verifyingContract as Address, { permit, signature });
  if (!signer) throw new ValidationError("signature: not a valid signature (r, s, v) of the quote's permitData");
  if (signer.toLowerCase() !== quote.walletAddress.toLowerCase())
    throw new ValidationError(
      `signature: signed by ${signer}, not by the quote's sender ${quote.walletAddress}: the sender signs the quote's permitData exactly as given`,
    );
  return { ...held, data: withPermit(held.data as Hex, { permit, signature }) };
}
