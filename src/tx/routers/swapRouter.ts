import { encodeFunctionData, type Hex } from 'viem';
import { swapRouterAbi } from '../abis.ts';
import { paymentCalls, paysRecipientDirectly } from './peripheryPayments.ts';
import { packedV3Path, routeSwaps, type RouterContext, type RouterEncoder, type RouterTransaction } from './RouterEncoder.ts';

/**
 * Uniswap v3 SwapRouter (v3-periphery): every route of the trade in one transaction, each as `exactInputSingle`
 * (one pool) or `exactInput` with the packed path (several), the deadline in their params, `sqrtPriceLimitX96` 0.
 * One route with an ERC-20 output pays the recipient directly with the minimum, as the bare call (no multicall)
 * unless native input adds `refundETH`. Otherwise `multicall(bytes[])`: the swaps pay the router itself, then
 * `sweepToken(tokenOut, minimum, recipient)` or, for native output, `unwrapWETH9(minimum, recipient)`; native
 * input (`value` = amountIn, wrapped by the router as the pools take it) ends with `refundETH`.
 */
export const swapRouter: RouterEncoder = {
  batch(routes) {
    return [[...routes]];
  },
  encode(ctx: RouterContext, tx: RouterTransaction): Hex {
    const direct = paysRecipientDirectly(ctx, tx);
    const recipient = direct ? ctx.recipient : ctx.router;
    const amountOutMinimum = direct ? tx.amountOutMinimum : 0n;
    const swaps = tx.routes.map((route): Hex => {
      const swap = routeSwaps(route);
      if (swap.legs.length === 1) {
        const params = { tokenIn: swap.tokens[0]!, tokenOut: swap.tokens[1]!, fee: swap.legs[0]!.fee, recipient, deadline: ctx.deadline, amountIn: route.amountIn, amountOutMinimum, sqrtPriceLimitX96: 0n };
        return encodeFunctionData({ abi: swapRouterAbi, functionName: 'exactInputSingle', args: [params] });
      }
      const params = { path: packedV3Path(swap), recipient, deadline: ctx.deadline, amountIn: route.amountIn, amountOutMinimum };
      return encodeFunctionData({ abi: swapRouterAbi, functionName: 'exactInput', args: [params] });
    });
    const calls = [...swaps, ...paymentCalls(ctx, tx)];
    return calls.length === 1 ? calls[0]! : encodeFunctionData({ abi: swapRouterAbi, functionName: 'multicall', args: [calls] });
  },
};
