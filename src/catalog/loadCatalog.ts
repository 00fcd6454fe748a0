import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { getAddress } from 'viem';
import { newAjv } from '../ajv.ts';
import { projectRoot } from '../config.ts';
import {
  type BridgeFeeTermsConfig,
  Catalog,
  type CatalogBridge,
  type CatalogBridgeAsset,
  type CatalogChain,
  type CatalogDex,
  CatalogError,
  type CatalogToken,
  DEFAULT_FILL_DEADLINE_OFFSET_SECONDS,
  type DeploymentId,
  deploymentId,
  type Ecosystem,
  NATIVE_TOKEN_ADDRESS,
} from './Catalog.ts';
import { type LoadedTokenList, loadTokenList, TokenListError } from './tokenLists.ts';

interface RawToken {
  address: string;
  symbol: string;
  name: string;
  slug: string;
  decimals: number;
  logo: string;
  approvalReset?: true;
}
interface RawDex {
  name: string;
  slug: string;
  version: 'v2' | 'v3' | 'v4' | 'balancerV2';
  logo?: string;
  balancerVaultAddress?: string;
  balancerQueriesAddress?: string;
  balancerWeightedPoolFactories?: string[];
  balancerStablePoolFactories?: string[];
  v2FactoryAddress?: string;
  v2RouterAddress?: string;
  v3FactoryAddress?: string;
  v3RouterAddress?: string;
  v3RouterKind?: 'SwapRouter' | 'SwapRouter02' | 'PancakeSmartRouter';
  v3PoolDeployerAddress?: string;
  v3RouterV2FactoryAddress?: string;
  v3QuoterAddress?: string;
  v4PoolManagerAddress?: string;
  v4StateViewAddress?: string;
  v4QuoterAddress?: string;
  v4PositionManagerAddress?: string;
  allowedHooks?: string[];
  universalRouterAddress?: string;
  universalRouterV2FactoryAddress?: string;
  universalRouterV3FactoryAddress?: string;
  permit2Address?: string;
  settlementAddress?: string;
  feeBps?: number;
  pairInitCodeHash?: string;
  poolInitCodeHash?: string;
  feeTiers?: number[];
  factoryDeploymentBlock?: number;
}
interface RawBridgeAsset extends BridgeFeeTermsConfig {
  asset: string;
  token: string;
  destinations?: Record<string, BridgeFeeTermsConfig>;
}
interface RawBridge {
  protocol: 'across';
  network: string;
  name: string;
  slug: string;
  logo?: string;
  spokePoolAddress: string;
  fillDeadlineOffsetSeconds?: number;
  defaults?: Pick<BridgeFeeTermsConfig, 'feeBps' | 'fillTimeSeconds'>;
  assets: RawBridgeAsset[];
}
interface RawChain {
  name: string;
  slug: string;
  chainId: number;
  symbol: string;
  nativeToken: string;
  ecosystem: Ecosystem;
  blockExplorer: string;
  blockChainLogo: string;
  wrappedNativeToken?: string;
  multicall3Address?: string;
  baseTokens?: string[];
  tokenLists?: string[];
  excludeTokens?: string[];
  pairs?: [string, string][];
  tokens: RawToken[];
  dexes: RawDex[];
  bridges?: RawBridge[];
}

const bySymbol = (a: CatalogToken, b: CatalogToken): number =>
  a.symbol.toUpperCase() < b.symbol.toUpperCase()
    ? -1
    : a.symbol.toUpperCase() > b.symbol.toUpperCase()
      ? 1
      : a.address < b.address
        ? -1
        : 1;

function describe(file: string, errors: ErrorObject[] | null | undefined): string {
  const lines = (errors ?? []).map((e) => {
    const at = e.instancePath || '(root)';
    const extra = e.keyword === 'additionalProperties' ? ` "${String(e.params.additionalProperty)}"` : '';
    return `${at}: ${e.message ?? 'is invalid'}${extra}`;
  });
  return `${file}: ${lines.join('; ')}`;
}

/** A slug for a list token: its symbol in lower case, runs of other characters as '-'; the address decides a clash. */
function listSlug(symbol: string, address: string, taken: Set<string>): string {
  let slug = symbol
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (!slug || taken.has(slug)) slug = `${slug || 'token'}-${address.slice(2, 10).toLowerCase()}`;
  taken.add(slug);
  return slug;
}

/**
 * The chain's own tokens merged with the entries of its token lists for its chain id (minus `excludeTokens`). An
 * address listed twice must agree on decimals (a disagreement names both sources); the first entry wins otherwise,
 * the chain file's own tokens first, and an own token without a logo takes the list's.
 */
