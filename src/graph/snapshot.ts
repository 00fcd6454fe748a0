import { closeSync, existsSync, fstatSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { workerData } from 'node:worker_threads';
import type { ErrorObject } from 'ajv';
import { newAjv } from '../ajv.ts';
import type { CatalogDex } from '../catalog/Catalog.ts';
import { projectRoot } from '../config.ts';
import type { PoolReadKey } from '../protocols/PoolSource.ts';
import { type SnapshotPool, snapshotProtocol } from '../protocols/registry.ts';
import { parseSnapshotBytes, type ReducedValidator, tickRegionList } from './parseSnapshotBytes.ts';

/**
 * A catalogue token the seeding run left out of `pools`, and why: its decimals() or symbol() disagree with the
 * catalogue ('metadata'), a transfer out of or into one of its pools loses part of the amount ('transferFee', with
 * the fees measured), or such a transfer could not be simulated ('transferFailed'). Quotes for it are refused.
 */
export interface SnapshotExcludedToken {
  readonly address: string;
  readonly reason: 'metadata' | 'transferFee' | 'transferFailed';
  /** What was found, in words. */
  readonly detail: string;
  /** transferFee: share of a transfer out of a pool (a buy) that does not arrive, basis points. */
  readonly buyFeeBps?: number;
  /** transferFee: share of a transfer into a pool (a sell) that does not arrive, basis points. */
  readonly sellFeeBps?: number;
  /** The token's pools that were found and left out. */
  readonly pools: readonly string[];
}

/** A pool as discovery found it: where it is, its DEX and version, its tokens and fee. */
export interface SnapshotPoolIdentity {
  /** The pool contract; a v4 pool's poolId. */
  readonly address: string;
  readonly dex: string;
  readonly version: SnapshotPool['version'];
  readonly token0: string;
  readonly token1: string;
  readonly fee: number;
  /** v4: the PoolKey beyond currencies and fee, from its Initialize log; Balancer: its Vault and factories (PoolToRead.key). */
  readonly key?: PoolReadKey;
}

/**
 * What the seeding run's log discovery (src/chain/discoverPools.ts) has covered, so the next run scans only the
 * blocks after it: the catalogue tokens it filtered by, the last block scanned per factory, and the pools it found
 * that are not in `pools`.
 */
export interface SnapshotDiscovery {
  /** keccak256 of the catalogue's ERC-20 addresses (lower case, sorted, comma-joined): another token list rescans from the start. */
  readonly tokens: string;
  /** Per DEX whose factory's creation logs were scanned: the last block scanned. */
  readonly scanned: readonly {
    readonly dex: string;
    readonly version: SnapshotPool['version'];
    readonly factory: string;
    readonly toBlock: number;
  }[];
  /** Pools the logs found, both tokens catalogued, that are not in `pools` (a token left out, state not readable yet): read again next run. */
  readonly unlisted: readonly SnapshotPoolIdentity[];
}

/**
 * A v3 router of the catalogue as it answered the seeding run (src/chain/routerFacts.ts): its factory() and WETH9(),
 * which the run checked against the catalogue, and for a SwapRouter02 or SmartRouter the v2 factory it was deployed with
 * (factoryV2(); absent when the router does not answer it), whose pairs it swaps too (src/graph/servedChain.ts).
 */
export interface SnapshotRouter {
  readonly dex: string;
  readonly version: 'v3';
  readonly kind: Exclude<CatalogDex['v3RouterKind'], ''>;
  readonly address: string;
  readonly factory: string;
  readonly weth9: string;
  readonly factoryV2?: string;
}

/** One chain's pool state at one block, as written by the seeding run. */
export interface Snapshot {
  readonly formatVersion: 1;
  readonly chainId: number;
  readonly blockNumber: number;
  /**
   * That block's hash, when the writer recorded it (the seeding run and the follower do; the shipped devnet snapshots
   * do not, as a devnet started later has other hashes): a follower starting from the snapshot checks
   * the chain still has it, else (the block was reorganised away) it seeds afresh. Absent: not checked.
   */
  readonly blockHash?: string;
  readonly blockTimestamp: number;
  /**
   * The chain's gas price at blockNumber in wei (decimal string): the block's baseFeePerGas plus the endpoint's
   * eth_maxPriorityFeePerGas, or eth_gasPrice where there is no base fee. Absent in snapshots written before the
   * field existed: see snapshotGasPriceWei for what that means.
   */
  readonly gasPriceWei?: string;
  readonly seededAt: string;
  readonly tickWindowWords: number;
  /**
   * totalSupply() of the chain's ERC-20s (integer strings in smallest units, by address): read at blockNumber by the
   * seeding run; a follower's snapshot carries its last refresh. Absent in older snapshots (market caps unknown).
   */
  readonly totalSupplies?: Readonly<Record<string, string>>;
  /** Each pool's state as its protocol defines it (src/protocols/), told apart by `version`. */
  readonly pools: readonly SnapshotPool[];
  /** Tokens whose pools were left out (absent in older snapshots: none). */
  readonly excludedTokens?: readonly SnapshotExcludedToken[];
  /**
   * Tokens whose approve reverted (or returned false) over a non-zero allowance and worked after a reset to 0, as
   * the seeding run's probe found (src/chain/probeApprovalResets.ts); absent: none found, or an older snapshot.
   */
  readonly approvalResetTokens?: readonly string[];
  /** What creation-log discovery covered (absent: every pool was found by pair lookups, or an older snapshot). */
  readonly discovery?: SnapshotDiscovery;
  /** The catalogue's v3 routers as they answered the seeding run (absent: none catalogued, or an older snapshot). */
  readonly routers?: readonly SnapshotRouter[];
}

/**
 * The gas price a snapshot recorded, in wei. A snapshot without `gasPriceWei` (written before the field existed)
 * gives 0: gas is then not priced, and trades rank by gross output, as with a request's gasPriceWei "0".
 */
export function snapshotGasPriceWei(snapshot: Pick<Snapshot, 'gasPriceWei'>): bigint {
  return snapshot.gasPriceWei === undefined ? 0n : BigInt(snapshot.gasPriceWei);
}

/** The outcome of reading a snapshot folder: the valid snapshots and a message per refused file. */
export interface SnapshotLoad {
  readonly snapshots: Snapshot[];
  readonly errors: string[];
}

let validator: (((data: unknown) => boolean) & { errors?: ErrorObject[] | null }) | undefined;

let reducedValidator: ReducedValidator | undefined;

function readSchema(): { definitions: { pool: { properties: Record<string, unknown> } } } {
  return JSON.parse(readFileSync(join(projectRoot, 'seeds', 'snapshot.schema.json'), 'utf8')) as {
    definitions: { pool: { properties: Record<string, unknown> } };
  };
}

/** The snapshot schema with each pool's `ticks` replaced by parseSnapshotBytes's placeholder string. */
function reducedSnapshotValidator(): ReducedValidator {
  if (!reducedValidator) {
    const schema = readSchema();
    schema.definitions.pool.properties.ticks = { type: 'string' };
    reducedValidator = newAjv(false).compile(schema);
  }
  return reducedValidator;
}

function validateSnapshot(data: unknown): string | undefined {
  if (!validator) validator = newAjv(false).compile(readSchema());
  if (validator(data)) return undefined;
  const e = validator.errors?.[0];
  return e ? `${e.instancePath || '(root)'}: ${e.message ?? 'is invalid'}` : 'is invalid';
}

/** Parses and validates one snapshot file's text; returns the snapshot or a message saying why it is refused. */
export function parseSnapshot(text: string): Snapshot | string {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return `not valid JSON (${(error as Error).message})`;
  }
  const invalid = validateSnapshot(data);
  if (invalid) return invalid;
  const snapshot = data as Snapshot;
  const problem = checkPools(snapshot);
  if (problem) return problem;
  for (const [i, pool] of snapshot.pools.entries()) {
    const problem = snapshotProtocol(pool.version).checkSnapshot(pool);
    if (problem) return `/pools/${i}/${problem}`;
  }
  return snapshot;
}

