import { type CatalogChain, type DeploymentId, deploymentId, swapsV2Pairs } from '../catalog/Catalog.ts';
import type { DexExecutor, TradeType } from '../protocols/PoolProtocol.ts';
import { poolSource, snapshotProtocol } from '../protocols/registry.ts';
import type { Executor, ExecutorKind } from './Trade.ts';

/** An executor of a chain with the DEX deployments whose pools it can swap. */
export interface ChainExecutor extends Executor {
  /** Every DEX deployment whose pools this router swaps (exact input). */
  readonly deployments: ReadonlySet<DeploymentId>;
  /**
   * Those it executes exact-output routes through, paying out exactly the amount asked for (see executorsFor):
   * SwapRouter02 its v3 deployment only, the others all of theirs.
   */
  readonly exactOutDeployments: ReadonlySet<DeploymentId>;
}

const cache = new WeakMap<CatalogChain, readonly ChainExecutor[]>();

/** How steps name the executor a DEX entry's protocol names, from the entry's name. */
const EXECUTOR_NAME: { readonly [R in DexExecutor['router']]: (dexName: string) => string } = {
  UniversalRouter: (name) => `${name.replace(/ V4$/, '')} Universal Router`,
  BalancerVault: (name) => `${name} Vault`,
};

/**
 * A chain's executors in order of preference: SwapRouter02 first (v3 pools and, where the chain names its v2
 * factory, that DEX's v2 pairs, mixed in one call), then PancakeSwap's SmartRouter (the same), then SwapRouter (v3
 * only), then the contracts the DEX entries' protocols name (PoolProtocol.executor): each v4 DEX's UniversalRouter (its
 * v4 pools, with those of the DEX entries whose factories it was deployed with, mixed in one path), then each
 * Balancer v2 DEX's Vault (its own pools only, exact input and output: `swap` / `batchSwap`), then each v2 DEX's
 * Router02. Give it the chain as served (src/graph/servedChain.ts), whose
 * `v3RouterV2FactoryAddress` is the router's own factoryV2() where the catalogue file names none.
 * Exact output through the UniversalRouter: v4 pools only (its V2_SWAP_EXACT_OUT pays out what the first pair's
 * input buys, as SwapRouter02's does, and one exact-output path cannot hand over between its v3 and v4 commands).
 */
export function chainExecutors(chain: CatalogChain): readonly ChainExecutor[] {
  let list = cache.get(chain);
  if (list) return list;
  const out: ChainExecutor[] = [];
  for (const kind of ['SwapRouter02', 'PancakeSmartRouter', 'SwapRouter'] as const) {
    for (const dex of chain.dexes) {
      if (dex.v3RouterKind !== kind || !dex.v3RouterAddress) continue;
      const own = new Set([deploymentId(dex.slug, dex.version)]);
      const deployments = new Set(own);
      if (swapsV2Pairs(kind) && dex.v3RouterV2FactoryAddress) {
        for (const v2 of chain.dexes)
          if (v2.v2FactoryAddress === dex.v3RouterV2FactoryAddress && v2.v2RouterAddress)
            deployments.add(deploymentId(v2.slug, v2.version));
      }
      out.push({ kind, address: dex.v3RouterAddress, name: `${dex.name} router`, deployments, exactOutDeployments: own });
    }
  }
  for (const router of ['UniversalRouter', 'BalancerVault'] as const) {
    for (const dex of chain.dexes) {
      const executor = snapshotProtocol(dex.version).executor?.(dex);
      if (executor?.router !== router) continue;
      const own = new Set([deploymentId(dex.slug, dex.version)]);
      const deployments = new Set(own);
      const also = new Set(executor.alsoSwapsFactories);
      for (const other of also.size > 0 ? chain.dexes : []) {
        const factory = poolSource(other.version).discovery(other)?.factory;
        if (factory !== undefined && also.has(factory)) deployments.add(deploymentId(other.slug, other.version));
      }
      out.push({ kind: router, address: executor.address, name: EXECUTOR_NAME[router](dex.name), deployments, exactOutDeployments: own });
    }
  }
  for (const dex of chain.dexes) {
    const deployments = new Set([deploymentId(dex.slug, dex.version)]);
    if (dex.v2RouterAddress)
      out.push({
        kind: 'UniswapV2Router02',
        address: dex.v2RouterAddress,
        name: `${dex.name} router`,
        deployments,
        exactOutDeployments: deployments,
      });
  }
  list = Object.freeze(out);
  cache.set(chain, list);
  return list;
}

/**
 * The one rule of native ETH pools (src/routing/nativePools.ts): an executor that settles native ETH with a pool
 * from the value sent or pays it out, and wraps or unwraps between two of its swaps inside one call, the Universal
 * Router (WRAP_ETH / UNWRAP_WETH between commands, src/tx/routers/universalRouter.ts). Routes that hold native ETH
 * (v4 pools: only the Universal Router swaps them) or cross between ETH and WETH pools go through it alone; every
 * other executor meets the native asset only by wrapping before the first pool and unwrapping after the last.
 */
export function meetsNativePools(kind: ExecutorKind): boolean {
  return kind === 'UniversalRouter';
}

