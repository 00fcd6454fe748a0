import { type DeploymentId, deploymentId } from '../catalog/Catalog.ts';
import type { ChainPoolIndex, PoolEntry } from '../graph/ChainPoolIndex.ts';
import { snapshotProtocol } from '../protocols/registry.ts';
import type { HooksOption } from '../protocols/uniswapV4/v4Fees.ts';
import { type BestTradeOptions, bestTrade, type TradeOutcome } from './bestTrade.ts';
import { POOL_NATIVE } from './nativePools.ts';
import type { RoutingLimits } from './RoutingLimits.ts';
import type { TradeRequest } from './searchGas.ts';
import type { Leg, Trade } from './Trade.ts';
import { type TradeEnds, tradeEnds } from './tradeEnds.ts';

/** One trade outcome; `deployment`: the deployment a trade is kept to, '' for one over all of them. */
export interface DeploymentTrade {
  deployment: DeploymentId | '';
  outcome: TradeOutcome;
}

/** What to trade on one chain: the pair, the side that is fixed and its amount. */
export type TradeSubject = Pick<TradeRequest, 'tokenIn' | 'tokenOut' | 'tradeType' | 'amount'>;

/**
 * The best trade through the limits' deployments, or (`perDeployment`, POST /quotes/routes) one best trade per
 * deployment plus the best over all of them when it mixes deployments. A bare wrap or unwrap, through no DEX, is one
 * trade either way.
 */
export function bestTradesByDeployment(
  index: ChainPoolIndex,
  subject: TradeSubject,
  limits: RoutingLimits,
  perDeployment: boolean,
): DeploymentTrade[] {
  // One search (POST /quotes) shares with none: it keeps what it shares with itself (bestTrade's own ladder cache).
  const ends = tradeEnds(index.wrappedNative, subject.tokenIn, subject.tokenOut);
  if (!perDeployment || ends.bareWrap)
    return [{ deployment: '', outcome: bestTradeThrough(index, subject, limits, limits.deployments, {}) }];
  // What the request's searches share: they differ only in the deployments they admit, so a path (or a set of paths)
  // is worth the same to each. One ladder cache: a path the search over all deployments priced at some amounts is not
  // priced again by the search kept to its deployment (same index, side and grid: the same quotes). One curve cache:
  // the searches kept to one deployment steer their splits by the curves the first one built. The single paths' bounds,
  // quotes and scores for the whole amount, and the split sets' float solves: a search kept to one deployment meets
  // mostly paths and sets the search over all of them already weighed (and only those kept to its deployment).
  const caches: BestTradeOptions = { ladders: new Map(), curves: new Map(), singles: new Map(), solves: {} };
  // One pool per trade: the best over all deployments is one of theirs, never a mix, and a refusal of all of them
  // says what each says.
  if (limits.maxHops === 1 && limits.maxSplits === 1)
    return limits.deployments.map((deployment) => ({
      deployment,
      outcome: bestTradeThrough(index, subject, limits, [deployment], caches),
    }));
  // The search over all deployments records what it learns of the paths and sets kept to one; the others read it.
  const all: DeploymentTrade = {
    deployment: '',
    outcome: bestTradeThrough(index, subject, limits, limits.deployments, { ...caches, records: true }),
  };
  // The best trade over all of them, when it goes through more than one deployment, is an entry of its own; when
  // there is none, its refusal says why (e.g. the only paths mix deployments that cannot execute an exact output).
  // Through one deployment, the best trade overall stands for that deployment (no search of its own): it is the trade
  // POST /quotes returns, so the route list ranks exactly that trade (a search kept to one deployment may settle on
  // other shares).
  const own = all.outcome.ok ? soleDeployment(all.outcome.trade) : undefined;
  const each = limits.deployments.map((deployment) => ({
    deployment,
    outcome:
      deployment === own
        ? all.outcome
        : unreachable(index, ends, deployment)
          ? NO_ROUTE
          : bestTradeThrough(index, subject, limits, [deployment], caches),
  }));
  return own === undefined ? [...each, all] : each;
}

const NO_ROUTE: TradeOutcome = { ok: false, code: 'NO_ROUTE' };

/**
 * The one deployment every leg of a trade goes through; undefined when its legs use more than one, or it has none.
 * Legs of the same DEX and version name the same deployment, so its id is built once, not per leg into a set.
 */
export function soleDeployment(trade: Trade): DeploymentId | undefined {
  let first: Leg | undefined;
  let id: DeploymentId | undefined;
  for (let s = 0; s < trade.splits.length; s++) {
    const legs = trade.splits[s].route.legs;
    for (let l = 0; l < legs.length; l++) {
      const leg = legs[l];
      if (first === undefined) {
        first = leg;
        id = deploymentId(leg.dex, leg.version);
      } else if ((leg.dex !== first.dex || leg.version !== first.version) && deploymentId(leg.dex, leg.version) !== id) return undefined;
    }
  }
  return id;
}

