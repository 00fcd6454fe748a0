import { type CatalogChain, type CatalogDex, type CatalogToken, NATIVE_TOKEN_ADDRESS } from '../catalog/Catalog.ts';
import { nativeWork, POOL_NATIVE } from './nativePools.ts';
import { routeMinimums } from './slippageLimits.ts';
import { stageCalls } from './stagedRoutes.ts';
import type { Split, Trade } from './Trade.ts';

/**
 * A trade summed up as the API's `route` (SPEC section 2, Route), with two documented extensions: the DEX version and
 * the pool fee in pips. (The route a trade's split takes through pools is routing/Trade.ts's Route.)
 */
export interface RouteSummary {
  /** Slug of the DEX carrying the largest share ('wrap' for a bare wrap or unwrap). */
  dex: string;
  /** Readable summary, e.g. `Uniswap V3`, `LINK → WETH → USDC on Uniswap V3`, `Uniswap V3 70% + SushiSwap V2 30%`. */
  name: string;
  /** LP fees, integer string in tokenIn's smallest units. */
  fees: string;
  logo: string;
  /** Version of that DEX ('' for a wrap). */
  version: string;
  /** Fee in pips of the first pool of the largest split (0 for a wrap). */
  poolFee: number;
}

/** One hop of a path (extension field `paths[].hops[]`); dex 'wrap' for the native asset's wrap or unwrap at an end. */
export interface HopView {
  dex: string;
  version: string;
  pool: string;
  fee: number;
  tokenIn: string;
  tokenOut: string;
  amountIn: string;
  amountOut: string;
}

/**
 * One step of a path executed as consecutive steps (extension field `paths[].stages[]`, Route.stages): the
 * executor that runs its hops, what it spends, what it is expected to deliver, the least it accepts (on chain), and
 * what the wallet keeps of its output: the next stage spends exactly `amountOutMinimum`, so `kept` (expected less
 * minimum) stays with the wallet in that token when the market holds; the last stage pays the recipient, its
 * minimum the quote's amountOutMinimum.
 */
export interface StageView {
  /** The executor's name, e.g. `Balancer V2 Vault`. */
  name: string;
  router: string;
  /** How many of the path's hops (pools) this step swaps, from where the previous one ended. */
  hops: number;
  tokenIn: string;
  tokenOut: string;
  amountIn: string;
  amountOut: string;
  amountOutMinimum: string;
  kept: string;
}

/** One split of a trade (extension field `paths[]`). */
export interface PathView {
  percent: number;
  amountIn: string;
  amountOut: string;
  hops: HopView[];
  /** A path no single router runs: its steps, one per executor (absent for a path of one call). */
  stages?: StageView[];
}

/** What a trade adds to a quote or route quote (README, "Routing"). */
export interface TradeView {
  route: RouteSummary;
  /** The first pool of the largest split (the wrapped token for a bare wrap or unwrap). */
  pairAddress: string;
  paths: PathView[];
  gasEstimate: string;
  gasPriceWei: string;
  /** The network fee in wei and converted at the mid price into tokenIn and tokenOut (null where no pool path prices it). */
  networkFee: { wei: string; inTokenIn: string | null; inTokenOut: string | null };
  priceImpactBps: number;
}

/** Each chain's DEX deployments by slug, then version (built once per chain: a trade looks one up per leg). */
const deploymentsOf = new WeakMap<CatalogChain, Map<string, Map<string, CatalogDex>>>();

/** The catalogue's DEX deployment of a chain by slug and version (the first listed, as `find` would give). */
export function catalogDex(chain: CatalogChain, slug: string, version: string): CatalogDex | undefined {
  let bySlug = deploymentsOf.get(chain);
  if (!bySlug) {
    bySlug = new Map();
    for (const dex of chain.dexes) {
      let byVersion = bySlug.get(dex.slug);
      if (!byVersion) {
        byVersion = new Map();
        bySlug.set(dex.slug, byVersion);
      }
      if (!byVersion.has(dex.version)) byVersion.set(dex.version, dex);
    }
    deploymentsOf.set(chain, bySlug);
  }
  return bySlug.get(slug)?.get(version);
}

/** Catalogue name of a DEX deployment; the slug when the catalogue does not list it. */
function dexName(chain: CatalogChain, slug: string, version: string): string {
  return catalogDex(chain, slug, version)?.name ?? slug;
}

/** DEX names a split goes through, in hop order without repeats, joined by ' + '. */
function splitDexes(chain: CatalogChain, split: Split): string {
  const names: string[] = [];
  for (const leg of split.route.legs) {
    const name = dexName(chain, leg.dex, leg.version);
    if (!names.includes(name)) names.push(name);
  }
  return names.join(' + ');
}

