import Router from '@koa/router';
import type { Catalog, CatalogChain, CatalogDex } from '../catalog/Catalog.ts';
import { ValidationError } from '../errors/BaseError.ts';
import { describePool, type PoolView } from '../graph/describePool.ts';
import type { PoolGraph } from '../graph/PoolGraph.ts';
import { type ServedToken, servedTokens, type TokenFacts, tokenFacts } from '../graph/tokenFacts.ts';
import { usdPrices } from '../graph/usdPrices.ts';
import { type PrecomputedEnvelope, precomputeData, sendData, sendPrecomputed } from '../http/envelope.ts';
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

/** The Chain fields the API returns (SPEC section 2): `rpcUrl` is always empty, tokens embedded (as served), no DEXes. */
function chainView(chain: CatalogChain, tokens: readonly ServedToken[]) {
  const { name, slug, chainId, symbol, nativeToken, ecosystem, blockExplorer, blockChainLogo } = chain;
  return { name, slug, chainId, symbol, nativeToken, ecosystem, blockExplorer, rpcUrl: '', blockChainLogo, tokens };
}

const CHAINS_MESSAGE = 'blockchains fetched successfully';
const TOKENS_MESSAGE = 'tokens fetched successfully';
/** Bodies of the all-chains lists kept for this many distinct sets of findings (a snapshot reload makes a new set). */
const ALL_CHAINS_BODIES = 4;

/**
 * The /blockchains and /blockchains/tokens bodies, serialized (and gzipped) once per set of findings: with every
 * token of the token lists they are hundreds of kilobytes. The tokens are served as their chain's snapshot
 * describes them (tokenFacts.ts: `approvalReset` found by the seeding run, `quotable: false` with the reason for a
 * token it left out), so a body is rebuilt only when a snapshot with other findings is loaded; followed blocks
 * keep their snapshot's findings.
 */
function catalogBodies(catalog: Catalog, graph: () => PoolGraph) {
  const empty = { chains: precomputeData(CHAINS_MESSAGE, []), tokens: precomputeData(TOKENS_MESSAGE, []) };
  const perChain = new Map<number, { facts: TokenFacts; chain: PrecomputedEnvelope; tokens: PrecomputedEnvelope }>();
  const allChains = new Map<string, { chains: PrecomputedEnvelope; tokens: PrecomputedEnvelope }>();
  const served = (current: PoolGraph, chain: CatalogChain) => servedTokens(tokenFacts(current.snapshot(chain.chainId)), chain);
  const bodiesOf = (current: PoolGraph, chain: CatalogChain) => {
    const facts = tokenFacts(current.snapshot(chain.chainId));
    let bodies = perChain.get(chain.chainId);
    if (!bodies || bodies.facts !== facts) {
      const tokens = servedTokens(facts, chain);
      bodies = { facts, chain: precomputeData(CHAINS_MESSAGE, [chainView(chain, tokens)]), tokens: precomputeData(TOKENS_MESSAGE, tokens) };
      perChain.set(chain.chainId, bodies);
    }
    return bodies;
  };
  return {
    /** Every chain (its tokens and the chains with them). */
    all(): { chains: PrecomputedEnvelope; tokens: PrecomputedEnvelope } {
      const current = graph();
      const key = catalog.chains.map((c) => tokenFacts(current.snapshot(c.chainId)).id).join(',');
      let bodies = allChains.get(key);
      if (!bodies) {
        const tokens = catalog.chains.map((c) => served(current, c));
        bodies = {
          chains: precomputeData(
            CHAINS_MESSAGE,
            catalog.chains.map((c, i) => chainView(c, tokens[i])),
          ),
          tokens: precomputeData(TOKENS_MESSAGE, tokens.flat()),
        };
        if (allChains.size >= ALL_CHAINS_BODIES) allChains.delete(allChains.keys().next().value!);
        allChains.set(key, bodies);
      }
      return bodies;
    },
    /** One chain by id and/or slug (both must match), or the empty list. */
    chains(chainId: number | undefined, slug: string | undefined): PrecomputedEnvelope {
      const chain = chainId !== undefined ? catalog.chain(chainId) : catalog.chain(slug!);
      return chain && (!slug || chain.slug === slug) ? bodiesOf(graph(), chain).chain : empty.chains;
    },
    tokens(chainId: number): PrecomputedEnvelope {
      const chain = catalog.chain(chainId);
      return chain ? bodiesOf(graph(), chain).tokens : empty.tokens;
    },
  };
}

/** Public catalogue routes: /blockchains, /blockchains/tokens, /blockchains/dex, /blockchains/pools. */
export function blockchainsRouter(catalog: Catalog, graph: () => PoolGraph): Router {
  const router = new Router();
  const bodies = catalogBodies(catalog, graph);
  const allDexes = catalog.allDexes().map(dexView);
  const poolCache = new WeakMap<PoolGraph, Map<number, PoolView[]>>();

  function poolsOf(current: PoolGraph, chain: CatalogChain): PoolView[] {
    let perChain = poolCache.get(current);
    if (!perChain) {
      perChain = new Map();
      poolCache.set(current, perChain);
    }
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
    sendPrecomputed(ctx, chainId === undefined && !slug ? bodies.all().chains : bodies.chains(chainId, slug));
  });

  router.get('/blockchains/tokens', (ctx) => {
    const chainId = parseChainIdQuery(ctx.query.chainId);
    sendPrecomputed(ctx, chainId === undefined ? bodies.all().tokens : bodies.tokens(chainId));
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