function mergeTokens(
  raw: RawChain,
  file: string,
  own: CatalogToken[],
  lists: readonly LoadedTokenList[],
  addr: (value: string, where: string) => string,
): CatalogToken[] {
  const byKey = new Map<string, { token: CatalogToken; source: string }>();
  for (const [i, token] of own.entries()) byKey.set(token.address.toLowerCase(), { token, source: `${file} /tokens/${i}` });
  const excluded = new Map((raw.excludeTokens ?? []).map((a, i) => [a.toLowerCase(), { index: i, used: false }]));
  const slugs = new Set(own.map((t) => t.slug));
  for (const { source, list } of lists) {
    list.tokens.forEach((entry, i) => {
      if (entry.chainId !== raw.chainId) return;
      const key = entry.address.toLowerCase();
      const exclusion = excluded.get(key);
      if (exclusion) {
        exclusion.used = true;
        return;
      }
      const here = `${source} /tokens/${i}`;
      const known = byKey.get(key);
      if (known) {
        if (known.token.decimals !== entry.decimals) {
          throw new CatalogError(
            `${file}: token ${known.token.address} has ${known.token.decimals} decimals in ${known.source} but ${entry.decimals} in ${here}`,
          );
        }
        if (!known.token.logo && entry.logoURI) known.token = { ...known.token, logo: entry.logoURI };
        return;
      }
      const address = addr(entry.address, here);
      const token: CatalogToken = {
        address,
        symbol: entry.symbol,
        name: entry.name,
        slug: listSlug(entry.symbol, address, slugs),
        decimals: entry.decimals,
        logo: entry.logoURI ?? '',
        blockchainId: raw.chainId,
      };
      byKey.set(key, { token, source: here });
    });
  }
  for (const [address, { index, used }] of excluded) {
    if (!used)
      throw new CatalogError(
        `${file}: /excludeTokens/${index}: ${getAddress(address)} is not an entry of this chain in any of its tokenLists`,
      );
  }
  return [...byKey.values()].map((v) => v.token);
}

