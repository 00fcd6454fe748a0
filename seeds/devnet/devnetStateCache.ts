import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import type { Hex } from 'viem';
import { jsonRpc } from './jsonRpc.ts';
import { anvilBinary } from './startAnvil.ts';

/**
 * A cache of deployed devnet chains: anvil's state dump (accounts, storage, every block, transaction and receipt, and
 * the historical states) after a deployment, with what the deployers returned beside it, one entry per content key
 * (devnetCacheKey). A devnet started from an entry (anvil --load-state) has the same blocks, hashes, logs, nonces and
 * addresses as one deployed afresh, in a fraction of the time.
 *
 * Entries live under `.data/devnet-cache/` (DEVNET_CACHE_DIR overrides; DEVNET_CACHE=off deploys afresh every time).
 * An entry is a folder `<key>/` holding `state.json` and `devnet.json`; it is written under another name and renamed
 * into place once complete, so a half-written entry is never read. The process that builds an entry holds
 * `<key>.lock/` (a folder, created atomically, with its PID inside); others wait for the entry, and take over a lock
 * whose process is gone.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Files and folders (relative to the project root) whose content determines a deployment. */
const KEY_SOURCES = ['seeds/devnet', 'src/amm', 'package-lock.json'];
/** Folders under KEY_SOURCES that are installed, not sources (their lock file is hashed instead). */
const SKIPPED = new Set(['node_modules', '.install-lock']);
/** How long a process waits for another to build an entry before it deploys afresh without the cache. */
const WAIT_MS = 10 * 60_000;
/** Entries not used for this long are removed when a new entry is written (a changed key leaves its old entries). */
const UNUSED_MS = 7 * 86_400_000;
/** A lock folder with no PID file yet (its owner is between mkdir and write) is taken over after this long. */
const PIDLESS_STALE_MS = 30_000;

/** The cache folder: DEVNET_CACHE_DIR, else `.data/devnet-cache/` in the project; undefined when DEVNET_CACHE=off. */
export function devnetCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.DEVNET_CACHE === 'off' || env.DEVNET_CACHE === '0' || env.DEVNET_CACHE === 'false') return undefined;
  const override = env.DEVNET_CACHE_DIR;
  return override !== undefined && override !== '' ? override : join(ROOT, '.data', 'devnet-cache');
}

function hashTree(hash: ReturnType<typeof createHash>, path: string): void {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return;
  if (stat.isDirectory()) {
    for (const name of readdirSync(path).sort()) if (!SKIPPED.has(name)) hashTree(hash, join(path, name));
    return;
  }
  hash.update(`${relative(ROOT, path)}\0${stat.size}\0`);
  hash.update(readFileSync(path));
}

let sourcesDigest: string | undefined;

/** sha256 of the deployment's sources (seeds/devnet/**, src/amm/**, package-lock.json) and the anvil version. */
function deploymentSourcesDigest(): string {
  if (sourcesDigest !== undefined) return sourcesDigest;
  const hash = createHash('sha256');
  for (const source of KEY_SOURCES) hashTree(hash, join(ROOT, source));
  hash.update(execFileSync(anvilBinary(), ['--version'], { encoding: 'utf8' }));
  sourcesDigest = hash.digest('hex');
  return sourcesDigest;
}

/** The key of a deployment: its options (chain id and deployed parts) and the digest of everything it is built from. */
export function devnetCacheKey(options: Readonly<Record<string, number | boolean>>): string {
  const parts = Object.keys(options)
    .sort()
    .map((k) => `${k}=${options[k]}`)
    .join(',');
  return createHash('sha256').update(`${parts}\n${deploymentSourcesDigest()}`).digest('hex').slice(0, 32);
}

/** JSON with bigints kept (as {"$bigint": "123"}). */
function toJson(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? { $bigint: v.toString() } : v), 2);
}
function fromJson<T>(text: string): T {
  return JSON.parse(text, (_k, v) =>
    v !== null && typeof v === 'object' && Object.keys(v).length === 1 && typeof v.$bigint === 'string' ? BigInt(v.$bigint) : v,
  ) as T;
}

