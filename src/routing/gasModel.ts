import type { TradeType } from '../protocols/PoolProtocol.ts';
import { protocolGas, protocolGasUnits } from '../protocols/registry.ts';
import { addNativeWork, type NativeWork, noNativeWork } from './nativePools.ts';
import type { ExecutorKind, Leg } from './Trade.ts';

/**
 * Gas units of the steps a trade needs, by the parts that make them up (the approach of Uniswap's
 * smart-order-router gas models: a base per call, a cost per hop by protocol, a cost per initialized tick crossed).
 * The per-hop and per-tick figures are each protocol's (PoolProtocol.gas, read through the registry); the figures
 * of calls, approvals, native handling and bridges are here.
 *
 * Each storage slot of a pool the swap writes from zero costs the protocol's coldSlot more (Leg.coldSlots: the
 * pool state knows which, src/protocols/uniswapV3/coldSlots.ts); the other figures are those of slots that already
 * hold a value. Calibrated on the devnet against the gasUsed of executed trades (test/tx/buildTradeSteps.devnet.test.ts
 * prints the table; test/fixtures/gas/devnetGasUsed.json), every shape run on never-traded and on traded pools: a
 * minimax fit with the cold slot at the EVM's 17,100, every case within ±5% (docs/routing.md#gas has the table).
 * Each call's base includes paying a recipient that holds none of the output yet (~17,000 more than one that does:
 * not known to the model, so charged, the safe side for gasLimit).
 */
export const GAS = {
  /** A transaction's intrinsic cost, calldata, the router's entry and paying the recipient, per executor call. */
  call: {
    UniswapV2Router02: 45_000n,
    SwapRouter: 48_300n,
    SwapRouter02: 51_900n,
    // SwapRouter02's figure (its fork, same entry and payments); no devnet deployment to calibrate on.
    PancakeSmartRouter: 51_900n,
    // Beside the v3 routers' call: the PoolManager's unlock and its callback, the settle (the pull through Permit2)
    // and the take; fitted with the v4 figures (src/protocols/uniswapV4/uniswapV4.ts) on the Universal Router trades
    // executed on the devnet (test/tx/universalRouter.devnet.test.ts and universalRouterNative.devnet.test.ts print
    // them and hold each swap step within ±4% never traded, ±5% traded; test/fixtures/gas/devnetUniversalRouter*GasUsed.json).
    UniversalRouter: 91_000n,
    // Balancer v2's Vault called directly (swap / batchSwap): devnet gasUsed, src/protocols/balancer/balancerGas.ts.
    BalancerVault: 71_400n,
  } satisfies Record<ExecutorKind, bigint>,
  /** An ERC-20 approve step (a fresh allowance of the router). */
  approve: 46_000n,
  /** A `Permit2.approve(token, UniversalRouter, amount, expiration)` step (a fresh Permit2 allowance). */
  permit2Approve: 48_000n,
  /**
   * A signed PermitSingle submitted in the swap itself (the Universal Router's PERMIT2_PERMIT command): by difference,
   * the swap's gasUsed in approvalMode "permit2" less the same trade's swap in "approve" on the same devnet state, six
   * shapes (v4 one and two pools, v3 -> v4, native out, both crossings): 31,402..31,486
   * (test/fixtures/gas/devnetUniversalRouter*GasUsed.json, `permit: true` against its twin).
   */
  permit2Permit: 31_400n,
  /** A router wrapping native input or unwrapping native output. */
  wrapIn: 6_100n,
  unwrapOut: 24_300n,
  /**
   * The Universal Router's native ends beside the figures above, fitted with its call figure (which counts one
   * Permit2 pull of an ERC-20 input and one ERC-20 payment of the output). `wrapIn`: its WRAP_ETH (the WETH deposit,
   * ~23,800) replaces the Permit2 pull (~24,000), so nothing more; `unwrapOut`: its unwrap takes the WETH to the
   * router first, then pays the recipient from it. `poolIn` (negative): a native ETH pool settled from the value sent
   * costs less than the Permit2 pull it replaces, by difference the mean residual of the four value-settled cases
   * without it (one pool exact in and out, two pools, a split beside a wrapped route: -14,276..-20,691 against
   * the model without it; test/fixtures/gas/devnetUniversalRouterNativeGasUsed.json). `poolOut`: a native ETH pool
   * paying the recipient ether (a call with value to an address that held none) instead of a token, by difference
   * the mean residual of the five native-out cases without it (one and two pools, exact in and out, permit2:
   * 4,010..8,466).
   */
  universalRouterNative: { wrapIn: 0n, unwrapOut: 3_400n, poolIn: -14_300n, poolOut: 6_000n },
  /**
   * The Universal Router wrapping between two pools of a route (ETH out of a native v4 pool into a WETH pool:
   * WRAP_ETH of its balance) or unwrapping (UNWRAP_WETH to itself before a native pool settles from it): by
   * difference, the mean residual of the devnet's crossing trades against the model without the figure, each
   * direction through a v3 pool (approve and permit2 modes) and through a v2 pair (wrap 10,700..16,800; unwrap
   * 8,300..14,800; test/fixtures/gas/devnetUniversalRouterNativeGasUsed.json).
   */
  universalRouterCross: { wrap: 12_700n, unwrap: 10_500n },
  /** Several routes in one call ending at the router (sweep/unwrap of the sum). */
  sweep: 6_000n,
  /** Exact output, beside the figures above (calibrated on the same devnet cases). */
  exactOut: {
    /**
     * Native input: the unused part of the value goes back to the wallet in the same transaction (v3 routers'
     * `refundETH`, UniswapV2Router02's `swapETHForExactTokens`), a native transfer.
     */
    refund: 7_200n,
    /**
     * ERC-20 input, per transaction: the pull leaves the allowance (amountInMaximum - amountIn) and the wallet's
     * balance non-zero, so it earns none of the storage refunds of an exact-input pull that empties both.
     */
    erc20Pull: 6_200n,
  },
  /** WETH9 itself (a bare wrap or unwrap): its call, then `deposit()` (a wrap) or `withdraw(amount)` (an unwrap). */
  weth9: { call: 21_000n, deposit: 24_000n, withdraw: 9_500n },
  /** Handing a wrap's result to another recipient: a plain native transfer, a wrapped-token transfer. */
  send: { native: 21_000n, erc20: 46_500n },
  /**
   * An Across SpokePool `depositNow` transaction, ERC-20 or native input: the devnet's gasUsed (ERC-20 92,890-97,714,
   * native 95,388: wrapping the value into WETH costs what the ERC-20 pull does; test/fixtures/gas/devnetAcrossGasUsed.json).
   */
  acrossDeposit: { erc20: 95_300n, native: 95_400n },
} as const;

