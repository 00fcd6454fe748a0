import Router from '@koa/router';
import { type Catalog, type CatalogChain, type CatalogDex, NATIVE_TOKEN_ADDRESS } from '../catalog/Catalog.ts';
import { ValidationError } from '../errors/BaseError.ts';
import { describePool, type PoolView } from '../graph/describePool.ts';
import type { PoolGraph } from '../graph/PoolGraph.ts';
import { pricingGraphOf } from '../graph/PricingGraph.ts';
import { type ServedToken, servedTokens, type TokenFacts, tokenFacts } from '../graph/tokenFacts.ts';
import { chainUsdPrices, tokenSupplies } from '../graph/usdPrices.ts';
import { type PrecomputedEnvelope, precomputeData, precomputeDataJson, sendData, sendPrecomputed } from '../http/envelope.ts';
import { parseChainIdQuery, queryValue } from '../http/query.ts';
import { chainContext } from '../protocols/chainContext.ts';

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
    v4PoolManagerAddress,
    v4StateViewAddress,
    v4QuoterAddress,
    v4PositionManagerAddress,
    allowedHooks,
    universalRouterAddress,
    permit2Address,
    settlementAddress,
    feeBps,
    feeTiers,
    balancerVaultAddress,
    balancerQueriesAddress,
    balancerWeightedPoolFactories,
    balancerStablePoolFactories,
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
    v4PoolManagerAddress,
    v4StateViewAddress,
    v4QuoterAddress,
    v4PositionManagerAddress,
    allowedHooks,
    universalRouterAddress,
    permit2Address,
    settlementAddress,
    feeBps,
    feeTiers,
    balancerVaultAddress,
    balancerQueriesAddress,
    balancerWeightedPoolFactories,
    balancerStablePoolFactories,
  };
}

/**
 * A chain's JSON as the API returns it (SPEC section 2, Chain: `rpcUrl` always empty, tokens embedded as served, no
 * DEXes, plus the pool-state extension), kept in two parts around the pool-state fields: `head` up to
 * blockChainLogo (never changes) and `tokens`, the served token list (changes only with the snapshot's findings).
 */
function chainHead(chain: CatalogChain): string {
  const { name, slug, chainId, symbol, nativeToken, ecosystem, blockExplorer, blockChainLogo } = chain;
  return JSON.stringify({ name, slug, chainId, symbol, nativeToken, ecosystem, blockExplorer, rpcUrl: '', blockChainLogo }).slice(0, -1);
}

/** One chain's JSON with its pool state: `hasPoolState`, `snapshotBlock` (null without pool state), the base tokens. */
function chainJson(head: string, block: number | null, basesJson: string, tokensJson: string): string {
  return `${head},"hasPoolState":${block !== null},"snapshotBlock":${block ?? 'null'},${basesJson},"tokens":${tokensJson}}`;
}

/**
 * The chain's base tokens as routing uses them (`baseTokens`, checksummed) and where they come from
 * (`baseTokensFrom`): the catalogue's when its file names some, else chosen from the pools being served
 * (src/graph/baseTokens.ts; none without pool state). A JSON fragment.
 */
function basesJson(catalog: Catalog, current: PoolGraph, chain: CatalogChain): string {
  const index = chain.baseTokens.length > 0 ? undefined : pricingGraphOf(current, catalog).chain(chain.chainId);
  const bases = index ? index.baseTokens.map((t) => index.token(t)?.address ?? t) : chain.baseTokens;
  return `"baseTokens":${JSON.stringify(bases)},"baseTokensFrom":"${chain.baseTokens.length > 0 ? 'catalog' : 'pools'}"`;
}

const CHAINS_MESSAGE = 'blockchains fetched successfully';
const TOKENS_MESSAGE = 'tokens fetched successfully';
/** Bodies of the all-chains token list kept for this many distinct sets of findings (a snapshot reload makes a new set). */
const ALL_TOKENS_BODIES = 4;

/** A chain's served tokens under one set of findings: as data, as JSON, and its /blockchains/tokens body. */
interface ServedChainTokens {
  readonly facts: TokenFacts;
  readonly tokens: readonly ServedToken[];
  readonly json: string;
  readonly body: PrecomputedEnvelope;
}

/**
 * The /blockchains and /blockchains/tokens bodies, serialized (and gzipped) ahead: with every token of the token lists
 * they are hundreds of kilobytes. The tokens are served as their chain's snapshot describes them (tokenFacts.ts:
 * `approvalReset` found by the seeding run, `quotable: false` with the reason for a token it left out), so a token
 * list is serialized again only when a snapshot with other findings is loaded; the chains report the block of the
 * pool state being served, so a chain body is rebuilt (from the serialized parts) on the first request after its
 * state moved (a reload, a followed block).
 */
