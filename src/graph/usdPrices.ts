import type { Catalog, CatalogChain, CatalogToken } from '../catalog/Catalog.ts';
import { chainContext } from '../protocols/chainContext.ts';
import type { SnapshotContext } from '../protocols/PoolProtocol.ts';
import { type SnapshotPool, snapshotProtocol } from '../protocols/registry.ts';
import type { PoolGraph } from './PoolGraph.ts';
import { lowerCaseOnce } from './sharedStrings.ts';
import type { Snapshot } from './snapshot.ts';

/** Symbols valued at exactly one US dollar for display figures. */
export const USD_STABLECOINS: ReadonlySet<string> = new Set(['USDC', 'USDT', 'DAI', 'USDC.E', 'USDBC', 'BUSD', 'FDUSD', 'USDT0']);

/**
 * Least USD value a pool must hold of the token it prices from (the side whose price is known) to pass a price on:
 * a pool below it (dust, or a pool made to show a price) prices nothing, so a token reached only through such pools
 * has no USD price.
 */
export const MIN_PRICE_DEPTH_USD = 10_000;

/** A token's USD price per smallest unit, exact: an amount is worth amount × num / den US dollars. */
export interface UsdPrice {
  readonly num: bigint;
  readonly den: bigint;
}

/** A price whose parts both reach 2^448 is scaled down by 2^64 steps (its smaller part keeps over 384 bits). */
const LARGE = 1n << 448n;

/** num/den with both parts scaled down while both are large (exact while either is below 2^448; else within 2^-383). */
function bounded(num: bigint, den: bigint): UsdPrice {
  while (num >= LARGE && den >= LARGE) {
    num >>= 64n;
    den >>= 64n;
  }
  return { num, den };
}

/** USD value of an amount in smallest units, in whole cents rounded down. */
export function usdCents(amount: bigint, price: UsdPrice): bigint {
  return (amount * price.num * 100n) / price.den;
}

/** Formats an integer number of cents as `d.cc`. */
export function formatCents(cents: bigint): string {
  const whole = cents / 100n;
  const frac = (cents % 100n).toString().padStart(2, '0');
  return `${whole}.${frac}`;
}

/** USD value of a smallest-unit amount as a 2-decimal string (cents rounded down), or '' when the token has no price. */
export function usdValue(amount: bigint | undefined, price: UsdPrice | undefined): string {
  return amount === undefined || price === undefined ? '' : formatCents(usdCents(amount, price));
}

/** Each price's num / den as a float (usdFloat's estimate), computed on first use. */
const priceRatios = new WeakMap<UsdPrice, number>();

/** Least relative margin around usdFloat's float estimate (whose error is below 1e-15) for its floor to be taken as exact. */
const ESTIMATE_MARGIN = 1e-12;

/**
 * USD value of an amount as a float (pool ranking only): whole cents (usdCents) / 100, exactly. The cents are estimated
 * in floats first (amount and price as floats: each conversion and operation off by at most 2^-53 relative); when the
 * estimate is below 2^52 and the same whole number of cents at both ends of a margin far wider than its error, that
 * is usdCents' floor, without the bigint product and division (most of building a big chain's index).
 */
export function usdFloat(amount: bigint, price: UsdPrice): number {
  let ratio = priceRatios.get(price);
  if (ratio === undefined) {
    ratio = Number(price.num) / Number(price.den);
    priceRatios.set(price, ratio);
  }
  const estimate = Number(amount) * ratio * 100;
  if (estimate < 2 ** 52) {
    const cents = Math.floor(estimate * (1 - ESTIMATE_MARGIN));
    if (cents === Math.floor(estimate * (1 + ESTIMATE_MARGIN))) return cents / 100;
  }
  return Number(usdCents(amount, price)) / 100;
}

/** num/den as a float (both parts scaled down first when one is beyond a float's range). */
function ratio(num: bigint, den: bigint): number {
  const FLOAT_MAX = 1n << 1000n;
  while (num >= FLOAT_MAX || den >= FLOAT_MAX) {
    num >>= 512n;
    den >>= 512n;
  }
  return den === 0n ? 0 : Number(num) / Number(den);
}

/** Max-heap of tokens by depth (ties: lower address first), entries left stale when a token gets deeper. */
class DepthHeap {
  private readonly items: { token: string; depth: number }[] = [];

  private above(a: { token: string; depth: number }, b: { token: string; depth: number }): boolean {
    return a.depth > b.depth || (a.depth === b.depth && a.token < b.token);
  }

