import type { Hex } from 'viem';
import { swapRouterAbi } from '../abis.ts';
import { encodeCall } from '../encodeCall.ts';
import { paymentCalls, paysRecipientDirectly } from './peripheryPayments.ts';
import { packedV3Path, type RouterContext, type RouterEncoder, type RouterTransaction, routeSwaps } from './RouterEncoder.ts';

/** Calldata encoders of the swapRouter functions used here. */
const swapRouterCall = {
  exactInputSingle: encodeCall(swapRouterAbi, 'exactInputSingle'),
  exactInput: encodeCall(swapRouterAbi, 'exactInput'),
  exactOutputSingle: encodeCall(swapRouterAbi, 'exactOutputSingle'),
  exactOutput: encodeCall(swapRouterAbi, 'exactOutput'),
  multicall: encodeCall(swapRouterAbi, 'multicall'),
};

/**
 * Uniswap v3 SwapRouter (v3-periphery): every route of the trade in one transaction, the deadline in the swap
 * params, `sqrtPriceLimitX96` 0.
 * - Exact input: each route as `exactInputSingle` (one pool) or `exactInput` with the packed path. One route with
 *   an ERC-20 output pays the recipient directly with the minimum, as the bare call (no multicall) unless native
 *   input adds `refundETH`. Otherwise `multicall(bytes[])`: the swaps pay the router itself, then
 *   `sweepToken(tokenOut, minimum, recipient)` or, for native output, `unwrapWETH9(minimum, recipient)`.
 * - Exact output: each route as `exactOutputSingle` or `exactOutput` with the reversed packed path, for exactly its
 *   amountOut and at most its amountInMaximum (the router pulls only what the pools ask for). An ERC-20 output is
 *   paid by each swap straight to the recipient; a native output is paid to the router and `unwrapWETH9(amountOut,
 *   recipient)` pays it out.
 * Native input: `value` is what the transaction may spend (exact input: amountIn), wrapped by the router as the
 * pools take it; `refundETH` closes the call, returning what they did not take.
 */
export const swapRouter: RouterEncoder = {
  batch(routes) {
    return [[...routes]];
  },
  encode(ctx: RouterContext, tx: RouterTransaction): Hex {
    const direct = paysRecipientDirectly(ctx, tx);
    const recipient = direct ? ctx.recipient : ctx.router;
    const swaps = tx.routes.map((route, i): Hex => {
      const swap = routeSwaps(route);
      const one = swap.legs.length === 1;
      if (tx.tradeType === 'exactOut') {
        const amountInMaximum = tx.amountInMaximums[i];
        if (one) {
          const params = {
            tokenIn: swap.tokens[0],
            tokenOut: swap.tokens[1],
            fee: swap.legs[0].fee,
            recipient,
            deadline: ctx.deadline,
            amountOut: route.amountOut,
            amountInMaximum,
            sqrtPriceLimitX96: 0n,
          };
          return swapRouterCall.exactOutputSingle([params]);
        }
        const params = { path: packedV3Path(swap, true), recipient, deadline: ctx.deadline, amountOut: route.amountOut, amountInMaximum };
        return swapRouterCall.exactOutput([params]);
      }
      const amountOutMinimum = direct ? tx.amountOutMinimum : 0n;
      if (one) {
        const params = {
          tokenIn: swap.tokens[0],
          tokenOut: swap.tokens[1],
          fee: swap.legs[0].fee,
          recipient,
          deadline: ctx.deadline,
          amountIn: route.amountIn,
          amountOutMinimum,
          sqrtPriceLimitX96: 0n,
        };
        return swapRouterCall.exactInputSingle([params]);
      }
      const params = { path: packedV3Path(swap), recipient, deadline: ctx.deadline, amountIn: route.amountIn, amountOutMinimum };
      return swapRouterCall.exactInput([params]);
    });
    const calls = [...swaps, ...paymentCalls(ctx, tx)];
    return calls.length === 1 ? calls[0] : swapRouterCall.multicall([calls]);
  },
};
