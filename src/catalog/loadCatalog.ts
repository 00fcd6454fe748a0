import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import { getAddress } from 'viem';
import { projectRoot } from '../config.ts';
import { loadTokenList, TokenListError, type LoadedTokenList } from './tokenLists.ts';

/** The address that stands for a chain's native asset (ETH, BNB, POL, AVAX) wherever a token address is expected. */
export const NATIVE_TOKEN_ADDRESS = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE';

export type Ecosystem = 'evm' | 'tvm' | 'svm';

/** A token as the API returns it (SPEC section 2, Token). */
export interface CatalogToken {
  readonly address: string;
  readonly symbol: string;
  readonly name: string;
  readonly slug: string;
  readonly decimals: number;
  readonly logo: string;
  readonly blockchainId: number;
  /**
   * Extension, present (true) only on tokens whose approve() reverts while the allowance is not zero (Tether USD on
   * Ethereum): their approval steps set the allowance to 0 first (src/tx/approveStep.ts).
   */
  readonly approvalReset?: true;
}

/** A DEX deployment on one chain (SPEC section 2, DEX), with the data pricing needs. Absent addresses are ''. */
export interface CatalogDex {
  readonly chainId: number;
  readonly name: string;
  readonly slug: string;
  readonly version: 'v2' | 'v3';
  readonly logo: string;
  readonly v2FactoryAddress: string;
  readonly v2RouterAddress: string;
  readonly v3FactoryAddress: string;
  readonly v3RouterAddress: string;
  readonly v3RouterKind: 'SwapRouter' | 'SwapRouter02' | '';
  /** SwapRouter02 only: the v2 factory it was deployed with (its pairs can be swapped through it); '' otherwise. */
  readonly v3RouterV2FactoryAddress: string;
  readonly v3QuoterAddress: string;
  readonly universalRouterAddress: string;
  readonly permit2Address: string;
  readonly settlementAddress: string;
  /** v2 swap fee in basis points; 0 for v3. */
  readonly feeBps: number;
  readonly pairInitCodeHash: string;
  readonly poolInitCodeHash: string;
  /** v3 fee tiers in pips; empty for v2. */
  readonly feeTiers: readonly number[];
}

/**
 * Fee terms of a bridge asset as configured (catalog/chain.schema.json `bridgeFeeTerms`); every field optional.
 * Amounts are display-unit decimal strings of the asset. Resolved by src/bridge/bridgeFee.ts `resolveBridgeFeeTerms`.
 */
export interface BridgeFeeTermsConfig {
  readonly feeBps?: number;
  readonly fixedFee?: string;
  readonly minAmount?: string;
  readonly maxAmount?: string;
  readonly fillTimeSeconds?: number;
}

/** One asset a bridge carries from/to this chain. */
export interface CatalogBridgeAsset extends BridgeFeeTermsConfig {
  /** Shared asset key (USDC, ETH, ...): the same key on two chains is the same asset. */
  readonly asset: string;
  /** The ERC-20 deposited and filled on this chain (checksummed; a token of this chain). */
  readonly token: string;
  /** Overrides per destination chain id. */
  readonly destinations: Readonly<Record<string, BridgeFeeTermsConfig>>;
}

/** A bridge deployment on one chain (catalogue `bridges[]`). */
export interface CatalogBridge {
  readonly chainId: number;
  readonly protocol: 'across';
  /** The bridge deployment ('mainnet', 'devnet'): chains connect only within one network. */
  readonly network: string;
  readonly name: string;
  readonly slug: string;
  readonly logo: string;
  /** The SpokePool proxy (checksummed). */
  readonly spokePoolAddress: string;
  /** depositNow's fillDeadlineOffset in seconds (default 10800). */
  readonly fillDeadlineOffsetSeconds: number;
  /** Unit-free defaults for every asset. */
  readonly defaults: Readonly<Pick<BridgeFeeTermsConfig, 'feeBps' | 'fillTimeSeconds'>>;
  /** Sorted by asset key. */
  readonly assets: readonly CatalogBridgeAsset[];
}

/** Default depositNow fillDeadlineOffset when a bridge entry names none: three hours. */
export const DEFAULT_FILL_DEADLINE_OFFSET_SECONDS = 10_800;

/** One chain of the catalogue. */
export interface CatalogChain {
  readonly name: string;
  readonly slug: string;
  readonly chainId: number;
  readonly symbol: string;
  readonly nativeToken: string;
  readonly ecosystem: Ecosystem;
  readonly blockExplorer: string;
  readonly blockChainLogo: string;
  readonly wrappedNativeToken: string;
  readonly multicall3Address: string;
  /** Base tokens (checksummed, in the file's order): intermediate hops routing tries first. */
  readonly baseTokens: readonly string[];
  /** Pairs (checksummed, file order) whose pools the seeding run discovers besides the base-token pairs. */
  readonly pairs: readonly (readonly [string, string])[];
  /** Sorted by symbol, then address. */
  readonly tokens: readonly CatalogToken[];
  /** Sorted by slug, then version. */
  readonly dexes: readonly CatalogDex[];
  /** Sorted by slug. */
  readonly bridges: readonly CatalogBridge[];
  /** The catalogue file it came from (for messages). */
  readonly file: string;
}

