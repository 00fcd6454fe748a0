import { type Address, getAddress, keccak256, stringToHex, zeroAddress } from 'viem';
import type { CatalogChain } from '../catalog/Catalog.ts';
import type { Snapshot, SnapshotDiscovery, SnapshotPoolIdentity } from '../graph/snapshot.ts';
import type { PoolLog } from '../protocols/logWords.ts';
import { type CreatedPool, type PoolReadKey, type PoolToRead, poolAddress, type ReadCall } from '../protocols/PoolSource.ts';
import { poolSource, type SnapshotPool } from '../protocols/registry.ts';
import { discoveryCandidates, pairTokens } from './discoveryPairs.ts';
import { type RangeLog, scanLogs } from './logRanges.ts';
import { shortError } from './seedRpc.ts';

/** How one DEX's pools were found by a seeding run, for its report. */
export interface DexDiscovery {
  readonly dex: string;
  readonly version: SnapshotPool['version'];
  readonly factory: Address;
  /** 'logs': the factory's creation logs; 'pairs': a factory lookup per (token, base token) pair and fee. */
  readonly method: 'logs' | 'pairs';
  /** logs: the blocks this run scanned (none when the previous run had scanned up to the head). */
  readonly fromBlock?: number;
  readonly toBlock?: number;
  /** Pools of this DEX known after the run, both tokens catalogued (logs: with those of earlier runs). */
  readonly pools: number;
  /** logs: pools whose creation this run's scan saw. */
  readonly newPools?: number;
  /** pairs: why the logs were not used (no deployment block in the catalogue, the endpoint refused them). */
  readonly reason?: string;
  /**
   * pairs, when the endpoint refused the logs: pools an earlier run's creation-log scan found (the previous
   * snapshot's pools and `unlisted`) that are kept, pairs of two non-base tokens included (in `pools` too).
   */
  readonly carried?: number;
}

/** Options of a discovery. */
export interface DiscoverOptions {
  readonly chain: CatalogChain;
  /** The pinned head: logs are scanned up to it. */
  readonly head: number;
  /** Catalogued ERC-20s (lower case) that passed their checks: only their pools are read. */
  readonly usable: ReadonlySet<string>;
  /** The chain's previous snapshot from this seeding folder, whose `discovery` says which blocks are done. */
  readonly previous?: Snapshot;
  readonly getLogs: (method: 'eth_getLogs', params: unknown[]) => Promise<RangeLog[]>;
  /** Runs the pair lookups (factory reads through Multicall3 at the head). */
  readonly lookup: (calls: ReadCall<Address>[]) => Promise<(Address | undefined)[]>;
  /** First eth_getLogs range in blocks (halved while the endpoint refuses it). */
  readonly logRange: number;
  /** Most eth_getLogs requests a scan may take before it gives way to pair lookups. */
  readonly maxLogRequests: number;
}

/** What discovery found: the pools to read, what the logs cover (the snapshot's `discovery`), and how. */
export interface Discovered {
  /** Pools to read, both tokens usable, each once. */
  readonly pools: PoolToRead[];
  /** Every pool the logs know of, both tokens catalogued (what is not read into `pools` becomes `unlisted`). */
  readonly logPools: readonly PoolToRead[];
  /** The snapshot's `discovery` without `unlisted`, or undefined when no DEX used logs. */
  readonly coverage?: Omit<SnapshotDiscovery, 'unlisted'>;
  readonly dexes: readonly DexDiscovery[];
  /** Pair lookups made (discovery candidates) and eth_getLogs requests. */
  readonly candidates: number;
  readonly logRequests: number;
}

const lower = (a: string): string => a.toLowerCase();

/**
 * Whether a pool's token is one of `tokens` (lower case), or the native asset as v4 pools hold it (currency
 * 0x0000…0000: no wrapped token), which every EVM chain has.
 */
export function heldToken(tokens: ReadonlySet<string>, token: string): boolean {
  return tokens.has(lower(token)) || lower(token) === zeroAddress;
}

/**
 * Blocks below the previous run's last scanned one that the next run scans again, so that a pool created in a block
 * that replaced one of them in a reorg is not missed (as deep as the follower's default undo history).
 */
export const REORG_OVERLAP = 64;

