import { type Address, type Hex, zeroAddress } from 'viem';
import { balancerVaultAbi } from '../abis.ts';
import { encodeCall } from '../encodeCall.ts';
import { StepBuildError } from '../StepBuildError.ts';
import { type RouterContext, type RouterEncoder, type RouterTransaction, routeSwaps } from './RouterEncoder.ts';

/** Calldata encoders of the Balancer v2 Vault functions used here. */
const balancerVaultCall = {
  swap: encodeCall(balancerVaultAbi, 'swap'),
  batchSwap: encodeCall(balancerVaultAbi, 'batchSwap'),
};

/** IVault.SwapKind. */
const GIVEN_IN = 0;
const GIVEN_OUT = 1;

/** A Balancer leg's `pool`: the Vault's poolId, 32 bytes in lower-case hex. */
const POOL_ID = /^0x[0-9a-f]{64}$/;

function poolIdOf(pool: string, field: string): Hex {
  if (!POOL_ID.test(pool))
    throw new StepBuildError(`${field}: a Balancer leg's pool must be its poolId (0x + 64 lower-case hex), got ${pool}`);
  return pool as Hex;
}

/** One BatchSwapStep as the Vault reads it. */
interface BatchSwapStep {
  readonly poolId: Hex;
  readonly assetInIndex: bigint;
  readonly assetOutIndex: bigint;
  readonly amount: bigint;
  readonly userData: Hex;
}

/**
 * Balancer v2's Vault, the executor of Balancer pools (catalogue DEX `version` "balancerV2", `balancerVaultAddress`):
 * the wallet calls it directly, approving the Vault for the input token as it would any router, and the Vault pays
 * the recipient. FundManagement is `{sender: wallet, fromInternalBalance: false, recipient, toInternalBalance: false}`
 * (the Vault requires `sender` to be the caller), so nothing is taken from or left in the wallet's internal balance.
 * Legs name their pool by poolId (Leg.pool); `userData` is empty (no pool kind here reads it on a swap).
 * - One route of one pool: `swap(SingleSwap{poolId, kind, assetIn, assetOut, amount, userData}, funds, limit,
 *   deadline)`, exact input GIVEN_IN with the route's amountIn and `limit` the transaction's minimum output, exact
 *   output GIVEN_OUT with its amountOut and `limit` its amountInMaximum.
 * - Otherwise (several pools, or several routes): one `batchSwap(kind, steps, assets, funds, limits, deadline)`. The
 *   assets are every token of the routes, each once, in order of appearance; each route's steps come in the order
 *   the Vault chains them: exact input from the first pool on, the first step with the route's amountIn and the next
 *   ones with amount 0 (the previous step's output); exact output from the last pool back, the first with the route's
 *   amountOut and the next ones with 0 (the previous step's input). `limits` per asset, as the Vault's deltas count
 *   (positive: the Vault receives): the input token the sum of the routes' amountInMaximums (exact input: their
 *   amountIn), the output token minus the least output (exact output: minus the amountOut sum, delivered exactly),
 *   0 for the tokens in between (each route's hops net them to zero).
 * All routes of a trade through one Vault go in that one call (RouterEncoder.batch): one transfer in and one out
 * whatever the number of routes, and one limit over the whole, as the v3 routers' multicall.
 * Native ETH: the asset is the zero address (where the routes hold the wrapped token); the Vault wraps `value` with
 * its WETH (and sends back to the caller what a swap did not use), or unwraps the output to the recipient.
 */
export const balancerVault: RouterEncoder = {
  batch(routes) {
    return [[...routes]];
  },
  encode(ctx: RouterContext, tx: RouterTransaction): Hex {
    const exactOut = tx.tradeType === 'exactOut';
    const swaps = tx.routes.map(routeSwaps);
    // Routes run between the tokens the pools hold; a native end is asset 0 for the Vault.
    const assetOf = (token: Address, first: boolean, last: boolean): Address =>
      (first && ctx.nativeIn) || (last && ctx.nativeOut) ? zeroAddress : token;
    const funds = { sender: ctx.sender, fromInternalBalance: false, recipient: ctx.recipient, toInternalBalance: false };
    const maximum = tx.amountInMaximums.reduce((s, x) => s + x, 0n);
    if (swaps.length === 1 && swaps[0].legs.length === 1) {
      const [route, swap] = [tx.routes[0], swaps[0]];
      const single = {
        poolId: poolIdOf(swap.legs[0].pool, 'route.legs[0].pool'),
        kind: exactOut ? GIVEN_OUT : GIVEN_IN,
        assetIn: assetOf(swap.tokens[0], true, false),
        assetOut: assetOf(swap.tokens[1], false, true),
        amount: exactOut ? route.amountOut : route.amountIn,
        userData: '0x' as Hex,
      };
      return balancerVaultCall.swap([single, funds, exactOut ? maximum : tx.amountOutMinimum, ctx.deadline]);
    }
    const assets: Address[] = [];
    const indexOf = (asset: Address): bigint => {
      let i = assets.indexOf(asset);
      if (i < 0) i = assets.push(asset) - 1;
      return BigInt(i);
    };
    const steps: BatchSwapStep[] = [];
    swaps.forEach((swap, r) => {
      const n = swap.legs.length;
      const indices = swap.tokens.map((token, i) => indexOf(assetOf(token, i === 0, i === n)));
      const hops = swap.legs.map((leg, i): BatchSwapStep => {
        const poolId = poolIdOf(leg.pool, `routes[${r}].legs[${i}].pool`);
        return { poolId, assetInIndex: indices[i], assetOutIndex: indices[i + 1], amount: 0n, userData: '0x' };
      });
      if (exactOut) hops.reverse();
      hops[0] = { ...hops[0], amount: exactOut ? tx.routes[r].amountOut : tx.routes[r].amountIn };
      steps.push(...hops);
    });
    const first = swaps[0].tokens[0];
    const last = swaps[0].tokens[swaps[0].tokens.length - 1];
    const limits = assets.map(() => 0n);
    limits[Number(indexOf(assetOf(first, true, false)))] = maximum;
    limits[Number(indexOf(assetOf(last, false, true)))] = -tx.amountOutMinimum;
    return balancerVaultCall.batchSwap([exactOut ? GIVEN_OUT : GIVEN_IN, steps, assets, funds, limits, ctx.deadline]);
  },
};