/** Raised at start-up when a catalogue file is unreadable or breaks the schema. */
export class CatalogError extends Error {
  override readonly name = 'CatalogError';
}

/** The loaded, validated catalogue with its lookups. Immutable. */
export class Catalog {
  /** Sorted by chain id. */
  readonly chains: readonly CatalogChain[];
  private readonly byId = new Map<number, CatalogChain>();
  private readonly bySlug = new Map<string, CatalogChain>();
  private readonly tokensByChain = new Map<number, Map<string, CatalogToken>>();

  constructor(chains: readonly CatalogChain[]) {
    this.chains = [...chains].sort((a, b) => a.chainId - b.chainId);
    for (const chain of this.chains) {
      const clash = this.byId.get(chain.chainId) ?? this.bySlug.get(chain.slug);
      if (clash) throw new CatalogError(`${chain.file}: chainId ${chain.chainId} / slug "${chain.slug}" already defined by ${clash.file}`);
      this.byId.set(chain.chainId, chain);
      this.bySlug.set(chain.slug, chain);
      const tokens = new Map<string, CatalogToken>();
      for (const token of chain.tokens) {
        const key = tokenKey(chain.ecosystem, token.address);
        if (tokens.has(key)) throw new CatalogError(`${chain.file}: token ${token.address} listed twice`);
        tokens.set(key, token);
      }
      this.tokensByChain.set(chain.chainId, tokens);
    }
  }

  /** The chain with this id or slug. */
  chain(idOrSlug: number | string): CatalogChain | undefined {
    return typeof idOrSlug === 'number' ? this.byId.get(idOrSlug) : this.bySlug.get(idOrSlug);
  }

  /** A chain's token by address, in any letter case (EVM). */
  token(chainId: number, address: string): CatalogToken | undefined {
    const chain = this.byId.get(chainId);
    if (!chain) return undefined;
    return this.tokensByChain.get(chainId)?.get(tokenKey(chain.ecosystem, address));
  }

  /** Every token of every chain, in chain order. */
  allTokens(): CatalogToken[] {
    return this.chains.flatMap((chain) => chain.tokens);
  }

  /** Every DEX deployment, in chain order. */
  allDexes(): CatalogDex[] {
    return this.chains.flatMap((chain) => chain.dexes);
  }
}

function tokenKey(ecosystem: Ecosystem, address: string): string {
  return ecosystem === 'evm' ? address.toLowerCase() : address;
}

interface RawToken { address: string; symbol: string; name: string; slug: string; decimals: number; logo: string; approvalReset?: true }
interface RawDex {
  name: string; slug: string; version: 'v2' | 'v3'; logo?: string;
  v2FactoryAddress?: string; v2RouterAddress?: string; v3FactoryAddress?: string; v3RouterAddress?: string;
  v3RouterKind?: 'SwapRouter' | 'SwapRouter02'; v3RouterV2FactoryAddress?: string; v3QuoterAddress?: string; universalRouterAddress?: string;
  permit2Address?: string; settlementAddress?: string; feeBps?: number; pairInitCodeHash?: string;
  poolInitCodeHash?: string; feeTiers?: number[];
}
interface RawBridgeAsset extends BridgeFeeTermsConfig { asset: string; token: string; destinations?: Record<string, BridgeFeeTermsConfig> }
interface RawBridge {
  protocol: 'across'; network: string; name: string; slug: string; logo?: string; spokePoolAddress: string; fillDeadlineOffsetSeconds?: number;
  defaults?: Pick<BridgeFeeTermsConfig, 'feeBps' | 'fillTimeSeconds'>; assets: RawBridgeAsset[];
}
interface RawChain {
  name: string; slug: string; chainId: number; symbol: string; nativeToken: string; ecosystem: Ecosystem;
  blockExplorer: string; blockChainLogo: string; wrappedNativeToken?: string; multicall3Address?: string; baseTokens?: string[];
  tokenLists?: string[]; excludeTokens?: string[]; pairs?: [string, string][];
  tokens: RawToken[]; dexes: RawDex[]; bridges?: RawBridge[];
}

const bySymbol = (a: CatalogToken, b: CatalogToken): number =>
  a.symbol.toUpperCase() < b.symbol.toUpperCase() ? -1 : a.symbol.toUpperCase() > b.symbol.toUpperCase() ? 1 : a.address < b.address ? -1 : 1;

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
  let slug = symbol.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  if (!slug || taken.has(slug)) slug = `${slug || 'token'}-${address.slice(2, 10).toLowerCase()}`;
  taken.add(slug);
  return slug;
}