const NATIVE = NATIVE_TOKEN_ADDRESS.toLowerCase();

/** A chain token by lower-case address; a pool's native currency (POOL_NATIVE) is the chain's native asset. */
function chainToken(tokenOf: (address: string) => CatalogToken, address: string): CatalogToken {
  return tokenOf(address === POOL_NATIVE ? NATIVE : address);
}

let lastAmount = -1n;
let lastAmountText = '-1';

/**
 * An amount as decimal text; the same amount as the call before is not written again (a hop's input is the previous
 * hop's output, a path's ends its first input and last output: bigint toString is most of a trade's view).
 */
function amountText(amount: bigint): string {
  if (amount !== lastAmount) {
    lastAmount = amount;
    lastAmountText = amount.toString();
  }
  return lastAmountText;
}

/** The native asset's wrap or unwrap as a hop of its own: the wrapped token as its pool, no fee, amount in = out. */
function wrapHop(
  chain: CatalogChain,
  tokenOf: (address: string) => CatalogToken,
  tokenIn: string,
  tokenOut: string,
  amount: bigint,
): HopView {
  const text = amount.toString();
  return {
    dex: 'wrap',
    version: '',
    pool: chain.wrappedNativeToken,
    fee: 0,
    tokenIn: chainToken(tokenOf, tokenIn).address,
    tokenOut: chainToken(tokenOf, tokenOut).address,
    amountIn: text,
    amountOut: text,
  };
}

/**
 * The API view of a trade: the SPEC's route fields summarised over the splits, the paths with every hop, and the
 * gas figures. The native asset's wrap before the first pool or unwrap after the last is shown as a hop of its own
 * (dex 'wrap', the wrapped token as its pool, no fee), and so is a wrap or unwrap between a native ETH pool and a
 * WETH pool; a bare wrap or unwrap is one such hop. A pool that holds native ETH (v4, currency 0x0) shows it as the
 * chain's native asset. `token` finds a chain token by lower-case address (for symbols and checksummed addresses).
 */
export function describeTrade(
  chain: CatalogChain,
  trade: Trade,
  tokenOf: (address: string) => CatalogToken,
  minimumOut?: bigint,
): TradeView {
  const largest = trade.splits[0];
  let route: RouteSummary;
  let paths: PathView[];
  if (!largest) {
    const wrapped = chainToken(tokenOf, chain.wrappedNativeToken.toLowerCase());
    route = {
      dex: 'wrap',
      name: `${wrapped.symbol} ${trade.nativeIn === 'wrapped' ? 'wrap' : 'unwrap'}`,
      fees: '0',
      logo: wrapped.logo,
      version: '',
      poolFee: 0,
    };
    paths = [
      {
        percent: 100,
        amountIn: trade.amountIn.toString(),
        amountOut: trade.amountOut.toString(),
        hops: [wrapHop(chain, tokenOf, trade.tokenIn, trade.tokenOut, trade.amountIn)],
      },
    ];
  } else {
    const swaps = largest.route.legs;
    // The DEX carrying the largest share: each split's percent spread evenly over its swaps.
    // (A list in first-seen order: a trade goes through a few deployments, compared by slug and version.)
    const shares: { slug: string; version: string; share: number }[] = [];
    for (const split of trade.splits) {
      const legs = split.route.legs;
      for (const leg of legs) {
        const entry = shares.find((e) => e.slug === leg.dex && e.version === leg.version);
        if (entry) entry.share += split.percent / legs.length;
        else shares.push({ slug: leg.dex, version: leg.version, share: split.percent / legs.length });
      }
    }
    // The first in swap order among equal shares.
    let top = { slug: '', version: '', share: Number.NEGATIVE_INFINITY };
    for (const entry of shares) if (entry.share > top.share) top = entry;
    const { slug, version } = top;
    const dex = catalogDex(chain, slug, version);
    let name: string;
    if (trade.splits.length > 1) name = trade.splits.map((s) => `${splitDexes(chain, s)} ${namePercent(s.percent)}`).join(' + ');
    else if (swaps.length === 1) name = splitDexes(chain, largest);
    else
      name = `${[swaps[0].tokenIn, ...swaps.map((l) => l.tokenOut)].map((t) => chainToken(tokenOf, t).symbol).join(' → ')} on ${splitDexes(chain, largest)}`;
    route = { dex: slug, name, fees: trade.fees.toString(), logo: dex?.logo ?? '', version, poolFee: swaps[0].fee };
    // The least output of each route, where one runs as stages (its last stage enforces it): routeMinimums.
    const routeShares =
      minimumOut !== undefined && trade.splits.some((s) => s.route.stages)
        ? routeMinimums(
            minimumOut,
            trade.splits.map((s) => s.route.amountOut),
          )
        : undefined;
    paths = trade.splits.map((s, i) => {
      const legs = s.route.legs;
      // In this order, each amount a hop takes from the one before (and the path's ends) is written once: amountText.
      const amountIn = amountText(s.route.amountIn);
      const hops = legs.map(
        (l): HopView => ({
          dex: l.dex,
          version: l.version,
          pool: l.pool,
          fee: l.fee,
          tokenIn: chainToken(tokenOf, l.tokenIn).address,
          tokenOut: chainToken(tokenOf, l.tokenOut).address,
          amountIn: amountText(l.amountIn),
          amountOut: amountText(l.amountOut),
        }),
      );
      const amountOut = amountText(s.route.amountOut);
      // Wraps and unwraps between pools, from the last so the indexes hold.
      for (let i = legs.length - 1; i > 0; i--)
        if (legs[i - 1].tokenOut !== legs[i].tokenIn)
          hops.splice(i, 0, wrapHop(chain, tokenOf, legs[i - 1].tokenOut, legs[i].tokenIn, legs[i - 1].amountOut));
      const work = nativeWork(legs, trade.nativeIn === 'wrapped', trade.nativeOut === 'wrapped');
      if (work.wrapIn) hops.unshift(wrapHop(chain, tokenOf, trade.tokenIn, legs[0].tokenIn, s.route.amountIn));
      if (work.unwrapOut) hops.push(wrapHop(chain, tokenOf, legs[legs.length - 1].tokenOut, trade.tokenOut, s.route.amountOut));
      const view: PathView = { percent: s.percent, amountIn, amountOut, hops };
      if (s.route.stages) view.stages = stageViews(s, tokenOf, routeShares?.[i]);
      return view;
    });
  }
  return {
    route,
    pairAddress: largest ? largest.route.legs[0].pool : chain.wrappedNativeToken,
    paths,
    gasEstimate: trade.gasEstimate.toString(),
    gasPriceWei: trade.gasPriceWei.toString(),
    networkFee: {
      wei: (trade.gasEstimate * trade.gasPriceWei).toString(),
      inTokenIn: trade.gasCost.tokenIn === null ? null : trade.gasCost.tokenIn.toString(),
      inTokenOut: trade.gasCost.tokenOut === null ? null : trade.gasCost.tokenOut.toString(),
    },
    priceImpactBps: trade.priceImpactBps,
  };
}

