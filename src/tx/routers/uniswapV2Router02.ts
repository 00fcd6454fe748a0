import { encodeFunctionData, type Hex } from 'viem';
import { uniswapV2Router02Abi } from '../abis.ts';
import { routeSwaps, type RouterContext, type RouterEncoder, type RouterTransaction } from './RouterEncoder.ts';

/**
 * UniswapV2Router02 (v2-periphery): one transaction per route, the route's pairs as a path array (the wrapped
 * native token on a native side), paying the recipient directly with the transaction's minimum:
 * `swapExactTokensForTokens(amountIn, amountOutMin, path, to, deadline)`, `swapExactETHForTokens(amountOutMin,
 * path, to, deadline)` with `value` = amountIn (native input), `swapExactTokensForETH(…)` (native output).
 */
export const uniswapV2Router02: RouterEncoder = {
  batch(routes) {
    return routes.map((r) => [r]);
  },
  encode(ctx: RouterContext, tx: RouterTransaction): Hex {
    const route = tx.routes[0]!;
    const { tokens } = routeSwaps(route);
    if (ctx.nativeIn) {
      return encodeFunctionData({ abi: uniswapV2Router02Abi, functionName: 'swapExactETHForTokens', args: [tx.amountOutMinimum, tokens, ctx.recipient, ctx.deadline] });
    }
    return encodeFunctionData({
      abi: uniswapV2Router02Abi,
      functionName: ctx.nativeOut ? 'swapExactTokensForETH' : 'swapExactTokensForTokens',
      args: [route.amountIn, tx.amountOutMinimum, tokens, ctx.recipient, ctx.deadline],
    });
  },
};
