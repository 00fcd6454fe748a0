/**
 * Module hooks (registered by register.js): this project's own `.ts` files, outside node_modules, are compiled by
 * esbuild's `transform` (whitespace minified, the running Node as target, an inline source map; not tsx's keepNames,
 * see OPTIONS) and the tsconfig's compiler options; everything else goes to Node's own loader untouched. No resolve
 * hook: imports name the `.ts` file itself (allowImportingTsExtensions), which Node resolves.
 *
 * Compiled code is kept in `.data/ts-cache/`, one file per source named by the hash of its path and text, so the
 * many processes of a test run (and a restarted service) compile each file once. Each module still passes through
 * the hooks thread, but with one readFile and one hash where tsx does its resolution and format checks.
 *
 * viem is served as an esbuild bundle: its entry points (`viem`, `viem/accounts`, `viem/chains`) load as one module
 * each plus a few shared chunks, where its own files are ~420 modules (viem, ox, abitype, noble) and every module
 * costs a round trip to this hooks thread (Node 20): importing viem took ~1.1-1.4 CPU-s under hooks against ~0.07 s
 * as a bundle (bench/HISTORY.md, 2026-11-26 suitetime4). The bundle is built once per viem and esbuild version into
 * `.data/ts-cache/bundle-<hash>/` (split into shared chunks, so the three entries share one copy of viem's internals);
 * any other viem subpath loads from its own files as before. `TS_LOADER_BUNDLE=off` turns it off.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
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
  // No keepNames (tsx sets it): a transform that renames nothing keeps every function's and class's own name, and
  // keepNames wraps each named function in a `__name()` call, a defineProperty per closure created (in the route
  // search, per search).
  keepNames: false,
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

/** viem's entry points served from the bundle (package.json `exports` keys); the ones this project imports. */
const BUNDLED_ENTRIES = ['.', './accounts', './chains'];
const BUNDLE_ON = process.env.TS_LOADER_BUNDLE !== 'off';
/**
 * How the bundle is built (part of its cache key). CommonJS packages stay outside, imported from node_modules as
 * before: inside an ES module bundle their `require` of Node's own modules fails (`ws`, under viem's WebSocket
 * transport, through isows).
 */
const BUNDLE_OPTIONS = {
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: OPTIONS.target,
  external: ['ws'],
  entryNames: '[name]-[hash]',
  chunkNames: 'chunk-[hash]',
  outExtension: { '.js': '.mjs' },
  metafile: true,
  write: false,
  logLevel: 'silent',
};
/** @type {Map<string, Promise<Map<string, string> | undefined>>} per viem folder: entry file path -> bundled entry's source */
const bundles = new Map();

/**
 * Builds (or finds in the cache) the bundle of one viem folder's entry points.
 * @param {string} pkgDir the folder holding viem's package.json (ends with `/`)
 * @returns {Promise<Map<string, string> | undefined>} undefined when it cannot be built (then viem loads as files)
 */
async function viemBundle(pkgDir) {
  try {
    const pkgText = await readFile(`${pkgDir}package.json`, 'utf8');
    const exportsMap = JSON.parse(pkgText).exports;
    const entries = BUNDLED_ENTRIES.map((k) => join(pkgDir, exportsMap[k].import));
    const key = createHash('sha256')
      .update(SETTINGS)
      .update(JSON.stringify(BUNDLE_OPTIONS))
      .update('\0')
      .update(pkgDir)
      .update('\0')
      .update(pkgText)
      .digest('hex');
    const dir = join(CACHE_DIR, `bundle-${key.slice(0, 32)}`);
    let index;
    try {
      index = JSON.parse(await readFile(join(dir, 'entries.json'), 'utf8'));
    } catch {
      esbuild ??= await import('esbuild');
      mkdirSync(CACHE_DIR, { recursive: true });
      const partial = await mkdtemp(join(CACHE_DIR, 'bundle-tmp-'));
      const built = await esbuild.build({ ...BUNDLE_OPTIONS, entryPoints: entries, outdir: partial, absWorkingDir: process.cwd() });
      index = {};
      const base = pathToFileURL(`${dir}/`).href;
      for (const file of built.outputFiles) {
        const name = file.path.slice(partial.length + 1);
        const entryPoint = built.metafile.outputs[relative(process.cwd(), file.path)]?.entryPoint;
        let text = file.text;
        // An entry is served under viem's own URL: its chunk imports must name the chunks' folder. (Chunks split off
        // for viem's dynamic imports have an entryPoint too, but are loaded from the folder, by the chunks.)
        if (entryPoint && entries.includes(resolve(entryPoint))) {
          text = text.replace(/(["'])\.\/(chunk-[A-Za-z0-9]+\.mjs)\1/g, (_, q, chunk) => `${q}${base}${chunk}${q}`);
          index[resolve(entryPoint)] = name;
        }
        await writeFile(join(partial, name), text);
      }
      await writeFile(join(partial, 'entries.json'), JSON.stringify(index));
      // Another process may have put the same bundle in place meanwhile: theirs is kept, this one dropped.
      await rename(partial, dir).catch(() => rm(partial, { recursive: true, force: true }));
    }
    const sources = new Map();
    for (const [entry, name] of Object.entries(index)) sources.set(entry, await readFile(join(dir, name), 'utf8'));
    return sources;
  } catch {
    return undefined;
  }
}

/**
 * The bundled source of a viem entry point, or undefined (not an entry we bundle, or no bundle).
 * @param {string} url
 */
async function bundledViem(url) {
  const at = url.lastIndexOf('/node_modules/viem/');
  if (at < 0) return undefined;
  const pkgDir = fileURLToPath(url.slice(0, at + '/node_modules/viem/'.length));
  let bundle = bundles.get(pkgDir);
  if (!bundle) {
    bundle = viemBundle(pkgDir);
    bundles.set(pkgDir, bundle);
  }
  return (await bundle)?.get(fileURLToPath(url));
}

/**
 * @param {string} url
 * @param {{ format?: string | null }} context
 * @param {(url: string, context?: object) => Promise<{ format?: string | null; source?: unknown }>} nextLoad
 */
export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:')) return nextLoad(url, context);
  if (url.includes('/node_modules/')) {
    const bundled = BUNDLE_ON && url.includes('/node_modules/viem/_esm/') ? await bundledViem(url) : undefined;
    return bundled === undefined ? nextLoad(url, context) : { format: 'module', source: bundled, shortCircuit: true };
  }
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
