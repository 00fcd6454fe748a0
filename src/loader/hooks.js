/**
 * Module hooks (registered by register.js): this project's own `.ts` files, outside node_modules, are compiled by
 * esbuild's `transform` with what tsx sets (keepNames, whitespace minified, the running Node as target, an inline
 * source map) and the tsconfig's compiler options; everything else goes to Node's own loader untouched. No resolve
 * hook: imports name the `.ts` file itself (allowImportingTsExtensions), which Node resolves.
 *
 * Compiled code is kept in `.data/ts-cache/`, one file per source named by the hash of its path and text, so the
 * many processes of a test run (and a restarted service) compile each file once. Each module still passes through
 * the hooks thread, but with one readFile and one hash where tsx does its resolution and format checks.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { threadId } from 'node:worker_threads';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CACHE_DIR = join(ROOT, '.data', 'ts-cache');
const compilerOptions = JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')).compilerOptions;
const esbuildVersion = createRequire(import.meta.url)('esbuild/package.json').version;
/** Anything that changes the output is part of each entry's name (with esbuild's version). */
const OPTIONS = {
  loader: 'ts',
  format: 'esm',
  target: `node${process.versions.node}`,
  sourcemap: 'inline',
  sourcesContent: false,
  minifyWhitespace: true,
  keepNames: true,
  tsconfigRaw: { compilerOptions },
};

/** What every entry's name starts from (the same bytes the key hashed when they were written per module). */
const SETTINGS = esbuildVersion + JSON.stringify(OPTIONS);

/** @type {typeof import('esbuild') | undefined} esbuild starts its service process on first use only (a cache miss). */
let esbuild;
let cacheReady = false;
let written = 0;

/**
 * Writes a cache entry aside, then renames it, so that a reader sees all of it or none. Every writer (processes, and
 * each worker thread's own hooks thread in one process) has its own temporary name. A checkout that cannot be
 * written to only loses the cache.
 * @param {string} cached
 * @param {string} source
 */
async function keep(cached, source) {
  const partial = `${cached}.${process.pid}-${threadId}-${written++}.tmp`;
  try {
    if (!cacheReady) {
      mkdirSync(CACHE_DIR, { recursive: true });
      cacheReady = true;
    }
    await writeFile(partial, source);
    await rename(partial, cached);
  } catch {
    await rm(partial, { force: true }).catch(() => {});
  }
}

/**
 * @param {string} url
 * @param {{ format?: string | null }} context
 * @param {(url: string, context?: object) => Promise<{ format?: string | null; source?: unknown }>} nextLoad
 */
export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || url.includes('/node_modules/')) return nextLoad(url, context);
  const path = fileURLToPath(url);
  if (!path.endsWith('.ts')) return nextLoad(url, context);
  const text = await readFile(path, 'utf8');
  const key = createHash('sha256').update(SETTINGS).update('\0').update(path).update('\0').update(text).digest('hex');
  const cached = join(CACHE_DIR, `${key}.js`);
  let source;
  try {
    source = await readFile(cached, 'utf8');
  } catch {
    esbuild ??= await import('esbuild');
    source = (await esbuild.transform(text, { ...OPTIONS, sourcefile: path })).code;
    await keep(cached, source);
  }
  return { format: 'module', source, shortCircuit: true };
}
