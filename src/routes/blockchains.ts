import Router from '@koa/router';
import type { Catalog, CatalogChain, CatalogDex } from '../catalog/Catalog.ts';
import { ValidationError } from '../errors/BaseError.ts';
import { describePool, type PoolView } from '../graph/describePool.ts';
import type { PoolGraph } from '../graph/PoolGraph.ts';
import { usdPrices } from '../graph/usdPrices.ts';
import { type PrecomputedEnvelope, precomputeData, precomputeDataJson, sendData, sendPrecomputed } from '../http/envelope.ts';
import { parseChainIdQuery, queryValue } from '../http/query.ts';

/** The DEX fields the API returns (SPEC section 2, DEX, plus chainId and the pricing data). */
function dexView(dex: CatalogDex) {
  const {
    chainId,
    name,
    slug,
    version,
    v2FactoryAddress,
    v2RouterAddress,
    v3FactoryAddress,
    v3RouterAddress,
    v3QuoterAddress,
    universalRouterAddress,
    permit2Address,
    settlementAddress,
    feeBps,
    feeTiers,
  } = dex;
  return {
    chainId,
    name,
    slug,
    version,
    v2FactoryAddress,
    v2RouterAddress,
    v3FactoryAddress,
    v3RouterAddress,
    v3QuoterAddress,
    universalRouterAddress,
    permit2Address,
    settlementAddress,
    feeBps,
    feeTiers,
  };
}

/**
 * A chain's JSON as the API returns it (SPEC section 2, Chain: `rpcUrl` always empty, tokens embedded, no DEXes, plus
 * the pool-state extension), split around the pool-state fields: `head` up to blockChainLogo, `tokens` the token list.
 * Serialized once: with every token of the token lists the chains are hundreds of kilobytes.
 */
interface ChainJson {
  readonly head: string;
  readonly tokens: string;
}

function chainJson(chain: CatalogChain): ChainJson {
  const { name, slug, chainId, symbol, nativeToken, ecosystem, blockExplorer, blockChainLogo, tokens } = chain;
  const head = JSON.stringify({ name, slug, chainId, symbol, nativeToken, ecosystem, blockExplorer, rpcUrl: '', blockChainLogo });
  return { head: head.slice(0, -1), tokens: JSON.stringify(tokens) };
}

/** The block of a chain's pool state being served, or null without one (no snapshot loaded). */
function snapshotBlock(graph: PoolGraph, chainId: number): number | null {
  return graph.snapshot(chainId)?.blockNumber ?? null;
}

/** One chain's JSON with its pool state: `hasPoolState` and `snapshotBlock` (null without pool state). */
function withPoolState(json: ChainJson, block: number | null): string {
  return `${json.head},"hasPoolState":${block !== null},"snapshotBlock":${block ?? 'null'},"tokens":${json.tokens}}`;
}

const CHAINS_MESSAGE = 'blockchains fetched successfully';
const TOKENS_MESSAGE = 'tokens fetched successfully';

/**
 * The /blockchains and /blockchains/tokens bodies, serialized (and gzipped) ahead: the tokens once at start-up (the
 * catalogue never changes while the process runs), the chains again only when the pool state they report moved (a
 * snapshot reload, a followed block), on the first request after the move.
 */