/** A complete cache entry: the state file for anvil --load-state and what the deployment returned. */
export interface DevnetCacheHit<T> {
  readonly stateFile: string;
  readonly deployment: T;
}

/** The right to build an entry (the lock is held): `save` writes it from a running node, `release` drops the lock. */
export interface DevnetCacheBuild<T> {
  save(rpcUrl: string, deployment: T): Promise<void>;
  release(): void;
}

function readEntry<T>(entry: string): DevnetCacheHit<T> | undefined {
  const meta = join(entry, 'devnet.json');
  if (!existsSync(meta)) return undefined;
  const now = new Date();
  utimesSync(meta, now, now);
  return { stateFile: join(entry, 'state.json'), deployment: fromJson<T>(readFileSync(meta, 'utf8')) };
}

function lockOwnerGone(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
  } catch {
    try {
      return Date.now() - statSync(lock).mtimeMs > PIDLESS_STALE_MS;
    } catch {
      return true;
    }
  }
  return !alive(pid);
}

/**
 * The cache entry `key` in `dir`: a hit when it is complete; else the lock to build it (after waiting while another
 * process builds it); undefined when waiting timed out (the caller deploys without the cache).
 */
export async function openDevnetCache<T>(dir: string, key: string): Promise<DevnetCacheHit<T> | DevnetCacheBuild<T> | undefined> {
  mkdirSync(dir, { recursive: true });
  const entry = join(dir, key);
  const lock = join(dir, `${key}.lock`);
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const hit = readEntry<T>(entry);
    if (hit) return hit;
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      const again = readEntry<T>(entry);
      if (again) {
        rmSync(lock, { recursive: true, force: true });
        return again;
      }
      return buildHandle<T>(dir, key, lock);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (lockOwnerGone(lock)) {
      rmSync(lock, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) return undefined;
    await new Promise((r) => setTimeout(r, 200));
  }
}

function buildHandle<T>(dir: string, key: string, lock: string): DevnetCacheBuild<T> {
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    rmSync(lock, { recursive: true, force: true });
  };
  process.once('exit', release);
  return {
    async save(rpcUrl, deployment) {
      const dump = await jsonRpc<Hex>(rpcUrl, 'anvil_dumpState');
      const tmp = join(dir, `${key}.tmp-${process.pid}`);
      rmSync(tmp, { recursive: true, force: true });
      mkdirSync(tmp);
      writeFileSync(join(tmp, 'state.json'), gunzipSync(Buffer.from(dump.slice(2), 'hex')));
      writeFileSync(join(tmp, 'devnet.json'), toJson(deployment));
      renameSync(tmp, join(dir, key));
      pruneUnused(dir);
    },
    release,
  };
}

/** Whether process `pid` is running. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/**
 * Removes the entries whose devnet.json was last used (read or written) more than UNUSED_MS ago, and the half-written
 * folders of builders that are gone.
 */
function pruneUnused(dir: string): void {
  for (const name of readdirSync(dir)) {
    const tmp = /^[0-9a-f]{32}\.tmp-(\d+)$/.exec(name);
    if (tmp && !alive(Number(tmp[1]))) rmSync(join(dir, name), { recursive: true, force: true });
    if (!/^[0-9a-f]{32}$/.test(name)) continue;
    const used = statSync(join(dir, name, 'devnet.json'), { throwIfNoEntry: false })?.mtimeMs ?? 0;
    if (Date.now() - used > UNUSED_MS) rmSync(join(dir, name), { recursive: true, force: true });
  }
}

/** Whether `x` is a hit (a complete entry) rather than the lock to build one. */
export function isCacheHit<T>(x: DevnetCacheHit<T> | DevnetCacheBuild<T>): x is DevnetCacheHit<T> {
  return 'stateFile' in x;
}