/** token0 sorts below token1 in every pool (the fast path's scanner checks tick order itself). */
function checkPools(snapshot: Snapshot): string | undefined {
  const pools = snapshot.pools;
  for (let i = 0; i < pools.length; i++) {
    if (pools[i].token0.toLowerCase() >= pools[i].token1.toLowerCase()) return `/pools/${i}: token0 must sort below token1`;
  }
  return undefined;
}

/** Reads every `*.json` snapshot in a folder; invalid files are refused (listed in `errors`), never half-used. */
export function loadSnapshots(dir: string): SnapshotLoad {
  const { snapshots, errors } = readSnapshotFolder(dir);
  return { snapshots, errors };
}

/** loadSnapshots, and the file name of each snapshot. */
function readSnapshotFolder(dir: string): SnapshotLoad & { files: string[] } {
  const snapshots: Snapshot[] = [];
  const errors: string[] = [];
  const names: string[] = [];
  let files: string[];
  try {
    files = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort();
  } catch (error) {
    return {
      snapshots,
      errors: [`${dir}: cannot read snapshot folder (${(error as NodeJS.ErrnoException).code ?? 'error'})`],
      files: names,
    };
  }
  const seen = new Map<number, string>();
  for (const file of files) {
    let read: SharedRead;
    try {
      read = readShared(join(dir, file));
    } catch (error) {
      errors.push(`${file}: cannot read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
      continue;
    }
    const result = parseSnapshotFile(read.bytes, read.validated, read.file.ticks);
    if (typeof result === 'string') {
      errors.push(`${file}: ${result}`);
      continue;
    }
    read.file.ticks ??= tickRegionList(result);
    sources.set(result, `${read.file.path}\n${read.file.signature}`);
    const other = seen.get(result.chainId);
    if (other) {
      errors.push(`${file}: chain ${result.chainId} already has snapshot ${other}`);
      continue;
    }
    seen.set(result.chainId, file);
    snapshots.push(result);
    names.push(file);
  }
  return { snapshots, errors, files: names };
}

/**
 * The folders an instance reads snapshots from: `snapshotDir` (SNAPSHOT_DIR, where the seeding run and the follower
 * write; may not exist yet) over `shippedSnapshotDir` (the read-only cold start shipped in seeds/snapshots, or none).
 */
export interface SnapshotFolders {
  readonly snapshotDir: string;
  readonly shippedSnapshotDir?: string | undefined;
}

/** The snapshots an instance serves, and the file each chain's snapshot came from. */
export interface ServedSnapshotLoad extends SnapshotLoad {
  readonly files: ReadonlyMap<number, string>;
}

/**
 * Reads the snapshots an instance serves: per chain, the newer (higher block) of its snapshot in `snapshotDir` and
 * in `shippedSnapshotDir`, and `snapshotDir`'s on the same block. A missing `snapshotDir` holds nothing yet (a
 * fresh clone serves the shipped snapshots); a refused file of either folder is listed in `errors` (named with its
 * folder when it is the shipped one).
 */
export function loadServedSnapshots(folders: SnapshotFolders): ServedSnapshotLoad {
  const own = resolve(folders.snapshotDir);
  const shipped = folders.shippedSnapshotDir === undefined ? undefined : resolve(folders.shippedSnapshotDir);
  const seeded = existsSync(own) || own === shipped ? readSnapshotFolder(own) : { snapshots: [], errors: [], files: [] };
  const errors = [...seeded.errors];
  const chosen = new Map<number, { snapshot: Snapshot; file: string }>();
  if (shipped !== undefined && shipped !== own) {
    const base = readSnapshotFolder(shipped);
    errors.push(...base.errors.map((e) => (e.startsWith(`${shipped}:`) ? e : join(shipped, e))));
    base.snapshots.forEach((snapshot, i) => {
      chosen.set(snapshot.chainId, { snapshot, file: join(shipped, base.files[i]) });
    });
  }
  seeded.snapshots.forEach((snapshot, i) => {
    const other = chosen.get(snapshot.chainId);
    if (!other || snapshot.blockNumber >= other.snapshot.blockNumber)
      chosen.set(snapshot.chainId, { snapshot, file: join(own, seeded.files[i]) });
  });
  const served = [...chosen.values()].sort((a, b) =>
    basename(a.file) < basename(b.file) ? -1 : basename(a.file) > basename(b.file) ? 1 : 0,
  );
  return {
    snapshots: served.map((c) => c.snapshot),
    errors,
    files: new Map(served.map((c) => [c.snapshot.chainId, c.file])),
  };
}

/** Identity of a file version: a changed file never matches the bytes read before. */
function signature(st: { size: number; mtimeMs: number; ino: number; dev: number }): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`;
}

/** A snapshot file's bytes in shared memory, as the API process read (and validated) them. */
export interface SharedSnapshotFile {
  readonly path: string;
  readonly signature: string;
  readonly buffer: SharedArrayBuffer;
  /** Where its tick lists are (parseSnapshotBytes' tickRegionList), once the fast path has parsed it. */
  ticks?: Float64Array;
}

/** The file a read came from, and whether the API process validated its bytes (inherited). */
interface SharedRead {
  readonly bytes: Buffer;
  readonly validated: boolean;
  readonly file: SharedSnapshotFile;
}

/**
 * Each snapshot read from a file: that file's path and version (signature). Two snapshots with the same source were
 * parsed from identical bytes, in this thread or another (workerHandover.ts ties what it hands over to it).
 */
const sources = new WeakMap<object, string>();

/** The file version a snapshot was read from (undefined for one not read from a file, e.g. a followed block's state). */
export function snapshotSource(snapshot: Snapshot): string | undefined {
  return sources.get(snapshot);
}

const sharedFiles = new Map<string, SharedSnapshotFile>();
/** Files handed over by the API process (pricing workers): identical bytes, already validated there. */
const inherited = new Map<string, SharedSnapshotFile>();
for (const f of (workerData as { sharedSnapshotFiles?: SharedSnapshotFile[] } | null)?.sharedSnapshotFiles ?? []) inherited.set(f.path, f);

/**
 * Reads a file into shared memory (once per file version), so pricing workers parse the very same bytes
 * without reading or holding their own copy; the lazy tick lists of every thread point into it.
 */
function readShared(path: string): SharedRead {
  const fd = openSync(path, 'r');
  try {
    const stat = fstatSync(fd);
    const sig = signature(stat);
    const given = inherited.get(path);
    if (given && given.signature === sig) return { bytes: Buffer.from(given.buffer), validated: true, file: given };
    const known = sharedFiles.get(path);
    if (known && known.signature === sig) return { bytes: Buffer.from(known.buffer), validated: false, file: known };
    const size = stat.size;
    const buffer = new SharedArrayBuffer(size);
    const bytes = Buffer.from(buffer);
    for (let off = 0; off < size; ) {
      const n = readSync(fd, bytes, off, size - off, off);
      if (n === 0) throw Object.assign(new Error('file shrank while being read'), { code: 'EIO' });
      off += n;
    }
    const file: SharedSnapshotFile = { path, signature: sig, buffer };
    sharedFiles.set(path, file);
    return { bytes, validated: false, file };
  } finally {
    closeSync(fd);
  }
}

/** The snapshot files of a folder this process has read, for handing to pricing workers (workerData.sharedSnapshotFiles). */
export function sharedSnapshotFiles(dir: string): SharedSnapshotFile[] {
  const prefix = join(dir, '/');
  return [...sharedFiles.values()].filter((f) => f.path.startsWith(prefix));
}

/**
 * Reads one snapshot file as a folder load does (the fast path, else the full path's message), so that a process
 * that both seeds and serves compiles one snapshot schema, not two.
 */
export function readSnapshotFile(path: string): Snapshot | string {
  return parseSnapshotFile(readFileSync(path), false);
}

/**
 * Fast path for the bytes (see parseSnapshotBytes.ts), else the full JSON.parse + ajv path with its message. `ticks`:
 * the tick regions an earlier parse of these bytes found, taken only for bytes it validated.
 */
function parseSnapshotFile(bytes: Buffer, validated: boolean, ticks?: Float64Array): Snapshot | string {
  const fast = validated ? parseSnapshotBytes(bytes, null, ticks) : parseSnapshotBytes(bytes, reducedSnapshotValidator());
  if (fast !== undefined) {
    const problem = checkPools(fast as Snapshot);
    if (problem === undefined) return fast as Snapshot;
  }
  return parseSnapshot(bytes.toString('utf8'));
}