/** The digest of a chain's catalogued ERC-20s that a snapshot's `discovery.tokens` records. */
export function catalogTokensDigest(chain: CatalogChain): string {
  return keccak256(stringToHex(pairTokens(chain).map(lower).join(',')));
}

/** The snapshot's record of pools the logs found that are not in its `pools`. */
export function unlistedPools(logPools: readonly PoolToRead[], listed: readonly { readonly address: string }[]): SnapshotPoolIdentity[] {
  const inPools = new Set(listed.map((p) => lower(p.address)));
  return logPools
    .filter((p) => !inPools.has(lower(p.address)))
    .map(({ address, dex, version, token0, token1, fee, key }) => ({
      address,
      dex,
      version: version as SnapshotPool['version'],
      token0,
      token1,
      fee,
      ...(key ? { key } : {}),
    }))
    .sort((a, b) => (lower(a.address) < lower(b.address) ? -1 : 1));
}

/** A catalogue DEX as a factory's creation logs name it: its slug, version and (v2) the one fee of its pools. */
export interface FactoryDex {
  readonly dex: string;
  readonly version: SnapshotPool['version'];
  readonly factory: Address;
  readonly fee: number;
  /** What each of its pools needs read beyond its identity (PoolSource.discovery's key: Balancer's Vault and factories). */
  readonly key?: PoolReadKey;
}

/** The chain's DEXes by factory address (lower case), each with its protocol's discovery (registry.poolSource). */
export function dexesByFactory(chain: CatalogChain): Map<string, FactoryDex[]> {
  const out = new Map<string, FactoryDex[]>();
  for (const dex of chain.dexes) {
    const found = poolSource(dex.version).discovery(dex);
    if (!found) continue;
    const factory = getAddress(found.factory);
    out.set(lower(factory), [
      ...(out.get(lower(factory)) ?? []),
      { dex: dex.slug, version: dex.version, factory, fee: found.fees[0] ?? 0, ...(found.key ? { key: found.key } : {}) },
    ]);
  }
  return out;
}

/**
 * The rule of which created pools are kept, for seeding and the follower alike: a creation log of a catalogued
 * DEX's factory (its protocol's PoolSource.created) whose two tokens are both in `tokens` (lower case), as a pool to
 * read; its fee is the event's (v3, any tier) or the DEX's one fee (v2). Undefined for anything else.
 */
export function keptCreation(
  log: PoolLog,
  dexes: ReadonlyMap<string, readonly FactoryDex[]>,
  tokens: ReadonlySet<string>,
): PoolToRead | undefined {
  for (const d of dexes.get(lower(log.address)) ?? []) {
    const created = poolSource(d.version).created(log);
    if (created) return keptPool(log.address, d.version, created, dexes, tokens);
  }
  return undefined;
}

/**
 * keptCreation's rule for a pool already decoded (a creation log, or a follower's reads of who made an unknown pool):
 * `factory` is a catalogued DEX's of that protocol version and both tokens are in `tokens`.
 */
export function keptPool(
  factory: string,
  version: SnapshotPool['version'],
  created: CreatedPool,
  dexes: ReadonlyMap<string, readonly FactoryDex[]>,
  tokens: ReadonlySet<string>,
): PoolToRead | undefined {
  const d = dexes.get(lower(factory))?.find((x) => x.version === version);
  if (!d) return undefined;
  const key = created.key ?? d.key;
  const { tokens: all, ...pool } = created;
  if (all) {
    // A pool of more than two tokens (Balancer): kept with two of them in `tokens`; its pair is its two lowest there.
    const held = all.filter((t) => tokens.has(lower(t)));
    if (held.length < 2) return undefined;
    return {
      ...pool,
      token0: held[0],
      token1: held[1],
      dex: d.dex,
      version: d.version,
      fee: created.fee ?? d.fee,
      ...(key ? { key } : {}),
    };
  }
  if (!heldToken(tokens, created.token0) || !heldToken(tokens, created.token1)) return undefined;
  return { ...pool, dex: d.dex, version: d.version, fee: created.fee ?? d.fee, ...(key ? { key } : {}) };
}

interface LogDex extends FactoryDex {
  /** First block to scan: the deployment block, or the block after the previous run's last. */
  readonly start: number;
  /** The previous run's last scanned block, when it scanned this factory. */
  readonly scannedTo?: number;
  readonly known: PoolToRead[];
}