function catalogBodies(catalog: Catalog, graph: () => PoolGraph) {
  const empty = { chains: precomputeData(CHAINS_MESSAGE, []), tokens: precomputeData(TOKENS_MESSAGE, []) };
  const heads = new Map(catalog.chains.map((chain) => [chain.chainId, chainHead(chain)]));
  const served = new Map<number, ServedChainTokens>();
  const chainBody = new Map<number, { tokens: ServedChainTokens; block: number | null; bases: string; body: PrecomputedEnvelope }>();
  const allTokens = new Map<string, PrecomputedEnvelope>();
  let allChains: { key: string; body: PrecomputedEnvelope } | undefined;

  const tokensOf = (current: PoolGraph, chain: CatalogChain): ServedChainTokens => {
    const facts = tokenFacts(current.snapshot(chain.chainId));
    let entry = served.get(chain.chainId);
    if (!entry || entry.facts !== facts) {
      const tokens = servedTokens(facts, chain);
      entry = { facts, tokens, json: JSON.stringify(tokens), body: precomputeData(TOKENS_MESSAGE, tokens) };
      served.set(chain.chainId, entry);
    }
    return entry;
  };
  const blockOf = (current: PoolGraph, chain: CatalogChain): number | null => current.snapshot(chain.chainId)?.blockNumber ?? null;
  const oneChain = (current: PoolGraph, chain: CatalogChain): PrecomputedEnvelope => {
    const tokens = tokensOf(current, chain);
    const block = blockOf(current, chain);
    const bases = basesJson(catalog, current, chain);
    let cached = chainBody.get(chain.chainId);
    if (!cached || cached.tokens !== tokens || cached.block !== block || cached.bases !== bases) {
      const body = precomputeDataJson(CHAINS_MESSAGE, `[${chainJson(heads.get(chain.chainId)!, block, bases, tokens.json)}]`);
      cached = { tokens, block, bases, body };
      chainBody.set(chain.chainId, cached);
    }
    return cached.body;
  };
  return {
    /** Every chain with the pool state being served. */
    allChains(): PrecomputedEnvelope {
      const current = graph();
      const parts = catalog.chains.map((chain) => ({
        chain,
        tokens: tokensOf(current, chain),
        block: blockOf(current, chain),
        bases: basesJson(catalog, current, chain),
      }));
      const key = parts.map((p) => `${p.tokens.facts.id}@${p.block}@${p.bases}`).join(',');
      if (allChains?.key !== key) {
        const data = parts.map((p) => chainJson(heads.get(p.chain.chainId)!, p.block, p.bases, p.tokens.json)).join(',');
        allChains = { key, body: precomputeDataJson(CHAINS_MESSAGE, `[${data}]`) };
      }
      return allChains.body;
    },
    /** Every chain's tokens. */
    allTokens(): PrecomputedEnvelope {
      const current = graph();
      const lists = catalog.chains.map((chain) => tokensOf(current, chain));
      const key = lists.map((l) => l.facts.id).join(',');
      let body = allTokens.get(key);
      if (!body) {
        body = precomputeData(
          TOKENS_MESSAGE,
          lists.flatMap((l) => l.tokens),
        );
        if (allTokens.size >= ALL_TOKENS_BODIES) allTokens.delete(allTokens.keys().next().value!);
        allTokens.set(key, body);
      }
      return body;
    },
    /** One chain by id and/or slug (both must match), or the empty list. */
    chains(chainId: number | undefined, slug: string | undefined): PrecomputedEnvelope {
      const chain = chainId !== undefined ? catalog.chain(chainId) : catalog.chain(slug!);
      return chain && (!slug || chain.slug === slug) ? oneChain(graph(), chain) : empty.chains;
    },
    tokens(chainId: number): PrecomputedEnvelope {
      const chain = catalog.chain(chainId);
      return chain ? tokensOf(graph(), chain).body : empty.tokens;
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
      // v4 pools hold the native asset as currency 0x0000…0000: the catalogue's native token (0xEeee…).
      const token = (address: string) => catalog.token(chain.chainId, BigInt(address) === 0n ? NATIVE_TOKEN_ADDRESS : address);
      const prices = chainUsdPrices(current, catalog, chain.chainId);
      const supplies = tokenSupplies(current.snapshot(chain.chainId));
      views = pools
        .map((pool) => describePool(pool, chain, token(pool.token0)!, token(pool.token1)!, prices, supplies, chainContext(chain)))
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
    sendPrecomputed(ctx, chainId === undefined && !slug ? bodies.allChains() : bodies.chains(chainId, slug));
  });

  router.get('/blockchains/tokens', (ctx) => {
    const chainId = parseChainIdQuery(ctx.query.chainId);
    sendPrecomputed(ctx, chainId === undefined ? bodies.allTokens() : bodies.tokens(chainId));
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