/** Normalises one raw, schema-valid chain file: checksummed EVM addresses, '' for absent DEX fields, list tokens merged in. */
function normalise(raw: RawChain, file: string, lists: readonly LoadedTokenList[]): CatalogChain {
  const evm = raw.ecosystem === 'evm';
  const addr = (value: string | undefined, where: string): string => {
    if (!value) return '';
    if (!evm || value.toLowerCase() === NATIVE_TOKEN_ADDRESS.toLowerCase()) return evm ? NATIVE_TOKEN_ADDRESS : value;
    try {
      return getAddress(value.toLowerCase());
    } catch {
      throw new CatalogError(`${file}: ${where}: "${value}" is not a valid EVM address`);
    }
  };
  if (evm && raw.dexes.length > 0 && !raw.wrappedNativeToken) {
    throw new CatalogError(`${file}: /wrappedNativeToken: is required on an evm chain with DEXes`);
  }
  if (!evm && (raw.tokenLists?.length || raw.excludeTokens?.length || raw.pairs?.length)) {
    throw new CatalogError(`${file}: tokenLists, excludeTokens and pairs apply to evm chains only`);
  }
  const own = raw.tokens.map(
    (t, i): CatalogToken => ({
      address: addr(t.address, `/tokens/${i}/address`),
      symbol: t.symbol,
      name: t.name,
      slug: t.slug,
      decimals: t.decimals,
      logo: t.logo,
      blockchainId: raw.chainId,
      ...(t.approvalReset ? { approvalReset: true as const } : {}),
    }),
  );
  const tokens = mergeTokens(raw, file, own, lists, addr).sort(bySymbol);
  const dexes = raw.dexes
    .map(
      (d, i): CatalogDex => ({
        chainId: raw.chainId,
        name: d.name,
        slug: d.slug,
        version: d.version,
        logo: d.logo ?? '',
        v2FactoryAddress: addr(d.v2FactoryAddress, `/dexes/${i}/v2FactoryAddress`),
        v2RouterAddress: addr(d.v2RouterAddress, `/dexes/${i}/v2RouterAddress`),
        v3FactoryAddress: addr(d.v3FactoryAddress, `/dexes/${i}/v3FactoryAddress`),
        v3RouterAddress: addr(d.v3RouterAddress, `/dexes/${i}/v3RouterAddress`),
        v3RouterKind: d.v3RouterKind ?? '',
        v3RouterV2FactoryAddress: addr(d.v3RouterV2FactoryAddress, `/dexes/${i}/v3RouterV2FactoryAddress`),
        v3QuoterAddress: addr(d.v3QuoterAddress, `/dexes/${i}/v3QuoterAddress`),
        v4PoolManagerAddress: addr(d.v4PoolManagerAddress, `/dexes/${i}/v4PoolManagerAddress`),
        v4StateViewAddress: addr(d.v4StateViewAddress, `/dexes/${i}/v4StateViewAddress`),
        v4QuoterAddress: addr(d.v4QuoterAddress, `/dexes/${i}/v4QuoterAddress`),
        v4PositionManagerAddress: addr(d.v4PositionManagerAddress, `/dexes/${i}/v4PositionManagerAddress`),
        allowedHooks: Object.freeze((d.allowedHooks ?? []).map((h, k) => addr(h, `/dexes/${i}/allowedHooks/${k}`))),
        universalRouterAddress: addr(d.universalRouterAddress, `/dexes/${i}/universalRouterAddress`),
        universalRouterV2FactoryAddress: addr(d.universalRouterV2FactoryAddress, `/dexes/${i}/universalRouterV2FactoryAddress`),
        universalRouterV3FactoryAddress: addr(d.universalRouterV3FactoryAddress, `/dexes/${i}/universalRouterV3FactoryAddress`),
        permit2Address: addr(d.permit2Address, `/dexes/${i}/permit2Address`),
        settlementAddress: addr(d.settlementAddress, `/dexes/${i}/settlementAddress`),
        feeBps: d.feeBps ?? 0,
        pairInitCodeHash: d.pairInitCodeHash ?? '',
        poolInitCodeHash: d.poolInitCodeHash ?? '',
        v3PoolDeployerAddress: addr(d.v3PoolDeployerAddress, `/dexes/${i}/v3PoolDeployerAddress`),
        feeTiers: Object.freeze([...(d.feeTiers ?? [])]),
        balancerVaultAddress: addr(d.balancerVaultAddress, `/dexes/${i}/balancerVaultAddress`),
        balancerQueriesAddress: addr(d.balancerQueriesAddress, `/dexes/${i}/balancerQueriesAddress`),
        balancerWeightedPoolFactories: Object.freeze(
          (d.balancerWeightedPoolFactories ?? []).map((f, k) => addr(f, `/dexes/${i}/balancerWeightedPoolFactories/${k}`)),
        ),
        balancerStablePoolFactories: Object.freeze(
          (d.balancerStablePoolFactories ?? []).map((f, k) => addr(f, `/dexes/${i}/balancerStablePoolFactories/${k}`)),
        ),
        ...(d.factoryDeploymentBlock === undefined ? {} : { factoryDeploymentBlock: d.factoryDeploymentBlock }),
      }),
    )
    .sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : a.version < b.version ? -1 : 1));
  const seen = new Set<DeploymentId>();
  for (const dex of dexes) {
    const key = deploymentId(dex.slug, dex.version);
    if (seen.has(key)) throw new CatalogError(`${file}: /dexes: "${dex.slug}" ${dex.version} listed twice (one entry per version)`);
    seen.add(key);
  }
  const baseTokens = (raw.baseTokens ?? []).map((b, i) => {
    const address = addr(b, `/baseTokens/${i}`);
    if (!tokens.some((t) => t.address === address))
      throw new CatalogError(`${file}: /baseTokens/${i}: ${address} is not a token of this chain`);
    return address;
  });
  const isToken = (address: string): boolean => address !== NATIVE_TOKEN_ADDRESS && tokens.some((t) => t.address === address);
  const pairs = (raw.pairs ?? []).map(([a, b], i): readonly [string, string] => {
    const pair = [addr(a, `/pairs/${i}/0`), addr(b, `/pairs/${i}/1`)] as const;
    pair.forEach((address, k) => {
      if (!isToken(address)) throw new CatalogError(`${file}: /pairs/${i}/${k}: ${address} is not an ERC-20 token of this chain`);
    });
    if (pair[0] === pair[1]) throw new CatalogError(`${file}: /pairs/${i}: a pair needs two different tokens`);
    return Object.freeze(pair);
  });
  const bridges = (raw.bridges ?? [])
    .map((b, i) => normaliseBridge(b, i, raw.chainId, tokens, addr, file))
    .sort((a, b) => (a.slug < b.slug ? -1 : 1));
  for (let i = 1; i < bridges.length; i++) {
    if (bridges[i].slug === bridges[i - 1].slug) throw new CatalogError(`${file}: /bridges: "${bridges[i].slug}" listed twice`);
  }
  return Object.freeze({
    name: raw.name,
    slug: raw.slug,
    chainId: raw.chainId,
    symbol: raw.symbol,
    nativeToken: raw.nativeToken,
    ecosystem: raw.ecosystem,
    blockExplorer: raw.blockExplorer,
    blockChainLogo: raw.blockChainLogo,
    wrappedNativeToken: addr(raw.wrappedNativeToken, '/wrappedNativeToken'),
    multicall3Address: addr(raw.multicall3Address, '/multicall3Address'),
    baseTokens: Object.freeze(baseTokens),
    pairs: Object.freeze(pairs),
    tokens: Object.freeze(tokens.map((t) => Object.freeze(t))),
    dexes: Object.freeze(dexes.map((d) => Object.freeze(d))),
    bridges: Object.freeze(bridges),
    file,
  });
}