/** Whether some executor of the chain meets native ETH pools (meetsNativePools): the graph then joins them to the wrapped token. */
export function chainMeetsNativePools(chain: CatalogChain): boolean {
  return chainExecutors(chain).some((e) => meetsNativePools(e.kind));
}

/** What executorFor needs to know of each pool along a route. */
export interface RoutePoolRef {
  readonly dex: string;
  readonly version: string;
}

/**
 * The executors that can swap every pool of a route, the route's own first: a route on one v2 DEX prefers that
 * DEX's Router02, any other the first router of chainExecutors that covers it (each router also takes or pays the
 * native asset at a trade's native ends). Empty when no single contract can execute the route.
 *
 * Exact output (`tradeType` 'exactOut') is narrower, so that the recipient gets exactly the amount asked for: each
 * executor covers only its `exactOutDeployments`, which never mix protocols, so
 * - a route's pools must be of one protocol: a router executes an exact-output path backwards from its output in
 *   one call (v3 `exactOutput`, v2 `swapTokensForExactTokens`), always paid by the caller, so a mixed v2/v3 path
 *   cannot hand a section's input over from the router as exact input does;
 * - v2 routes go through their DEX's UniswapV2Router02 only: it computes every hop's amounts first
 *   (`getAmountsIn`) and asks each pair for exactly them, whereas SwapRouter02's `swapTokensForExactTokens` pays the
 *   first pair `getAmountsIn`'s input and then pays out whatever that input buys (its `_swap` reads balances, for
 *   fee-on-transfer tokens), which is more than the amount asked for whenever one unit of the input is worth more
 *   than one unit of the output.
 *
 * A route that crosses between native ETH and WETH pools (`crossesNative`) needs an executor that meetsNativePools,
 * and an exact input: an exact-output path is one swap command backwards, with no wrap or unwrap inside.
 */
export function executorsFor(
  chain: CatalogChain,
  pools: readonly RoutePoolRef[],
  tradeType: TradeType = 'exactIn',
  crossesNative = false,
): readonly Executor[] {
  if (pools.length === 0) return [];
  if (crossesNative && tradeType === 'exactOut') return [];
  // The answer depends only on the pools' deployments: kept per chain (the search asks it once per candidate path).
  let known = answers.get(chain);
  if (!known) {
    known = new Map();
    answers.set(chain, known);
  }
  let key = `${tradeType}:${crossesNative}`;
  for (const p of pools) key += `|${p.dex}/${p.version}`;
  let found = known.get(key);
  if (!found) {
    found = Object.freeze(ableExecutors(chain, pools, tradeType, crossesNative));
    known.set(key, found);
  }
  return found;
}

/** executorsFor's answers per chain, by trade type, native crossing and the route's deployments in order. */
const answers = new WeakMap<CatalogChain, Map<string, readonly Executor[]>>();

function ableExecutors(chain: CatalogChain, pools: readonly RoutePoolRef[], tradeType: TradeType, crossesNative: boolean): Executor[] {
  const covered = (e: ChainExecutor): ReadonlySet<DeploymentId> => (tradeType === 'exactOut' ? e.exactOutDeployments : e.deployments);
  const able = chainExecutors(chain).filter(
    (e) => (!crossesNative || meetsNativePools(e.kind)) && pools.every((p) => covered(e).has(deploymentId(p.dex, p.version))),
  );
  return [...able.filter((e) => e.kind === 'UniswapV2Router02'), ...able.filter((e) => e.kind !== 'UniswapV2Router02')];
}

/** What routeStages needs to know of each pool along a route: its deployment and the token it pays out (as held). */
export interface StagePoolRef extends RoutePoolRef {
  readonly tokenOut: string;
}

/** The executors of a route executed as consecutive stages (Route.stages): how many legs each stage takes. */
export interface StagePlan {
  readonly legs: number;
  readonly executors: readonly Executor[];
}

/**
 * A route no single executor runs (executorsFor is empty) cut into consecutive stages, each run by one executor:
 * from the first leg on, each stage the longest run of legs some executor covers (executorsFor). Each stage but the
 * last pays its output to the wallet and the next spends it, so the plan is for exact input only: an exact output
 * would have to fix every hand-over amount before the earlier stage ran, and a later stage could not be bound to what
 * an earlier one delivered (refused, NO_EXACT_OUTPUT_ROUTE). Undefined too when some leg has no executor at all, when
 * the route crosses between native ETH and WETH pools, or where a hand-over would be native ETH (a v4 pool's
 * currency 0): the wallet hands over ERC-20 tokens only.
 */
export function routeStages(
  chain: CatalogChain,
  pools: readonly StagePoolRef[],
  tradeType: TradeType,
  crossesNative: boolean,
): StagePlan[] | undefined {
  if (tradeType !== 'exactIn' || crossesNative || pools.length < 2) return undefined;
  const plan: StagePlan[] = [];
  for (let start = 0; start < pools.length; ) {
    let end = pools.length;
    let executors: readonly Executor[] = [];
    for (; end > start; end--) {
      executors = executorsFor(chain, pools.slice(start, end), tradeType);
      if (executors.length > 0) break;
    }
    if (end === start) return undefined;
    if (end < pools.length && BigInt(pools[end - 1].tokenOut) === 0n) return undefined;
    plan.push({ legs: end - start, executors });
    start = end;
  }
  return plan.length > 1 ? plan : undefined;
}