/**
 * The chain's own tokens merged with the entries of its token lists for its chain id (minus `excludeTokens`). An
 * address listed twice must agree on decimals (a disagreement names both sources); the first entry wins otherwise,
 * the chain file's own tokens first, and an own token without a logo takes the list's.
 */
function mergeTokens(raw: RawChain, file: string, own: CatalogToken[], lists: readonly LoadedTokenList[], addr: (value: string, where: string) => string): CatalogToken[] {
  const byKey = new Map<string, { token: CatalogToken; source: string }>();
  own.forEach((token, i) => byKey.set(token.address.toLowerCase(), { token, source: `${file} /tokens/${i}` }));
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
          throw new CatalogError(`${file}: token ${known.token.address} has ${known.token.decimals} decimals in ${known.source} but ${entry.decimals} in ${here}`);
        }
        if (!known.token.logo && entry.logoURI) known.token = { ...known.token, logo: entry.logoURI };
        return;
      }
      const address = addr(entry.address, here);
      const token: CatalogToken = { address, symbol: entry.symbol, name: entry.name, slug: listSlug(entry.symbol, address, slugs), decimals: entry.decimals, logo: entry.logoURI ?? '', blockchainId: raw.chainId };
      byKey.set(key, { token, source: here });
    });
  }
  for (const [address, { index, used }] of excluded) {
    if (!used) throw new CatalogError(`${file}: /excludeTokens/${index}: ${getAddress(address)} is not an entry of this chain in any of its tokenLists`);
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
  const own = raw.tokens.map((t, i): CatalogToken => ({
    address: addr(t.address, `/tokens/${i}/address`),
    symbol: t.symbol,
    name: t.name,
    slug: t.slug,
    decimals: t.decimals,
    logo: t.logo,
    blockchainId: raw.chainId,
    ...(t.approvalReset ? { approvalReset: true as const } : {}),
  }));
  const tokens = mergeTokens(raw, file, own, lists, addr).sort(bySymbol);
  const dexes = raw.dexes
    .map((d, i): CatalogDex => ({
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
      universalRouterAddress: addr(d.universalRouterAddress, `/dexes/${i}/universalRouterAddress`),
      permit2Address: addr(d.permit2Address, `/dexes/${i}/permit2Address`),
      settlementAddress: addr(d.settlementAddress, `/dexes/${i}/settlementAddress`),
      feeBps: d.feeBps ?? 0,
      pairInitCodeHash: d.pairInitCodeHash ?? '',
      poolInitCodeHash: d.poolInitCodeHash ?? '',
      feeTiers: Object.freeze([...(d.feeTiers ?? [])]),
    }))
    .sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : a.version < b.version ? -1 : 1));
  const seen = new Set<string>();
  for (const dex of dexes) {
    const key = `${dex.slug}/${dex.version}`;
    if (seen.has(key)) throw new CatalogError(`${file}: /dexes: "${dex.slug}" ${dex.version} listed twice (one entry per version)`);
    seen.add(key);
  }
  const baseTokens = (raw.baseTokens ?? []).map((b, i) => {
    const address = addr(b, `/baseTokens/${i}`);
    if (!tokens.some((t) => t.address === address)) throw new CatalogError(`${file}: /baseTokens/${i}: ${address} is not a token of this chain`);
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
  const bridges = (raw.bridges ?? []).map((b, i) => normaliseBridge(b, i, raw.chainId, tokens, addr, file)).sort((a, b) => (a.slug < b.slug ? -1 : 1));
  for (let i = 1; i < bridges.length; i++) {
    if (bridges[i]!.slug === bridges[i - 1]!.slug) throw new CatalogError(`${file}: /bridges: "${bridges[i]!.slug}" listed twice`);
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
  if (raw.protocol === 'across' && raw.slug !== 'across') throw new CatalogError(`${file}: /bridges/${index}/slug: an across bridge must have slug "across"`);
  const seen = new Set<string>();
  const assets = raw.assets
    .map((a, j): CatalogBridgeAsset => {
      const where = `/bridges/${index}/assets/${j}`;
      const token = addr(a.token, `${where}/token`);
      if (!tokens.some((t) => t.address === token)) throw new CatalogError(`${file}: ${where}/token: ${token} is not a token of this chain`);
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

/** Loads and validates every `*.json` chain file of a catalogue folder; throws CatalogError naming the file and field. */
export function loadCatalog(dir: string = join(projectRoot, 'catalog')): Catalog {
  const schema = JSON.parse(readFileSync(CHAIN_SCHEMA_PATH, 'utf8')) as object;
  const validate = new Ajv({ allErrors: true, strict: false }).compile<RawChain>(schema);
  const files = readdirSync(dir).filter((f) => f.endsWith('.json') && !f.endsWith('.schema.json')).sort();
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
