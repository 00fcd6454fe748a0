import { NATIVE_TOKEN_ADDRESS } from '../catalog/Catalog.ts';
import { ValidationError } from '../errors/BaseError.ts';
import type { Trade } from '../routing/Trade.ts';
import type { QuoteRequest } from './quoteRequest.ts';

/**
 * Why a request with approvalMode "permit2" cannot be answered for this trade, or undefined ("approve", the default,
 * always can; "permit2" can for an ERC-20 tokenIn on Universal Router routes). Only the Universal Router pulls
 * through Permit2 and a native tokenIn needs no approval at all: "permit2" is then refused with a 400 naming the
 * reason, never silently answered with approve steps.
 */
export function permit2Refusal(request: QuoteRequest, trade: Trade): ValidationError | undefined {
  if (request.approvalMode !== 'permit2') return undefined;
  if (request.tokenIn.address.toLowerCase() === NATIVE_TOKEN_ADDRESS.toLowerCase())
    return new ValidationError(
      `approvalMode: "permit2" needs an ERC-20 tokenIn; ${request.tokenIn.symbol} is the native asset, sent as the swap's value without any approval: leave approvalMode out`,
    );
  const others = [
    ...new Set(
      trade.splits
        .map((s) => s.route.executor)
        .filter((e) => e.kind !== 'UniversalRouter')
        .map((e) => e.name),
    ),
  ];
  if (others.length > 0)
    return new ValidationError(
      `approvalMode: "permit2" applies to Universal Router routes only; this quote's route runs through ${others.join(', ')}, which takes a plain approval: request approvalMode "approve"`,
    );
  return undefined;
}