/** Gas of a bare wrap (WETH9 `deposit()`, `wrap` true) or unwrap (`withdraw`). */
export function wrapGas(wrap: boolean): bigint {
  return GAS.weth9.call + (wrap ? GAS.weth9.deposit : GAS.weth9.withdraw);
}

/**
 * Gas of one route's swaps inside its executor call: each leg's protocol figures for its hop, ticks crossed and
 * storage slots written from zero (Leg.coldSlots), its oracle write when it moves the tick (Leg.movesTick), less the
 * exact-output saving on each hop after the first of its protocol (native ends are priced by the call).
 */
export function routeGas(legs: readonly Leg[], tradeType: TradeType = 'exactIn'): bigint {
  // Summed as numbers (integers far below 2^53, so exact) and made a BigInt once: every priced path is scored with
  // this, and each BigInt product or sum is a heap allocation.
  let gas = 0;
  for (let i = 0; i < legs.length; i++) {
    const leg = legs[i];
    // The figures as numbers, converted once per kind (not four BigInt-to-number conversions per leg).
    const figures = protocolGasUnits(leg.kind);
    gas += figures.hop + leg.ticksCrossed * figures.tick + leg.coldSlots * figures.coldSlot;
    if (leg.movesTick) gas += figures.tickMove;
    if (tradeType === 'exactOut') {
      let first = 0;
      while (legs[first].kind !== leg.kind) first++;
      if (first < i) gas -= figures.exactOutNextHop;
    }
  }
  if (!Number.isSafeInteger(gas)) throw new Error(`routeGas: ${gas} gas is not an exact integer`);
  return BigInt(gas);
}

/**
 * Wraps and unwraps between the pools of a call's routes, and native ETH pools at a native end (nativePools.nativeWork:
 * settled from the value sent, `poolIn`; paying ether out, `poolOut`), none by default.
 */
export interface Crossings {
  readonly wraps: number;
  readonly unwraps: number;
  readonly poolIn?: boolean;
  readonly poolOut?: boolean;
}

const NO_CROSSINGS: Crossings = { wraps: 0, unwraps: 0 };

