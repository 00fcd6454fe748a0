import type { Address, Hex } from 'viem';
import type { TradeType } from '../../protocols/PoolProtocol.ts';
import type { ProtocolKind } from '../../protocols/registry.ts';
import type { Leg, Route } from '../../routing/Trade.ts';
import type { SignedPermit } from '../permit2.ts';
import { stepAddress } from '../Step.ts';

/** What every transaction to one router shares: checked, checksummed by buildTradeSteps. */
export interface RouterContext {
  /** The router contract (the step's `to`). */
  readonly router: Address;
  /** The trade's input is the native asset: sent as `value`, wrapped by the router. */
  readonly nativeIn: boolean;
  /** The trade's output is the native asset: the router unwraps it to the recipient. */
  readonly nativeOut: boolean;
  /** The output token as the pools hold it (the wrapped native token for native output). */
  readonly poolTokenOut: Address;
  readonly recipient: Address;
  /** The wallet that sends the transaction (Balancer's Vault takes the input from it: FundManagement.sender). */
  readonly sender: Address;
  /** Unix seconds. */
  readonly deadline: bigint;
  /** UniversalRouter only: the wallet's signed Permit2 PermitSingle, submitted first (PERMIT2_PERMIT). */
  readonly permit2Permit?: SignedPermit;
}

/** One transaction to a router: the routes it executes and the limits it enforces on chain. */
export interface RouterTransaction {
  /** exactIn: each route swaps its whole amountIn; exactOut: each route delivers exactly its amountOut. */
  readonly tradeType: TradeType;
  readonly routes: readonly Route[];
  /** The least total output the recipient may receive (exactOut: the routes' amountOut summed). */
  readonly amountOutMinimum: bigint;
  /** The most input each route may take, parallel to `routes` (exactIn: each route's amountIn). */
  readonly amountInMaximums: readonly bigint[];
}

/** What a transaction may spend at most: its `amount`, and its `value` on native input. */
export function transactionMaximum(tx: Pick<RouterTransaction, 'amountInMaximums'>): bigint {
  return tx.amountInMaximums.reduce((s, x) => s + x, 0n);
}

/** One encoder per router contract (src/tx/routers/). */
export interface RouterEncoder {
  /** How a router's routes become transactions: each route alone, or all of them in one call. */
  batch(routes: readonly Route[]): Route[][];
  /** Calldata of one transaction; its `value` (native input) is transactionMaximum(tx). */
  encode(ctx: RouterContext, tx: RouterTransaction): Hex;
  /** The router pulls its input through Permit2 (the Universal Router), not by the token's own allowance. */
  readonly pullsThroughPermit2?: true;
}

/** A route's swaps as a router sees them: its legs and tokens as the pools hold them (the wrapped token on a native side). */
export interface RouteSwaps {
  readonly legs: readonly Leg[];
  /** legs.length + 1 tokens, checksummed. */
  readonly tokens: readonly Address[];
}

/** The swaps of a route (buildTradeSteps has checked that the legs join up). */
export function routeSwaps(route: Route): RouteSwaps {
  const legs = route.legs;
  const tokens = [legs[0].tokenIn, ...legs.map((l) => l.tokenOut)].map((t, i) => stepAddress(t, `route token ${i}`));
  return { legs, tokens };
}

/** Consecutive legs of one protocol: what one router function swaps in one go. */
export interface Section extends RouteSwaps {
  readonly kind: ProtocolKind;
}

/** A route's swaps cut where the protocol changes (a mixed v2 -> v3 route has two sections). */
export function sections(swaps: RouteSwaps): Section[] {
  const out: Section[] = [];
  let start = 0;
  for (let i = 1; i <= swaps.legs.length; i++) {
    if (i < swaps.legs.length && swaps.legs[i].kind === swaps.legs[start].kind) continue;
    out.push({ kind: swaps.legs[start].kind, legs: swaps.legs.slice(start, i), tokens: swaps.tokens.slice(start, i + 1) });
    start = i;
  }
  return out;
}

/**
 * The v3 packed path `token0, fee0, token1, fee1, …, tokenN` (20-byte addresses, 3-byte fees), as v3-periphery's
 * Path library reads it; `reversed` (exact output): `tokenN, feeN-1, …, token0`, from the output back to the input.
 */
export function packedV3Path(swaps: RouteSwaps, reversed = false): Hex {
  // viem's encodePacked gives the same bytes, with a type dispatch and a checksum check per value: written out here.
  const { tokens, legs } = swaps;
  const n = legs.length;
  if (tokens.length !== n + 1) throw new Error(`packedV3Path: ${n + 1} tokens expected, got ${tokens.length}`);
  let path = `0x${packedAddress(tokens[reversed ? n : 0])}`;
  for (let i = 0; i < n; i++) {
    const fee = legs[reversed ? n - 1 - i : i].fee;
    if (!Number.isInteger(fee) || fee < 0 || fee > 0xffffff) throw new Error(`packedV3Path: fee ${fee} is not a uint24`);
    path += fee.toString(16).padStart(6, '0') + packedAddress(tokens[reversed ? n - 1 - i : i + 1]);
  }
  return path as Hex;
}

/** The 20 bytes of an address as packed hex (lower case, no 0x). */
function packedAddress(address: string): string {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw new Error(`packedV3Path: invalid address ${address}`);
  return address.slice(2).toLowerCase();
}