/** Normalises one bridge entry: checksummed addresses, assets sorted by key, each asset a token of the chain. */
function normaliseBridge(
  raw: RawBridge,
  index: number,
  chainId: number,
  tokens: readonly CatalogToken[],
  addr: (value: string | undefined, where: string) => string,
  file: string,
): CatalogBridge {
  if (raw.protocol === 'across' && raw.slug !== 'across')
    throw new CatalogError(`${file}: /bridges/${index}/slug: an across bridge must have slug "across"`);
  const seen = new Set<string>();
  const assets = raw.assets
    .map((a, j): CatalogBridgeAsset => {
      const where = `/bridges/${index}/assets/${j}`;
      const token = addr(a.token, `${where}/token`);
      if (!tokens.some((t) => t.address === token))
        throw new CatalogError(`${file}: ${where}/token: ${token} is not a token of this chain`);
      if (seen.has(a.asset)) throw new CatalogError(`${file}: ${where}/asset: "${a.asset}" listed twice`);
      seen.add(a.asset);
      const destinations: Record<string, BridgeFeeTermsConfig> = {};
      for (const [id, terms] of Object.entries(a.destinations ?? {})) destinations[id] = Object.freeze({ ...terms });
      const { destinations: _ignored, ...terms } = a;
      return Object.freeze({ ...terms, token, destinations: Object.freeze(destinations) });
    })
    .sort((x, y) => (x.asset < y.asset ? -1 : 1));
  return Object.freeze({
    chainId,
    protocol: raw.protocol,
    network: raw.network,
    name: raw.name,
    slug: raw.slug,
    logo: raw.logo ?? '',
    spokePoolAddress: addr(raw.spokePoolAddress, `/bridges/${index}/spokePoolAddress`),
    fillDeadlineOffsetSeconds: raw.fillDeadlineOffsetSeconds ?? DEFAULT_FILL_DEADLINE_OFFSET_SECONDS,
    defaults: Object.freeze({ ...(raw.defaults ?? {}) }),
    assets: Object.freeze(assets),
  });
}

/** The catalogue format: one schema, shipped with the code, whatever folder the chain files come from. */
export const CHAIN_SCHEMA_PATH = join(projectRoot, 'catalog', 'chain.schema.json');

let chainValidator: ValidateFunction<RawChain> | undefined;

/** The catalogue schema, compiled once per process however many catalogues it loads. */
function validateChain(): ValidateFunction<RawChain> {
  chainValidator ??= newAjv(true).compile<RawChain>(JSON.parse(readFileSync(CHAIN_SCHEMA_PATH, 'utf8')) as object);
  return chainValidator;
}

/** Loads and validates every `*.json` chain file of a catalogue folder; throws CatalogError naming the file and field. */
export function loadCatalog(dir: string = join(projectRoot, 'catalog')): Catalog {
  const validate = validateChain();
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json') && !f.endsWith('.schema.json'))
    .sort();
  const listCache = new Map<string, LoadedTokenList>();
  const chains = files.map((file) => {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    } catch (error) {
      throw new CatalogError(`${file}: not valid JSON (${(error as Error).message})`);
    }
    if (!validate(raw)) throw new CatalogError(describe(file, validate.errors));
    const lists = (raw.tokenLists ?? []).map((spec, i) => {
      try {
        return loadTokenList(spec, dir, listCache);
      } catch (error) {
        if (error instanceof TokenListError) throw new CatalogError(`${file}: /tokenLists/${i}: ${error.message}`);
        throw error;
      }
    });
    return normalise(raw, file, lists);
  });
  return new Catalog(chains);
}
