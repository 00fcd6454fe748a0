/**
 * `@across-protocol/contracts` (AGPL-3.0-only, the published SpokePool, ERC1967Proxy, MintableERC20 and Multicall3
 * builds) lives outside the root install: every release with the SpokePool's `depositNow` declares node >=22.18.0,
 * which the Node lines package.json promises do not meet, so a root `npm ci` would warn (EBADENGINE). Its own small
 * package, seeds/devnet/across-contracts/ (package.json + package-lock.json, node_modules git-ignored), is installed
 * from the npm registry on first use: `npm ci` there, once, under a lock so parallel test files do not race. Only its
 * JSON artifacts (and one data file) are ever read; its code never runs here.
 */

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The side package's folder. */
export const ACROSS_CONTRACTS_DIR = fileURLToPath(new URL('./across-contracts/', import.meta.url));
/** How an npm path inside the package starts. */
export const ACROSS_CONTRACTS_PREFIX = '@across-protocol/contracts/';

const LOCK_DIR = join(ACROSS_CONTRACTS_DIR, '.install-lock');
/** Written last by a finished install: the hash of the package-lock.json it installed. */
const MARKER = join(ACROSS_CONTRACTS_DIR, 'node_modules', '.installed-lock-sha256');
const WAIT_MS = 600_000;
/** A lock directory without a pid this old was left by a holder that died before writing it. */
const PIDLESS_STALE_MS = 30_000;

/** The absolute path of a file of `@across-protocol/contracts` given by its npm path, installing the package on first use. */
export function resolveAcrossContracts(npmPath: string): string {
  if (!npmPath.startsWith(ACROSS_CONTRACTS_PREFIX))
    throw new Error(`resolveAcrossContracts: ${npmPath} is not in @across-protocol/contracts`);
  ensureInstalled();
  return createRequire(join(ACROSS_CONTRACTS_DIR, 'package.json')).resolve(npmPath);
}

function lockHash(): string {
  return createHash('sha256')
    .update(readFileSync(join(ACROSS_CONTRACTS_DIR, 'package-lock.json')))
    .digest('hex');
}

function installed(hash: string): boolean {
  try {
    return readFileSync(MARKER, 'utf8') === hash;
  } catch {
    return false;
  }
}

let done = false;

function ensureInstalled(): void {
  if (done) return;
  const hash = lockHash();
  if (!installed(hash)) {
    withLock(() => {
      if (installed(hash)) return; // another process installed it while this one waited
      process.stderr.write(`installing @across-protocol/contracts into ${ACROSS_CONTRACTS_DIR} (npm ci, first use only)\n`);
      try {
        // The package refuses this Node in its engines field only; its JSON artifacts do not care. No lifecycle scripts run.
        execFileSync(
          'npm',
          [
            'ci',
            '--prefix',
            ACROSS_CONTRACTS_DIR,
            '--ignore-scripts',
            '--engine-strict=false',
            '--no-audit',
            '--no-fund',
            '--loglevel=error',
          ],
          { stdio: ['ignore', 'ignore', 'pipe'] },
        );
      } catch (error) {
        const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
        throw new Error(`npm ci in ${ACROSS_CONTRACTS_DIR} failed${stderr ? `: ${stderr}` : ''} (it needs the npm registry once)`);
      }
      writeFileSync(MARKER, hash);
    });
  }
  done = true;
}

/** Runs `fn` holding the install lock: a directory (mkdir is atomic) naming its holder's pid, taken over when that process is gone. */
function withLock(fn: () => void): void {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      mkdirSync(LOCK_DIR);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (holderGone()) {
      rmSync(LOCK_DIR, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`resolveAcrossContracts: ${LOCK_DIR} still held after ${WAIT_MS / 1000} s`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
  }
  try {
    writeFileSync(join(LOCK_DIR, 'pid'), String(process.pid));
    fn();
  } finally {
    rmSync(LOCK_DIR, { recursive: true, force: true });
  }
}

/** True when the lock's holder process no longer runs (one that has not written its pid yet counts as running for a while). */
function holderGone(): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(LOCK_DIR, 'pid'), 'utf8'));
  } catch {
    try {
      return Date.now() - statSync(LOCK_DIR).mtimeMs > PIDLESS_STALE_MS;
    } catch {
      return false; // released meanwhile
    }
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
