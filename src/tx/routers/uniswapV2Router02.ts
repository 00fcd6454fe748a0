import type { Hex } from 'viem';
import { uniswapV2Router02Abi } from '../abis.ts';
import { encodeCall } from '../encodeCall.ts';
import { type RouterContext, type RouterEncoder, type RouterTransaction, routeSwaps } from './RouterEncoder.ts';

/** Calldata encoders of the uniswapV2Router02 functions used here. */
const uniswapV2Router02Call = {
  swapExactTokensForTokens: encodeCall(uniswapV2Router02Abi, 'swapExactTokensForTokens'),
  swapExactETHForTokens: encodeCall(uniswapV2Router02Abi, 'swapExactETHForTokens'),
  swapExactTokensForETH: encodeCall(uniswapV2Router02Abi, 'swapExactTokensForETH'),
  swapTokensForExactTokens: encodeCall(uniswapV2Router02Abi, 'swapTokensForExactTokens'),
  swapTokensForExactETH: encodeCall(uniswapV2Router02Abi, 'swapTokensForExactETH'),
  swapETHForExactTokens: encodeCall(uniswapV2Router02Abi, 'swapETHForExactTokens'),
};

/**
 * UniswapV2Router02 (v2-periphery): one transaction per route, the route's pairs as a path array (the wrapped
 * native token on a native side), paying the recipient directly.
 * - Exact input, with the transaction's minimum: `swapExactTokensForTokens(amountIn, amountOutMin, path, to,
 *   deadline)`, `swapExactETHForTokens(amountOutMin, path, to, deadline)` with `value` = amountIn (native input),
 *   `swapExactTokensForETH(…)` (native output).
 * - Exact output, for exactly the route's amountOut and at most its amountInMaximum (the router computes every
 *   hop's amount with `getAmountsIn` and asks each pair for exactly that): `swapTokensForExactTokens(amountOut,
 *   amountInMax, path, to, deadline)`, `swapTokensForExactETH(…)` (native output), `swapETHForExactTokens(amountOut,
 *   path, to, deadline)` with `value` = amountInMaximum (native input; the router refunds the unused value to the
 *   sender itself).
 */
export const uniswapV2Router02: RouterEncoder = {
  batch(routes) {
    return routes.map((r) => [r]);
  },
  encode(ctx: RouterContext, tx: RouterTransaction): Hex {
    const route = tx.routes[0];
    const { tokens } = routeSwaps(route);
    if (tx.tradeType === 'exactOut') {
      if (ctx.nativeIn) {
        return uniswapV2Router02Call.swapETHForExactTokens([route.amountOut, tokens, ctx.recipient, ctx.deadline]);
      }
      const encode = ctx.nativeOut ? uniswapV2Router02Call.swapTokensForExactETH : uniswapV2Router02Call.swapTokensForExactTokens;
      return encode([route.amountOut, tx.amountInMaximums[0], tokens, ctx.recipient, ctx.deadline]);
    }
    if (ctx.nativeIn) {
      return uniswapV2Router02Call.swapExactETHForTokens([tx.amountOutMinimum, tokens, ctx.recipient, ctx.deadline]);
    }
    const encode = ctx.nativeOut ? uniswapV2Router02Call.swapExactTokensForETH : uniswapV2Router02Call.swapExactTokensForTokens;
    return encode([route.amountIn, tx.amountOutMinimum, tokens, ctx.recipient, ctx.deadline]);
  },
};
