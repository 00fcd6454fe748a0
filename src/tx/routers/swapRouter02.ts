import type { Address, Hex } from 'viem';
import type { ProtocolKind } from '../../protocols/registry.ts';
import { SWAP_ROUTER02_ADDRESS_THIS, SWAP_ROUTER02_CONTRACT_BALANCE, swapRouter02Abi } from '../abis.ts';
import { encodeCall } from '../encodeCall.ts';
import { StepBuildError } from '../StepBuildError.ts';
import { paymentCalls, paysRecipientDirectly } from './peripheryPayments.ts';
import {
  packedV3Path,
  type RouterContext,
  type RouterEncoder,
  type RouterTransaction,
  routeSwaps,
  type Section,
  sections,
} from './RouterEncoder.ts';

/** Calldata encoders of the functions used here, of SwapRouter02 or a router with its ABI (swapRouter02Abi). */
function routerCalls(abi: typeof swapRouter02Abi) {
  return {
    exactInputSingle: encodeCall(abi, 'exactInputSingle'),
    exactInput: encodeCall(abi, 'exactInput'),
    exactOutputSingle: encodeCall(abi, 'exactOutputSingle'),
    exactOutput: encodeCall(abi, 'exactOutput'),
    swapExactTokensForTokens: encodeCall(abi, 'swapExactTokensForTokens'),
    multicall: encodeCall(abi, 'multicall'),
  };
}
type RouterCalls = ReturnType<typeof routerCalls>;

/** The call that swaps one section of an exact-input route, by its pools' protocol. */
const exactInputSection = (
  swapRouter02Call: RouterCalls,
): Partial<Record<ProtocolKind, (section: Section, amountIn: bigint, amountOutMinimum: bigint, recipient: Address) => Hex>> => ({
  uniswapV2: (section, amountIn, amountOutMinimum, recipient) =>
    swapRouter02Call.swapExactTokensForTokens([amountIn, amountOutMinimum, section.tokens, recipient]),
  uniswapV3: (section, amountIn, amountOutMinimum, recipient) =>
    section.legs.length === 1
      ? swapRouter02Call.exactInputSingle([
          {
            tokenIn: section.tokens[0],
            tokenOut: section.tokens[1],
            fee: section.legs[0].fee,
            recipient,
            amountIn,
            amountOutMinimum,
            sqrtPriceLimitX96: 0n,
          },
        ])
      : swapRouter02Call.exactInput([{ path: packedV3Path(section), recipient, amountIn, amountOutMinimum }]),
});

/** The call that swaps a whole exact-output route (one section), by its pools' protocol. */
const exactOutputRoute = (
  swapRouter02Call: RouterCalls,
): Partial<Record<ProtocolKind, (section: Section, amountOut: bigint, amountInMaximum: bigint, recipient: Address) => Hex>> => ({
  uniswapV3: (section, amountOut, amountInMaximum, recipient) =>
    section.legs.length === 1
      ? swapRouter02Call.exactOutputSingle([
          {
            tokenIn: section.tokens[0],
            tokenOut: section.tokens[1],
            fee: section.legs[0].fee,
            recipient,
            amountOut,
            amountInMaximum,
            sqrtPriceLimitX96: 0n,
          },
        ])
      : swapRouter02Call.exactOutput([{ path: packedV3Path(section, true), recipient, amountOut, amountInMaximum }]),
});

/**
 * Uniswap SwapRouter02 (swap-router-contracts): every route of the trade in one `multicall(deadline, bytes[])`.
 * - Exact input: a route is cut into sections of consecutive pools of one protocol: v3 sections as
 *   `exactInputSingle` (one pool) or `exactInput` with the packed path, v2 sections as its
 *   `swapExactTokensForTokens(amountIn, amountOutMin, path, to)`. A section that is not a route's last pays the router
 *   (`ADDRESS_THIS`, address(2)) and the next section swaps the router's whole balance of that token (`amountIn` =
 *   `CONTRACT_BALANCE`, 0, which the router pays: V2SwapRouter and V3SwapRouter treat 0 alike). Each route runs to
 *   its end before the next starts, so such a section only ever finds its own route's tokens. One route with an
 *   ERC-20 output pays the recipient directly with the minimum; otherwise every route pays the router, and
 *   `sweepToken(tokenOut, minimum, recipient)` or, for native output, `unwrapWETH9(minimum, recipient)` pays the sum.
 * - Exact output (v3 routes only: src/routing/executors.ts): each route as `exactOutputSingle` or `exactOutput` with
 *   the reversed packed path, for exactly its amountOut and at most its amountInMaximum, paid by the caller. An
 *   ERC-20 output is paid by each swap straight to the recipient; a native output to the router (`ADDRESS_THIS`),
 *   then `unwrapWETH9(amountOut, recipient)`.
 * Native input (`value` = what the transaction may spend, wrapped by the router as the pools take it) ends with
 * `refundETH`.
 */
export const swapRouter02: RouterEncoder = swapRouter02Encoder('SwapRouter02', swapRouter02Abi);

/**
 * The encoder of SwapRouter02 or of a router contract with its functions (same selectors and arguments: PancakeSwap's
 * SmartRouter, src/tx/routers/pancakeSmartRouter.ts); `name` for error messages.
 */
export function swapRouter02Encoder(name: string, abi: typeof swapRouter02Abi): RouterEncoder {
  const call = routerCalls(abi);
  const inputSection = exactInputSection(call);
  const outputRoute = exactOutputRoute(call);
  return {
    batch(routes) {
      return [[...routes]];
    },
    encode(ctx: RouterContext, tx: RouterTransaction): Hex {
      const direct = paysRecipientDirectly(ctx, tx);
      const calls: Hex[] = [];
      tx.routes.forEach((route, r) => {
        const parts = sections(routeSwaps(route));
        if (tx.tradeType === 'exactOut') {
          const encode = parts.length === 1 ? outputRoute[parts[0].kind] : undefined;
          if (!encode) throw new StepBuildError(`${name} executes exact-output routes of v3 pools only`);
          calls.push(encode(parts[0], route.amountOut, tx.amountInMaximums[r], direct ? ctx.recipient : SWAP_ROUTER02_ADDRESS_THIS));
          return;
        }
        parts.forEach((section, i) => {
          const last = i === parts.length - 1;
          const encode = inputSection[section.kind];
          if (!encode) throw new StepBuildError(`${name} cannot swap ${section.kind} pools`);
          const amountIn = i === 0 ? route.amountIn : SWAP_ROUTER02_CONTRACT_BALANCE;
          calls.push(
            encode(
              section,
              amountIn,
              last && direct ? tx.amountOutMinimum : 0n,
              last && direct ? ctx.recipient : SWAP_ROUTER02_ADDRESS_THIS,
            ),
          );
        });
      });
      calls.push(...paymentCalls(ctx, tx));
      return call.multicall([ctx.deadline, calls]);
    },
  };
}