/**
 * A floor of routeGas for a route through pools of these protocols, known before pricing: each hop's protocol figure,
 * less its exact-output saving on every hop (routeGas takes it only after the first hop of each protocol), nothing
 * for ticks, cold slots or tick moves (pricing only adds those).
 */
export function leastRouteGas(kinds: readonly string[], tradeType: TradeType = 'exactIn'): bigint {
  let gas = 0n;
  for (const kind of kinds) {
    const figures = protocolGas(kind);
    gas += figures.hop - (tradeType === 'exactOut' ? figures.exactOutNextHop : 0n);
  }
  return gas;
}

/**
 * Gas of one executor call carrying `routes` routes, apart from their swaps: the call itself, native handling (a
 * wrap of native input before a WETH pool, an unwrap of native output after one, a wrap or unwrap between pools;
 * nothing where a native ETH pool takes or pays the native asset itself), the sweep of several routes (exact input:
 * they all end at the router; exact output: only when the output is native, otherwise each route pays the recipient
 * its exact share itself), the refund of unused native input sent as value (exact output).
 */
function callOverhead(
  kind: ExecutorKind,
  routes: number,
  wrapIn: boolean,
  unwrapOut: boolean,
  valueIn: boolean,
  tradeType: TradeType,
  crossings: Crossings,
): bigint {
  const exactOut = tradeType === 'exactOut';
  const pull = exactOut ? (valueIn ? GAS.exactOut.refund : GAS.exactOut.erc20Pull) : 0n;
  let native = (wrapIn ? GAS.wrapIn : 0n) + (unwrapOut ? GAS.unwrapOut : 0n);
  if (kind === 'UniversalRouter') {
    const ur = GAS.universalRouterNative;
    native += (wrapIn ? ur.wrapIn : 0n) + (unwrapOut ? ur.unwrapOut : 0n);
    native += (crossings.poolIn ? ur.poolIn : 0n) + (crossings.poolOut ? ur.poolOut : 0n);
  }
  native += BigInt(crossings.wraps) * GAS.universalRouterCross.wrap + BigInt(crossings.unwraps) * GAS.universalRouterCross.unwrap;
  const sweep = routes > 1 && (!exactOut || unwrapOut) ? GAS.sweep : 0n;
  return GAS.call[kind] + native + pull + sweep;
}

/**
 * Gas of the steps of one executor carrying `routes` routes: its approval (two approve steps for an input token
 * flagged `approvalReset`: the reset to 0 first, src/tx/approveStep.ts; the Universal Router's Permit2 approval
 * besides), its call(s), native handling, the sweep of several routes. `wrapIn` / `unwrapOut`: the executor wraps
 * the native input before a WETH pool / unwraps the native output after one (nativeWork); an input that is not
 * `erc20In` is native, sent as value; `crossings`: its routes' wraps and unwraps between pools. `permit` (approvalMode
 * "permit2"): a Universal Router's Permit2 allowance is the signed permit its swap carries (`permit2Permit`, as
 * transactionGas charges it), not a `Permit2.approve` step; the steps src/tx/buildTradeSteps.ts builds either way.
 */
export function callGas(
  kind: ExecutorKind,
  routes: number,
  wrapIn: boolean,
  unwrapOut: boolean,
  erc20In: boolean,
  tradeType: TradeType = 'exactIn',
  approvalReset = false,
  crossings: Crossings = NO_CROSSINGS,
  permit = false,
): bigint {
  return callGasFigure(kind, routes, wrapIn, unwrapOut, erc20In, tradeType, approvalReset, crossings, permit).gas;
}

/**
 * A callGas figure, as a BigInt and as a number (an integer far below 2^53): the split search's fee estimates sum the
 * numbers, without a conversion each.
 */
export interface CallGasFigure {
  readonly gas: bigint;
  readonly units: number;
}