/**
 * The stages of a split's route as the API shows them; the last stage's minimum is the route's share of the quote's
 * amountOutMinimum (`routeMinimum`: the whole of it for a trade of one route, routeMinimums; its expected output without it).
 */
function stageViews(split: Split, tokenOf: (address: string) => CatalogToken, routeMinimum: bigint | undefined): StageView[] {
  return stageCalls(split.route).map((c) => {
    const out = c.legs[c.legs.length - 1].amountOut;
    const least = c.last && routeMinimum !== undefined ? routeMinimum : c.amountOutMinimum;
    return {
      name: c.executor.name,
      router: c.executor.address,
      hops: c.legs.length,
      tokenIn: chainToken(tokenOf, c.legs[0].tokenIn).address,
      tokenOut: chainToken(tokenOf, c.legs[c.legs.length - 1].tokenOut).address,
      amountIn: c.legs[0].amountIn.toString(),
      amountOut: out.toString(),
      amountOutMinimum: least.toString(),
      kept: (c.last ? 0n : out - least).toString(),
    };
  });
}

/**
 * A share as the route's name gives it: percent to two decimals, trailing zeros trimmed (under 0.01: "<0.01%"), as
 * `Number(percent.toFixed(2))` writes it. Written from the hundredths it rounds to: toFixed and its parse back cost
 * more than the rest of a route's name. Where percent × 100 is within 1e-6 of a half, the binary value decides the
 * rounding (toFixed's rule, which the product may not keep): toFixed writes those.
 */
export function namePercent(percent: number): string {
  if (percent < 0.01) return '<0.01%';
  const scaled = percent * 100;
  if (!(scaled < 2 ** 52) || Math.abs(scaled - Math.floor(scaled) - 0.5) < 1e-6) return `${Number(percent.toFixed(2))}%`;
  const hundredths = Math.round(scaled);
  const whole = Math.floor(hundredths / 100);
  const cents = hundredths % 100;
  if (cents === 0) return `${whole}%`;
  return cents % 10 === 0 ? `${whole}.${cents / 10}%` : `${whole}.${cents < 10 ? '0' : ''}${cents}%`;
}
