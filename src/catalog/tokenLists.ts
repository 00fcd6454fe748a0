import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { newAjv } from '../ajv.ts';

const require = createRequire(import.meta.url);

/** One entry of a token list (https://tokenlists.org; the fields the catalogue reads). */
export interface TokenListEntry {
  readonly chainId: number;
  readonly address: string;
  readonly name: string;
  readonly symbol: string;
  readonly decimals: number;
  readonly logoURI?: string;
  readonly extensions?: { readonly bridgeInfo?: Readonly<Record<string, { readonly tokenAddress: string }>> } & Readonly<
    Record<string, unknown>
  >;
}

/** A token list as published, validated against @uniswap/token-lists' schema. */
export interface TokenList {
  readonly name: string;
  readonly version: { readonly major: number; readonly minor: number; readonly patch: number };
  readonly tokens: readonly TokenListEntry[];
}

/** A token list read for a chain file, with the text that names it in messages. */
export interface LoadedTokenList {
  /** As written in the chain file's `tokenLists`. */
  readonly spec: string;
  /** e.g. `@uniswap/default-token-list (Uniswap Labs Default 22.21.0)`. */
  readonly source: string;
  readonly list: TokenList;
}

/** Raised when a token list cannot be read or breaks the token-list schema. */
export class TokenListError extends Error {
  override readonly name = 'TokenListError';
}

let validator: ValidateFunction<TokenList> | undefined;

/** The token-list schema of @uniswap/token-lists (shipped in its src/), compiled once. */
function validateTokenList(): ValidateFunction<TokenList> {
  if (!validator) {
    const schema = JSON.parse(readFileSync(require.resolve('@uniswap/token-lists/src/tokenlist.schema.json'), 'utf8')) as object;
    const ajv = newAjv(true);
    // The schema's two formats, checked without another dependency: an absolute URI and an RFC 3339 date-time.
    ajv.addFormat('uri', /^[a-z][a-z0-9+.-]*:[^\s]*$/i);
    ajv.addFormat('date-time', (value: string) => /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value)));
    validator = ajv.compile<TokenList>(schema);
  }
  return validator;
}

/** Where a `tokenLists` entry lives: a path (./ or ../) relative to the chain file's folder, or an npm package's main file. */
function resolveListPath(spec: string, catalogDir: string): string {
  if (spec.startsWith('./') || spec.startsWith('../')) return resolve(catalogDir, spec);
  const manifest = require.resolve(`${spec}/package.json`);
  const main = (JSON.parse(readFileSync(manifest, 'utf8')) as { main?: string }).main;
  if (!main?.endsWith('.json')) throw new TokenListError(`${spec}: the package's main file is not a JSON token list`);
  return join(dirname(manifest), main);
}

/**
 * Reads and validates the token list a chain file names; `cache` (one per catalogue load) reads each list once
 * however many chain files name it. Throws TokenListError naming the list.
 */
export function loadTokenList(spec: string, catalogDir: string, cache: Map<string, LoadedTokenList>): LoadedTokenList {
  let path: string;
  try {
    path = resolveListPath(spec, catalogDir);
  } catch (error) {
    if (error instanceof TokenListError) throw error;
    throw new TokenListError(`${spec}: cannot be found (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const known = cache.get(path);
  if (known) return known;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new TokenListError(`${spec}: not a readable JSON file (${(error as Error).message})`);
  }
  const validate = validateTokenList();
  if (!validate(raw)) {
    const problems = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '(root)'}: ${e.message ?? 'is invalid'}`);
    throw new TokenListError(`${spec}: not a valid token list (${problems.join('; ')})`);
  }
  const { major, minor, patch } = raw.version;
  const loaded = { spec, source: `${spec} (${raw.name} ${major}.${minor}.${patch})`, list: raw };
  cache.set(path, loaded);
  return loaded;
}