/** callGas's figure, from CALL_GAS where its arguments fit the memo's key. */
export function callGasFigure(
  kind: ExecutorKind,
  routes: number,
  wrapIn: boolean,
  unwrapOut: boolean,
  erc20In: boolean,
  tradeType: TradeType,
  approvalReset: boolean,
  crossings: Crossings,
  permit: boolean,
): CallGasFigure {
  // The split search weighs this for every set it solves, with few distinct arguments: each figure is summed once
  // (a dozen BigInt additions, each a heap allocation) and then read from CALL_GAS.
  const kindAt = EXECUTOR_KINDS.indexOf(kind);
  const { wraps, unwraps } = crossings;
  if (kindAt < 0 || routes > 255 || wraps > 255 || unwraps > 255) {
    const gas = computeCallGas(kind, routes, wrapIn, unwrapOut, erc20In, tradeType, approvalReset, crossings, permit);
    return { gas, units: Number(gas) };
  }
  const flags =
    (wrapIn ? 1 : 0) |
    (unwrapOut ? 2 : 0) |
    (erc20In ? 4 : 0) |
    (tradeType === 'exactOut' ? 8 : 0) |
    (approvalReset ? 16 : 0) |
    (permit ? 32 : 0) |
    (crossings.poolIn ? 64 : 0) |
    (crossings.poolOut ? 128 : 0);
  const key = ((kindAt * 256 + routes) * 256 + wraps) * 65_536 + unwraps * 256 + flags;
  let figure = CALL_GAS.get(key);
  if (figure === undefined) {
    const gas = computeCallGas(kind, routes, wrapIn, unwrapOut, erc20In, tradeType, approvalReset, crossings, permit);
    figure = { gas, units: Number(gas) };
    CALL_GAS.set(key, figure);
  }
  return figure;
}

/** The executor kinds callGas keys its memo by (GAS.call's). */
const EXECUTOR_KINDS = Object.keys(GAS.call) as ExecutorKind[];
/** callGas's figures by its arguments (a number made of them): a few hundred at most. */
const CALL_GAS = new Map<number, CallGasFigure>();

/** callGas, summed. */
function computeCallGas(
  kind: ExecutorKind,
  routes: number,
  wrapIn: boolean,
  unwrapOut: boolean,
  erc20In: boolean,
  tradeType: TradeType = 'exactIn',
  approvalReset = false,
  crossings: Crossings = NO_CROSSINGS,
  permit = false,
): bigint {
  // The Universal Router pulls through Permit2: the token's approval of Permit2, then Permit2's of the router (a
  // step, or the permit in the swap).
  const permit2 = permit ? GAS.permit2Permit : GAS.permit2Approve;
  const approve = erc20In ? (approvalReset ? 2n : 1n) * GAS.approve + (kind === 'UniversalRouter' ? permit2 : 0n) : 0n;
  // UniswapV2Router02 executes one route per transaction (one approval covers them all).
  if (kind === 'UniswapV2Router02')
    return approve + BigInt(routes) * callOverhead(kind, 1, wrapIn, unwrapOut, !erc20In, tradeType, crossings);
  return approve + callOverhead(kind, routes, wrapIn, unwrapOut, !erc20In, tradeType, crossings);
}

/** The native work of one executor call's routes together: any wrap or unwrap at an end, every crossing between pools. */
export function callNativeWork(routes: readonly (readonly Leg[])[], nativeIn: boolean, nativeOut: boolean): NativeWork {
  const sum = noNativeWork();
  for (const legs of routes) addNativeWork(sum, legs, nativeIn, nativeOut);
  return sum;
}

/**
 * Gas of one transaction to an executor swapping these routes (given by their legs) of a trade whose input or output
 * is native (`nativeIn`, `nativeOut`), its approval aside: the parts callGas adds up for a trade, per transaction
 * (src/tx/buildTradeSteps.ts sets each step's gasLimit from it); the native work from the legs (callNativeWork);
 * `permit`: the swap carries a signed PermitSingle (the Universal Router's PERMIT2_PERMIT).
 */
export function transactionGas(
  kind: ExecutorKind,
  routes: readonly (readonly Leg[])[],
  nativeIn: boolean,
  nativeOut: boolean,
  tradeType: TradeType = 'exactIn',
  permit = false,
): bigint {
  const work = callNativeWork(routes, nativeIn, nativeOut);
  return routes.reduce(
    (gas, legs) => gas + routeGas(legs, tradeType),
    (permit ? GAS.permit2Permit : 0n) + callOverhead(kind, routes.length, work.wrapIn, work.unwrapOut, nativeIn, tradeType, work),
  );
}

/**
 * The gas limit a step is sent with: its estimate plus a quarter, plus 50,000. The quarter covers the model's
 * error (within ±5% of gasUsed on the devnet cases) and a market that moved a few ticks before the step is mined;
 * the 50,000 covers per-transaction effects the model leaves out (a recipient's first balance of a token, a v3
 * pool's oracle write in a new block), as NOTES-devnet's padding of eth_estimateGas does. Unused gas is not paid.
 */
export function gasLimit(estimate: bigint): bigint {
  return (estimate * 5n + 3n) / 4n + 50_000n;
}
