// What a seeding run (seedChains.ts) is given and what it reports, per chain and in all: the contract between the
// run and its callers (the seeding CLI, the follower's re-seed, the report printer, tests and benches).
import type { CatalogChain } from '../catalog/Catalog.ts';
import type { Snapshot, SnapshotExcludedToken } from '../graph/snapshot.ts';
import type { DexDiscovery } from './discoverPools.ts';

/** Options of a seeding run. */
export interface SeedOptions {
  /** Catalogue chains to seed (already selected). */
  readonly chains: readonly CatalogChain[];
  /** RPC endpoint per chain id (RPC_URL_<chainId>). */
  readonly rpcUrls: ReadonlyMap<number, string>;
  /** Folder the snapshots are written to (<slug>.json). */
  readonly snapshotDir: string;
  /** Half-width of the tick-bitmap window around each v3 pool's current word (default 20: words w-20..w+20). */
  readonly tickWindowWords?: number;
  /** Bound on calls per Multicall3 request (default 500). */
  readonly batchSize?: number;
  /** Multicall requests in flight per chain (default 4). */
  readonly concurrency?: number;
  /** Retries of a transient RPC failure (default 3), first backoff in ms (default 250, doubling). */
  readonly retries?: number;
  readonly backoffMs?: number;
  /** Per-request timeout in ms (default 15000). */
  readonly timeoutMs?: number;
  /** 'auto' (default): bar on a TTY, lines otherwise. */
  readonly progress?: 'auto' | 'bar' | 'lines' | 'none';
  /** Where log lines go (default console.log). */
  readonly log?: (line: string) => void;
  /** First eth_getLogs range of creation-log discovery, in blocks (default 100000; halved while the endpoint refuses it). */
  readonly logRange?: number;
  /** Most eth_getLogs requests one chain's creation-log scan may take before pair lookups stand in (default 20000). */
  readonly maxLogRequests?: number;
  /** Scan every factory's creation logs from its deployment block, ignoring what the previous snapshot covered (default false). */
  readonly rescan?: boolean;
  /** Write snapshot files (default true). */
  readonly write?: boolean;
  /**
   * The chains were named by the user (`--chain`): one that cannot be tried (no RPC URL, not EVM) is `failed`, not
   * `skipped` (default false: every catalogue chain, those without an RPC URL are let be).
   */
  readonly named?: boolean;
}

/** Outcome of one chain. */
export interface ChainSeedReport {
  readonly chainId: number;
  readonly slug: string;
  /**
   * `seeded`; `failed`: tried and not seeded (dead endpoint, wrong chain id, no Multicall3, a read that failed), or
   * named but not triable; `skipped`: not named and not triable (no RPC URL, not EVM), so not tried.
   */
  readonly status: 'seeded' | 'failed' | 'skipped';
  /** Why the chain failed or was skipped. */
  readonly reason?: string;
  readonly blockNumber?: number;
  readonly pools: number;
  readonly v2Pools: number;
  readonly v3Pools: number;
  /** Initialized ticks read. */
  readonly ticks: number;
  /** Discovery candidates (getPair / getPool calls) of the DEXes found by pair lookups. */
  readonly candidates: number;
  /** How each DEX's pools were found: creation logs (the blocks scanned) or pair lookups (and why). */
  readonly discovery: readonly DexDiscovery[];
  /** eth_getLogs requests of the creation-log scan. */
  readonly logRequests: number;
  /**
   * Calls made through Multicall3, by phase: the v3 routers' own facts (src/chain/routerFacts.ts), token metadata,
   * discovery, pool state, transfer probes, approval probes, tick bitmap words, ticks.
   */
  readonly calls: {
    readonly routers: number;
    readonly tokens: number;
    readonly discovery: number;
    readonly state: number;
    readonly probe: number;
    readonly approve: number;
    readonly bitmap: number;
    readonly ticks: number;
  };
  /** Tokens whose pools were left out, and why (also in the snapshot). */
  readonly excludedTokens: readonly SnapshotExcludedToken[];
  /** HTTP requests to the chain's endpoint (retries included). */
  readonly rpcRequests: number;
  readonly seconds: number;
  /** Snapshot file written (absent when skipped or write = false). */
  readonly file?: string;
  /** The snapshot (seeded chains only). */
  readonly snapshot?: Snapshot;
}

/** Outcome of a seeding run. */
export interface SeedReport {
  readonly chains: readonly ChainSeedReport[];
  readonly seeded: number;
  readonly failed: number;
  readonly skipped: number;
  readonly pools: number;
  readonly rpcRequests: number;
  readonly seconds: number;
}