  push(token: string, depth: number): void {
    const items = this.items;
    items.push({ token, depth });
    for (let i = items.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (!this.above(items[i], items[parent])) break;
      [items[i], items[parent]] = [items[parent], items[i]];
      i = parent;
    }
  }

  pop(): { token: string; depth: number } | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last) {
      items[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < items.length && this.above(items[l], items[m])) m = l;
        if (r < items.length && this.above(items[r], items[m])) m = r;
        if (m === i) break;
        [items[i], items[m]] = [items[m], items[i]];
        i = m;
      }
    }
    return top;
  }
}

/**
 * What the price search reads of a pool, parsed once per pool state (followed graphs share unchanged pools); its
 * tokens are the pool's (in lower case: usdPrices).
 */
interface PricingFacts {
  readonly balance0: number;
  readonly balance1: number;
  /** Mid price: token1 units per token0 unit. */
  readonly num: bigint;
  readonly den: bigint;
}

/** Per chain context (chainContext: one per catalogue chain), the pools' facts. */
const factsByContext = new WeakMap<SnapshotContext, WeakMap<SnapshotPool, PricingFacts | null>>();

/**
 * A pool's pricing facts, or null when it prices nothing (inactive as its chain's `context` has it, the one rule
 * quotes apply: PoolProtocol.describe; or no mid price).
 */
function pricingFacts(pool: SnapshotPool, context: SnapshotContext): PricingFacts | null {
  let factsByPool = factsByContext.get(context);
  if (!factsByPool) {
    factsByPool = new WeakMap();
    factsByContext.set(context, factsByPool);
  }
  let facts = factsByPool.get(pool);
  if (facts === undefined) {
    const protocol = snapshotProtocol(pool.version);
    const { num, den } = protocol.snapshotMidPrice(pool);
    facts =
      protocol.describe(pool, context).isActive && num > 0n && den > 0n
        ? {
            balance0: Number(pool.balance0),
            balance1: Number(pool.balance1),
            num,
            den,
          }
        : null;
    factsByPool.set(pool, facts);
  }
  return facts;
}

/**
 * USD prices of a chain's tokens (lower-case address → price per smallest unit), for display figures and pool
 * ranking, never for quotes. Stablecoins (USD_STABLECOINS) are $1. Every other token takes the mid price of its
 * deepest path from a stablecoin: the path whose shallowest pool holds the most USD of the token it prices from
 * (widest path, grown from the stablecoins outwards), the price being the product of the pools' mid prices along it.
 * A pool prices only when it is active (v2 reserves, v3 in-range liquidity; a v4 pool only where quotes price it,
 * with the chain's context: chainContext, its listed hooks) and holds at least MIN_PRICE_DEPTH_USD of
 * the priced side; ties go to the pool with the lower address. A token with no such path has no price.
 */