/**
 * Finds a chain's pools. Each DEX whose catalogue entry has a factoryDeploymentBlock is found from its factory's
 * creation logs (its protocol's PoolSource: creationTopic, created), from that block, or from the block after the
 * previous snapshot's last scanned one (less REORG_OVERLAP blocks), to the head, keeping every pool whose two tokens
 * are catalogued (pairs of two non-base tokens included). The other DEXes, and all of them when the endpoint refuses
 * the logs (no history, ranges too small to finish within maxLogRequests), are found by pair lookups
 * (discoveryCandidates); a refused scan keeps the pools and the coverage the previous snapshot's scans recorded.
 */
export async function discoverPools(o: DiscoverOptions): Promise<Discovered> {
  const { chain } = o;
  const catalogued = new Set(pairTokens(chain).map(lower));
  const digest = catalogTokensDigest(chain);
  const before = o.previous?.chainId === chain.chainId && o.previous.discovery?.tokens === digest ? o.previous : undefined;
  const logDexes: LogDex[] = [];
  const pairDexes = new Map<string, { reason: string; factory: Address; version: SnapshotPool['version'] }>();
  for (const dex of chain.dexes) {
    const found = poolSource(dex.version).discovery(dex);
    if (!found) continue;
    const factory = getAddress(found.factory);
    if (found.fromBlock === undefined) {
      pairDexes.set(`${dex.slug}/${dex.version}`, { reason: 'no factoryDeploymentBlock in the catalogue', factory, version: dex.version });
      continue;
    }
    const scanned = before?.discovery?.scanned.find(
      (s) => s.dex === dex.slug && s.version === dex.version && lower(s.factory) === lower(factory) && s.toBlock <= o.head,
    );
    const ofDex = (p: SnapshotPoolIdentity): boolean => p.dex === dex.slug && p.version === dex.version;
    const known: PoolToRead[] = scanned
      ? [...before!.pools.filter(ofDex).map(identityOf), ...before!.discovery!.unlisted.filter(ofDex)].map((p) => toRead(p.address, p))
      : [];
    logDexes.push({
      dex: dex.slug,
      version: dex.version,
      factory,
      fee: found.fees[0] ?? 0,
      ...(found.key ? { key: found.key } : {}),
      start: scanned ? Math.max(found.fromBlock, scanned.toBlock + 1 - REORG_OVERLAP) : found.fromBlock,
      ...(scanned ? { scannedTo: scanned.toBlock } : {}),
      known,
    });
  }

  const scan = await scanCreations(o, logDexes, catalogued);
  const dexes: DexDiscovery[] = [];
  const logPools: PoolToRead[] = [];
  if (scan.ok) {
    for (const d of logDexes) {
      const seen = new Set(d.known.map((p) => lower(p.address)));
      const fresh = scan.found.filter((p) => p.dex === d.dex && p.version === d.version && !seen.has(lower(p.address)));
      const all = [...d.known, ...fresh];
      logPools.push(...all);
      const blocks = d.start <= o.head ? { fromBlock: d.start, toBlock: o.head } : {};
      dexes.push({
        dex: d.dex,
        version: d.version,
        factory: d.factory,
        method: 'logs',
        ...blocks,
        pools: all.length,
        newPools: fresh.length,
      });
    }
  } else {
    // Pair lookups stand in, and the pools an earlier creation-log scan found stay (non-base pairs would be lost).
    for (const d of logDexes) {
      pairDexes.set(`${d.dex}/${d.version}`, { reason: scan.reason, factory: d.factory, version: d.version });
      logPools.push(...d.known);
    }
  }

  const candidates = discoveryCandidates(chain, o.usable).filter((c) => pairDexes.has(`${c.dex}/${c.version}`));
  const looked =
    candidates.length === 0
      ? []
      : await o.lookup(candidates.map((c) => poolSource(c.version).findPool(c.factory, c.token0, c.token1, c.fee)));
  const pairPools: PoolToRead[] = [];
  const seenPairs = new Set<string>();
  candidates.forEach((c, i) => {
    const a = looked[i];
    if (!a || a === zeroAddress || seenPairs.has(lower(a))) return;
    seenPairs.add(lower(a));
    pairPools.push(toRead(getAddress(a), c));
  });
  for (const [key, p] of pairDexes) {
    const [dex, version] = key.split('/');
    const ofDex = (x: PoolToRead): boolean => x.dex === dex && x.version === version;
    const carried = logPools.filter(ofDex);
    const pools = new Set([...pairPools.filter(ofDex), ...carried].map((x) => lower(x.address))).size;
    dexes.push({
      dex,
      version: p.version,
      factory: p.factory,
      method: 'pairs',
      pools,
      reason: p.reason,
      ...(carried.length > 0 ? { carried: carried.length } : {}),
    });
  }

  const usable = (p: PoolToRead): boolean => heldToken(o.usable, p.token0) && heldToken(o.usable, p.token1);
  const pools = new Map<string, PoolToRead>();
  for (const p of [...logPools.filter(usable), ...pairPools]) if (!pools.has(lower(p.address))) pools.set(lower(p.address), p);
  // A refused scan keeps what the previous runs covered, so a later run with the logs resumes from there.
  const covered = scan.ok
    ? logDexes.map((d) => ({ dex: d.dex, version: d.version, factory: d.factory, toBlock: o.head }))
    : logDexes.flatMap((d) =>
        d.scannedTo === undefined ? [] : [{ dex: d.dex, version: d.version, factory: d.factory, toBlock: d.scannedTo }],
      );
  const coverage = covered.length > 0 ? { tokens: digest, scanned: covered } : undefined;
  return {
    pools: [...pools.values()],
    logPools,
    ...(coverage ? { coverage } : {}),
    dexes: dexes.sort((a, b) => (`${a.dex}/${a.version}` < `${b.dex}/${b.version}` ? -1 : 1)),
    candidates: candidates.length,
    logRequests: scan.requests,
  };
}