/**
 * Whether a deployment has no pool at one end of the trade (at the wrapped native token's node, at native ETH's
 * either): then no path within it joins the ends, and its search would find none (NO_ROUTE) whatever it admits.
 */
function unreachable(index: ChainPoolIndex, ends: TradeEnds, deployment: DeploymentId): boolean {
  return noPoolAt(index, ends.poolTokenIn, deployment) || noPoolAt(index, ends.poolTokenOut, deployment);
}

/**
 * Per index (its pool lists never change: a followed block derives a new index), per token node and deployment:
 * whether the deployment has no pool there. Asked for every deployment of every per-deployment request; the lists'
 * keys (`t:<token>` and the deployment) would otherwise be built and hashed each time. At most NO_POOLS_TOKENS
 * tokens per index (any address may be asked): then it starts again.
 */
const noPools = new WeakMap<ChainPoolIndex, Map<string, Map<DeploymentId, boolean>>>();

const NO_POOLS_TOKENS = 4096;

/** Whether a deployment has no pool at a token's node. */
function noPoolAt(index: ChainPoolIndex, token: string, deployment: DeploymentId): boolean {
  let byToken = noPools.get(index);
  if (!byToken) {
    byToken = new Map();
    noPools.set(index, byToken);
  }
  let byDeployment = byToken.get(token);
  if (!byDeployment) {
    if (byToken.size >= NO_POOLS_TOKENS) byToken.clear();
    byDeployment = new Map();
    byToken.set(token, byDeployment);
  }
  let none = byDeployment.get(deployment);
  if (none === undefined) {
    none =
      index.poolsOf(token, deployment).length === 0 &&
      (token !== index.wrappedNative || index.poolsOf(POOL_NATIVE, deployment).length === 0);
    byDeployment.set(deployment, none);
  }
  return none;
}

/** A deployment list's and hooks option's pool filter, and its name (TradeRequest.allowKey: it names the kept candidate paths). */
interface AllowFilter {
  readonly allow: (e: PoolEntry) => boolean;
  readonly allowKey: string;
}

/**
 * Per index, by hooks option (with its allowed hooks) and deployment list: the filters made so far. Looked up by the
 * request's own strings (one deployment: its id), without building and hashing the filter's name per search; the
 * same filter, hence the same allowKey string, for every search of a list (the pair memo's keys hang from it). At
 * most FILTERS of each.
 */
const filters = new WeakMap<ChainPoolIndex, Map<string, Map<string, AllowFilter>>>();
const FILTERS = 4096;

/** The pool filter of a deployment list and hooks option, made once per index and reused. */
export function allowFilter(
  index: ChainPoolIndex,
  deployments: readonly DeploymentId[],
  hooks: HooksOption,
  allowedHooks: readonly string[],
): AllowFilter {
  let byHooks = filters.get(index);
  if (!byHooks) {
    byHooks = new Map();
    filters.set(index, byHooks);
  }
  const hooksName = allowedHooks.length === 0 ? hooks : `${hooks}:${allowedHooks.join(',')}`;
  let byList = byHooks.get(hooksName);
  if (!byList) {
    if (byHooks.size >= FILTERS) byHooks.clear();
    byList = new Map();
    byHooks.set(hooksName, byList);
  }
  const listName = deployments.length === 1 ? deployments[0] : deployments.join(',');
  let found = byList.get(listName);
  if (!found) {
    const allowed = new Set(deployments);
    const hooksAllowed = new Set(allowedHooks.map((h) => h.toLowerCase()));
    const allow = (e: PoolEntry): boolean => {
      if (!allowed.has(e.deployment)) return false;
      const admits = snapshotProtocol(e.state.version).admits;
      return admits === undefined || admits(e.state, hooks, hooksAllowed);
    };
    found = {
      // One deployment: candidate selection reads its own lists (findRoutes' PoolFilter).
      allow: deployments.length === 1 ? Object.assign(allow, { deployment: deployments[0] }) : allow,
      allowKey: `${listName}|${hooks}:${allowedHooks.join(',')}`,
    };
    if (byList.size >= FILTERS) byList.clear();
    byList.set(listName, found);
  }
  return found;
}

/** The best trade through the given deployments' pools. */
function bestTradeThrough(
  index: ChainPoolIndex,
  subject: TradeSubject,
  limits: RoutingLimits,
  deployments: readonly DeploymentId[],
  caches: BestTradeOptions,
): TradeOutcome {
  const { allow, allowKey } = allowFilter(index, deployments, limits.hooks ?? 'safe', limits.allowedHooks ?? []);
  const { tokenIn, tokenOut, tradeType, amount } = subject;
  const { maxHops, maxSplits, gasPriceWei, handoverSlippageBps, approvalMode } = limits;
  return bestTrade(
    index,
    { tokenIn, tokenOut, tradeType, amount, maxHops, maxSplits, gasPriceWei, handoverSlippageBps, approvalMode, allow, allowKey },
    caches,
  );
}