function precomputeCatalogBodies(catalog: Catalog) {
  const emptyChains = precomputeData(CHAINS_MESSAGE, []);
  const emptyTokens = precomputeData(TOKENS_MESSAGE, []);
  const json = new Map(catalog.chains.map((chain) => [chain.chainId, chainJson(chain)]));
  const tokensBody = new Map(catalog.chains.map((chain) => [chain.chainId, precomputeData(TOKENS_MESSAGE, chain.tokens)]));
  const chainBody = new Map<number, { block: number | null; body: PrecomputedEnvelope }>();
  let all: { key: string; body: PrecomputedEnvelope } | undefined;
  const oneChain = (chainId: number, block: number | null): PrecomputedEnvelope => {
    let cached = chainBody.get(chainId);
    if (!cached || cached.block !== block) {
      cached = { block, body: precomputeDataJson(CHAINS_MESSAGE, `[${withPoolState(json.get(chainId)!, block)}]`) };
      chainBody.set(chainId, cached);
    }
    return cached.body;
  };
  return {
    allTokens: precomputeData(TOKENS_MESSAGE, catalog.allTokens()),
    /** Every chain with the pool state `graph` serves. */
    allChains(graph: PoolGraph): PrecomputedEnvelope {
      const blocks = catalog.chains.map((chain) => snapshotBlock(graph, chain.chainId));
      const key = blocks.join(',');
      if (all?.key !== key) {
        const data = catalog.chains.map((chain, i) => withPoolState(json.get(chain.chainId)!, blocks[i]!)).join(',');
        all = { key, body: precomputeDataJson(CHAINS_MESSAGE, `[${data}]`) };
      }
      return all.body;
    },
    /** One chain by id and/or slug (both must match), or the empty list. */
    chains(graph: PoolGraph, chainId: number | undefined, slug: string | undefined): PrecomputedEnvelope {
      const chain = chainId !== undefined ? catalog.chain(chainId) : catalog.chain(slug!);
      return chain && (!slug || chain.slug === slug) ? oneChain(chain.chainId, snapshotBlock(graph, chain.chainId)) : emptyChains;
    },
    tokens(chainId: number): PrecomputedEnvelope {
      return tokensBody.get(chainId) ?? emptyTokens;
    },
  };
}

/**
 * Public catalogue routes: /blockchains (each chain with `hasPoolState` and `snapshotBlock` of the graph being served),
 * /blockchains/tokens, /blockchains/dex, /blockchains/pools.
 */
export function blockchainsRouter(catalog: Catalog, graph: () => PoolGraph): Router {
  const router = new Router();
  const bodies = precomputeCatalogBodies(catalog);
  const allDexes = catalog.allDexes().map(dexView);
  const poolCache = new WeakMap<PoolGraph, Map<number, PoolView[]>>();

  function poolsOf(current: PoolGraph, chain: CatalogChain): PoolView[] {
    let perChain = poolCache.get(current);
    if (!perChain) poolCache.set(current, (perChain = new Map()));
    let views = perChain.get(chain.chainId);
    if (!views) {
      const pools = current.pools(chain.chainId);
      const token = (address: string) => catalog.token(chain.chainId, address);
      const prices = usdPrices(chain, pools, token);
      views = pools
        .map((pool) => describePool(pool, chain, token(pool.token0)!, token(pool.token1)!, prices))
        .sort((a, b) =>
          a.dexSlug < b.dexSlug
            ? -1
            : a.dexSlug > b.dexSlug
              ? 1
              : a.version < b.version
                ? -1
                : a.version > b.version
                  ? 1
                  : a.symbol < b.symbol
                    ? -1
                    : a.symbol > b.symbol
                      ? 1
                      : a.poolFee - b.poolFee,
        );
      perChain.set(chain.chainId, views);
    }
    return views;
  }

  router.get('/blockchains', (ctx) => {
    const chainId = parseChainIdQuery(ctx.query.chainId);
    const slug = queryValue(ctx.query.slug);
    const current = graph();
    sendPrecomputed(ctx, chainId === undefined && !slug ? bodies.allChains(current) : bodies.chains(current, chainId, slug));
  });

  router.get('/blockchains/tokens', (ctx) => {
    const chainId = parseChainIdQuery(ctx.query.chainId);
    sendPrecomputed(ctx, chainId === undefined ? bodies.allTokens : bodies.tokens(chainId));
  });

  router.get('/blockchains/dex', (ctx) => {
    const chainId = parseChainIdQuery(ctx.query.chainId);
    const slug = queryValue(ctx.query.slug);
    const data = allDexes.filter((d) => (chainId === undefined || d.chainId === chainId) && (!slug || d.slug === slug));
    sendData(ctx, 'dexes fetched successfully', data);
  });

  router.get('/blockchains/pools', (ctx) => {
    const raw = queryValue(ctx.query.chainId);
    if (raw === undefined || raw === '') throw new ValidationError('invalid chain id');
    const chainId = parseChainIdQuery(raw)!;
    const chain = catalog.chain(chainId);
    if (!chain) {
      sendData(ctx, 'pools fetched successfully', null);
      return;
    }
    const dex = queryValue(ctx.query.dex);
    const views = poolsOf(graph(), chain);
    sendData(ctx, 'pools fetched successfully', dex ? views.filter((p) => p.dexSlug === dex) : views);
  });

  return router;
}