export function usdPrices(
  chain: CatalogChain,
  pools: readonly SnapshotPool[],
  token: (address: string) => CatalogToken | undefined,
): Map<string, UsdPrice> {
  const prices = new Map<string, UsdPrice>();
  /** Per token: the depth of its best path so far (USD, a float: depths only rank and gate), that path's last pool. */
  const depth = new Map<string, number>();
  const via = new Map<string, string>();
  const heap = new DepthHeap();
  for (const t of chain.tokens) {
    if (!USD_STABLECOINS.has(t.symbol.toUpperCase())) continue;
    const a = t.address.toLowerCase();
    prices.set(a, { num: 1n, den: 10n ** BigInt(t.decimals) });
    depth.set(a, Number.POSITIVE_INFINITY);
    heap.push(a, Number.POSITIVE_INFINITY);
  }
  // The pools that price, in order (parallel arrays, not an object per pool and side: a big chain's would be garbage
  // the size of its index), and per token its edges: k for the k-th such pool when the token is its token0, ~k when token1.
  const edgePools: SnapshotPool[] = [];
  const edgeFacts: PricingFacts[] = [];
  const edgeTokens0: string[] = [];
  const edgeTokens1: string[] = [];
  const edges = new Map<string, number[]>();
  const addEdge = (from: string, edge: number): void => {
    const list = edges.get(from);
    if (list) list.push(edge);
    else edges.set(from, [edge]);
  };
  const context = chainContext(chain);
  // Each token address as written, in lower case once (addresses repeat across pools).
  const lowerCase = new Map<string, string>();
  for (const pool of pools) {
    const facts = pricingFacts(pool, context);
    if (!facts) continue;
    const token0 = lowerCaseOnce(lowerCase, pool.token0);
    const token1 = lowerCaseOnce(lowerCase, pool.token1);
    if (!token(token0) || !token(token1)) continue;
    const k = edgePools.length;
    edgePools.push(pool);
    edgeFacts.push(facts);
    edgeTokens0.push(token0);
    edgeTokens1.push(token1);
    addEdge(token0, k);
    addEdge(token1, ~k);
  }
  const done = new Set<string>();
  for (let next = heap.pop(); next; next = heap.pop()) {
    const from = next.token;
    if (done.has(from) || next.depth !== depth.get(from)) continue;
    done.add(from);
    const price = prices.get(from)!;
    const unitUsd = ratio(price.num, price.den);
    for (const edge of edges.get(from) ?? []) {
      const fromToken0 = edge >= 0;
      const k = fromToken0 ? edge : ~edge;
      const facts = edgeFacts[k];
      /** The token at the other end. */
      const other = fromToken0 ? edgeTokens1[k] : edgeTokens0[k];
      if (done.has(other) || depth.get(other) === Number.POSITIVE_INFINITY) continue;
      // This token's balance in the pool (a float: depths only rank and gate).
      const held = (fromToken0 ? facts.balance0 : facts.balance1) * unitUsd;
      if (!(held >= MIN_PRICE_DEPTH_USD)) continue;
      const d = Math.min(held, next.depth);
      const known = depth.get(other);
      if (known !== undefined && (d < known || (d === known && edgePools[k].address.toLowerCase() > via.get(other)!))) continue;
      depth.set(other, d);
      via.set(other, edgePools[k].address.toLowerCase());
      // mid = num/den token1 units per token0 unit: one unit of the other token is worth den/num units of token0, or
      // num/den units of token1.
      prices.set(
        other,
        fromToken0 ? bounded(price.num * facts.den, price.den * facts.num) : bounded(price.num * facts.num, price.den * facts.den),
      );
      heap.push(other, d);
    }
  }
  return prices;
}

const pricesByGraph = new WeakMap<PoolGraph, Map<number, ReadonlyMap<string, UsdPrice>>>();

/**
 * The USD prices of a chain's tokens in a pool graph (usdPrices over its pools), computed on first use and kept with
 * the graph: a followed block makes a new graph, whose prices are computed again only when something asks for them.
 */
export function chainUsdPrices(graph: PoolGraph, catalog: Catalog, chainId: number): ReadonlyMap<string, UsdPrice> {
  let perChain = pricesByGraph.get(graph);
  if (!perChain) {
    perChain = new Map();
    pricesByGraph.set(graph, perChain);
  }
  let prices = perChain.get(chainId);
  if (!prices) {
    const chain = catalog.chain(chainId);
    prices = chain ? usdPrices(chain, graph.pools(chainId), (a) => catalog.token(chainId, a)) : new Map();
    perChain.set(chainId, prices);
  }
  return prices;
}

/**
 * Gives a graph's chain the USD prices computed elsewhere for the very same pools (workerHandover.ts: the API thread's,
 * for a snapshot a pricing worker read from the same file version, with the same catalogue), so chainUsdPrices does
 * not compute them again. Prices the graph already has are kept.
 */
export function provideUsdPrices(graph: PoolGraph, chainId: number, prices: ReadonlyMap<string, UsdPrice>): void {
  let perChain = pricesByGraph.get(graph);
  if (!perChain) {
    perChain = new Map();
    pricesByGraph.set(graph, perChain);
  }
  if (!perChain.has(chainId)) perChain.set(chainId, prices);
}

const suppliesBySnapshot = new WeakMap<object, ReadonlyMap<string, bigint>>();
const NO_SUPPLIES: ReadonlyMap<string, bigint> = new Map();

/** A snapshot's token supplies (`totalSupplies`) by lower-case address; none when it has none. */
export function tokenSupplies(snapshot: Pick<Snapshot, 'totalSupplies'> | undefined): ReadonlyMap<string, bigint> {
  const recorded = snapshot?.totalSupplies;
  if (!recorded) return NO_SUPPLIES;
  let supplies = suppliesBySnapshot.get(recorded);
  if (!supplies) {
    supplies = new Map(Object.entries(recorded).map(([address, supply]) => [address.toLowerCase(), BigInt(supply)]));
    suppliesBySnapshot.set(recorded, supplies);
  }
  return supplies;
}