function toRead(address: string, p: Omit<SnapshotPoolIdentity, 'address'>): PoolToRead {
  return {
    address: poolAddress(address),
    dex: p.dex,
    version: p.version,
    token0: getAddress(p.token0),
    token1: getAddress(p.token1),
    fee: p.fee,
    ...(p.key ? { key: p.key } : {}),
  };
}

/** A snapshot pool's identity, with what reading it again needs beyond it (PoolSource.keyOf: v4's PoolKey). */
export function identityOf(p: SnapshotPool): SnapshotPoolIdentity {
  const key = poolSource(p.version).keyOf?.(p);
  return { address: p.address, dex: p.dex, version: p.version, token0: p.token0, token1: p.token1, fee: p.fee, ...(key ? { key } : {}) };
}

type Scan = { ok: true; found: PoolToRead[]; requests: number } | { ok: false; reason: string; requests: number };

/**
 * One scan over every log DEX's factory (one address list, one topic list) from the earliest start to the head; a
 * creation whose tokens are both catalogued becomes a pool of the DEX whose factory and protocol emitted it.
 */
async function scanCreations(o: DiscoverOptions, logDexes: readonly LogDex[], catalogued: ReadonlySet<string>): Promise<Scan> {
  const due = logDexes.filter((d) => d.start <= o.head);
  if (due.length === 0) return { ok: true, found: [], requests: 0 };
  const from = Math.min(...due.map((d) => d.start));
  const byFactory = new Map<string, LogDex[]>();
  for (const d of due) byFactory.set(lower(d.factory), [...(byFactory.get(lower(d.factory)) ?? []), d]);
  const start = new Map(due.map((d) => [`${d.dex}/${d.version}`, d.start]));
  const topics = [...new Set(due.map((d) => poolSource(d.version).creationTopic))];
  let requests = 0;
  const getLogs: DiscoverOptions['getLogs'] = (method, params) => {
    requests++;
    return o.getLogs(method, params);
  };
  try {
    const scan = await scanLogs(getLogs, { address: [...byFactory.keys()], topics: [topics] }, from, o.head, {
      range: o.logRange,
      maxRequests: o.maxLogRequests,
    });
    const found: PoolToRead[] = [];
    for (const log of scan.logs) {
      const pool = keptCreation(log, byFactory, catalogued);
      if (pool && Number(log.blockNumber) >= start.get(`${pool.dex}/${pool.version}`)!) found.push(pool);
    }
    return { ok: true, found, requests };
  } catch (err) {
    return { ok: false, reason: `eth_getLogs refused (${shortError(err)})`, requests };
  }
}
