import type { Hex } from 'viem';
import { peripheryPaymentsAbi } from '../abis.ts';
import { encodeCall } from '../encodeCall.ts';
import type { RouterContext, RouterTransaction } from './RouterEncoder.ts';

/** Calldata encoders of the peripheryPayments functions used here. */
const peripheryPaymentsCall = {
  unwrapWETH9: encodeCall(peripheryPaymentsAbi, 'unwrapWETH9'),
  sweepToken: encodeCall(peripheryPaymentsAbi, 'sweepToken'),
  refundETH: encodeCall(peripheryPaymentsAbi, 'refundETH'),
};

/**
 * True when a v3 router's transaction pays the recipient straight from its swaps: an ERC-20 output and one route
 * (exact input: enforcing the minimum in the swap itself) or any number of routes (exact output: each delivers
 * exactly its share). Otherwise every route pays the router, which pays out the sum afterwards.
 */
export function paysRecipientDirectly(ctx: RouterContext, tx: RouterTransaction): boolean {
  return !ctx.nativeOut && (tx.tradeType === 'exactOut' || tx.routes.length === 1);
}

/**
 * The payment calls that close a v3 router's multicall (v3-periphery PeripheryPayments, in both SwapRouter and
 * SwapRouter02): native output `unwrapWETH9(minimum, recipient)`; several routes `sweepToken(tokenOut, minimum,
 * recipient)` (both pay the router's whole balance and revert below the minimum); native input `refundETH()`
 * last, returning any value the pools did not take (exact output: the rest of amountInMaximum, in the same transaction).
 */
export function paymentCalls(ctx: RouterContext, tx: RouterTransaction): Hex[] {
  const calls: Hex[] = [];
  if (ctx.nativeOut) {
    calls.push(peripheryPaymentsCall.unwrapWETH9([tx.amountOutMinimum, ctx.recipient]));
  } else if (!paysRecipientDirectly(ctx, tx)) {
    calls.push(peripheryPaymentsCall.sweepToken([ctx.poolTokenOut, tx.amountOutMinimum, ctx.recipient]));
  }
  if (ctx.nativeIn) calls.push(peripheryPaymentsCall.refundETH([]));
  return calls;
}
