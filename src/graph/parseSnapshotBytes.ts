/**
 * The fast load path for large snapshot files, same format (seeds/snapshot.schema.json). Nearly all of a big
 * snapshot is v3 tick lists; parsing them into millions of small arrays and validating each with ajv is what
 * made 100,000 pools slow to load and large in memory. Here each `"ticks": [...]` array is checked by a
 * hand-written byte scanner (the schema's grammar for it, plus strictly ascending ticks) and left in the file's
 * bytes; everything else is parsed with JSON.parse and validated with the same schema (ticks excepted). A pool's
 * `ticks` becomes a getter that decodes its array on access into exactly what JSON.parse would have returned. The
 * rest is parsed a part at a time around the `pools` array (jsonBytes.ts parseReduced), so that its decoded text dies young.
 *
 * The fast path is conservative: whatever it does not recognise (other number spellings, odd keys, a "ticks"
 * array where the schema does not expect one) makes it return undefined, and the caller falls back to the full
 * JSON.parse + ajv path, which also produces the refusal message. It never accepts a file that path refuses.
 */
import type { ErrorObject } from 'ajv';
import { snapshotHasTickList } from '../protocols/registry.ts';
import { countLazyTicksWith } from '../protocols/uniswapV3/tickCount.ts';
import { BACKSLASH, CLOSE, COLON, COMMA, isSpace, MINUS, NINE, OPEN, parseReduced, QUOTE, ZERO } from './jsonBytes.ts';

/** Where a pool's tick list lives in the file's bytes, and how many ticks it holds. */
interface TickRegion {
  readonly bytes: Buffer;
  /** Offset of the array's `[` and one past its `]`. */
  readonly start: number;
  readonly end: number;
  readonly count: number;
}

const regions = new WeakMap<object, TickRegion>();
// The length of a pool's lazy tick list is its region's count (tickCount reads it without decoding the list).
countLazyTicksWith((pool) => regions.get(pool)?.count);

/**
 * Scans a tick array starting at `start` (its `[`): `[ [int, "int"], ... ]`, ticks strictly ascending.
 * Calls `each(tick, netStart, netEnd)` per element when given. Returns the offset past `]` and the count, or
 * undefined when the bytes are not such an array (then the slow path decides).
 */
function scanTicks(
  b: Buffer,
  start: number,
  each?: (tick: number, netStart: number, netEnd: number) => void,
): { end: number; count: number } | undefined {
  const n = b.length;
  let i = start + 1;
  let count = 0;
  let previous = -Infinity;
  while (i < n && isSpace(b[i])) i++;
  if (b[i] === CLOSE) return { end: i + 1, count };
  for (;;) {
    // [
    if (b[i] !== OPEN) return undefined;
    i++;
    while (i < n && isSpace(b[i])) i++;
    // tick: -?(0|[1-9][0-9]{0,14}) (JSON integers only; longer or other spellings go to the slow path)
    let negative = false;
    if (b[i] === MINUS) {
      negative = true;
      i++;
    }
    const digitsStart = i;
    let value = 0;
    while (i < n && b[i] >= ZERO && b[i] <= NINE) value = value * 10 + (b[i++] - ZERO);
    const digits = i - digitsStart;
    if (digits === 0 || digits > 15 || (digits > 1 && b[digitsStart] === ZERO)) return undefined;
    if (negative) value = -value;
    if (value <= previous) return undefined; // not strictly ascending: let the slow path word the refusal
    previous = value;
    while (i < n && isSpace(b[i])) i++;
    if (b[i] !== COMMA) return undefined;
    i++;
    while (i < n && isSpace(b[i])) i++;
    // "liquidityNet": ^(0|-?[1-9][0-9]*)$
    if (b[i] !== QUOTE) return undefined;
    i++;
    const netStart = i;
    if (b[i] === MINUS) i++;
    const netDigits = i;
    while (i < n && b[i] >= ZERO && b[i] <= NINE) i++;
    const netLength = i - netDigits;
    if (netLength === 0 || (b[netDigits] === ZERO && (netLength > 1 || netDigits !== netStart))) return undefined;
    if (b[i] !== QUOTE) return undefined;
    const netEnd = i;
    i++;
    while (i < n && isSpace(b[i])) i++;
    // ]
    if (b[i] !== CLOSE) return undefined;
    i++;
    each?.(value, netStart, netEnd);
    count++;
    while (i < n && isSpace(b[i])) i++;
    if (b[i] === COMMA) {
      i++;
      while (i < n && isSpace(b[i])) i++;
      continue;
    }
    if (b[i] === CLOSE) return { end: i + 1, count };
    return undefined;
  }
}

/** Decodes one region into what JSON.parse gives for it: [tick, liquidityNet string] pairs. */
function decode(region: TickRegion): Array<readonly [number, string]> {
  const out: Array<readonly [number, string]> = new Array(region.count);
  let k = 0;
  scanTicks(region.bytes, region.start, (tick, a, z) => {
    out[k++] = [tick, region.bytes.toString('latin1', a, z)];
  });
  return out;
}

function ticksGetter(this: object): Array<readonly [number, string]> {
  return decode(regions.get(this)!);
}

/**
 * A copy of a parsed pool, its keys in the same order, whose `ticks` is the getter. Made rather than redefining the
 * parsed pool's `ticks`: V8 turns an object whose data property becomes an accessor into a dictionary (about 800
 * bytes a pool, a third of a 100,000-pool chain's heap), while copies made alike share one hidden class.
 */
function withTicksGetter(pool: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(pool)) {
    if (key === 'ticks') Object.defineProperty(copy, 'ticks', { get: ticksGetter, enumerable: true, configurable: false });
    else Object.defineProperty(copy, key, { value: pool[key], writable: true, enumerable: true, configurable: true });
  }
  return copy;
}

/**
 * Keeps equal strings of a document once: each token address one string for every pool naming it (JSON.parse makes
 * one per occurrence), and a pool's string values equal to an earlier one of the same pool (a v2 pair's reserves
 * that equal its balances) that one. The values are unchanged.
 */
function shareStrings(pool: Record<string, unknown>, addresses: Map<string, string>): void {
  for (const key of ['token0', 'token1']) {
    const value = pool[key];
    if (typeof value !== 'string') continue;
    const shared = addresses.get(value);
    if (shared === undefined) addresses.set(value, value);
    else pool[key] = shared;
  }
  const seen: string[] = [];
  for (const key in pool) {
    if (key === 'ticks') continue;
    const value = pool[key];
    if (typeof value !== 'string' || value.length < 16) continue;
    const same = seen.find((s) => s === value);
    if (same === undefined) seen.push(value);
    else pool[key] = same;
  }
}

/** Validates the document with the tick arrays replaced by placeholders (the snapshot schema, ticks excepted). */
export type ReducedValidator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

const PLACEHOLDER_PREFIX = '\u0001ticks:';

/** The tick regions a fast-path parse found, per document: [start, end, count] each, in document order (tickRegionList). */
const documentRegions = new WeakMap<object, Float64Array>();

/**
 * The tick regions the fast path found in a document it returned, as [start, end, count] triples in document order,
 * in shared memory: what a parse of the identical bytes by another thread may take instead of scanning
 * (parseSnapshotBytes' `known`). Undefined for a document the fast path did not return.
 */
export function tickRegionList(document: object): Float64Array | undefined {
  return documentRegions.get(document);
}

/**
 * Parses a snapshot file's bytes on the fast path: the document as JSON.parse would return it, with each pool's
 * `ticks` a getter over the bytes (which must not change afterwards: pass a private or read-only buffer).
 * `validate` is the schema validator for the reduced document, or null to skip validation (for bytes an
 * identical load already validated). `known`: the tickRegionList of an earlier fast-path parse of these very bytes
 * (validated there, so with `validate` null): the regions are taken from it instead of found and scanned again.
 * Returns undefined whenever the slow path must decide.
 */
export function parseSnapshotBytes(bytes: Buffer, validate: ReducedValidator | null, known?: Float64Array): unknown {
  const found = known ? listedRegions(bytes, known) : scannedRegions(bytes);
  if (!found) return undefined;
  let next = 0;
  const addresses = new Map<string, string>();
  // Every region must be the `ticks` of a pool, in document order, each exactly once: such a pool is replaced by its
  // copy with the getter (undefined for a pool whose `ticks` is not the next region's placeholder).
  const withTicks = (pool: Record<string, unknown>): Record<string, unknown> | undefined => {
    if (!Object.hasOwn(pool, 'ticks')) return pool;
    if (pool.ticks !== `${PLACEHOLDER_PREFIX}${next}` || !snapshotHasTickList(pool.version)) return undefined;
    const copy = withTicksGetter(pool);
    regions.set(copy, found[next++]);
    return copy;
  };
  // Each pool as its part is parsed, while its objects are young (what replaces them is then freed by a scavenge):
  // its strings shared and, for bytes validated before (validate null), its ticks made the getter; else that waits for
  // the document's validation, which reads the placeholders.
  const data = parseReduced(reducedText(bytes, found), (pool) => {
    shareStrings(pool, addresses);
    return validate ? pool : withTicks(pool);
  });
  if (data === undefined) return undefined;
  if (validate) {
    if (!validate(data)) return undefined;
    const pools = (data as { pools: Record<string, unknown>[] }).pools;
    for (let i = 0; i < pools.length; i++) {
      const pool = withTicks(pools[i]);
      if (!pool) return undefined;
      pools[i] = pool;
    }
  }
  if (next !== found.length) return undefined;
  if (!known) {
    const list = new Float64Array(new SharedArrayBuffer(found.length * 3 * Float64Array.BYTES_PER_ELEMENT));
    for (let k = 0; k < found.length; k++) list.set([found[k].start, found[k].end, found[k].count], 3 * k);
    known = list;
  }
  documentRegions.set(data as object, known);
  return data;
}

/**
 * The document's text with each tick array replaced by its placeholder string, in one buffer off the heap (not
 * decoded: parseReduced decodes it a part at a time).
 */
function reducedText(bytes: Buffer, found: readonly TickRegion[]): Buffer {
  const placeholder = (k: number): string => JSON.stringify(`${PLACEHOLDER_PREFIX}${k}`);
  let size = bytes.length;
  for (let k = 0; k < found.length; k++) size += placeholder(k).length - (found[k].end - found[k].start);
  const text = Buffer.allocUnsafeSlow(size);
  let copied = 0;
  let at = 0;
  for (let k = 0; k < found.length; k++) {
    at += bytes.copy(text, at, copied, found[k].start);
    at += text.write(placeholder(k), at, 'latin1');
    copied = found[k].end;
  }
  bytes.copy(text, at, copied);
  return text;
}

/** The regions of a tickRegionList, over `bytes`. */
function listedRegions(bytes: Buffer, list: Float64Array): TickRegion[] {
  const found: TickRegion[] = [];
  for (let k = 0; k < list.length; k += 3) found.push({ bytes, start: list[k], end: list[k + 1], count: list[k + 2] });
  return found;
}

/** Every `"ticks": [...]` array of the bytes, in order, scanned; undefined where one is not a tick list the fast path reads. */
function scannedRegions(bytes: Buffer): TickRegion[] | undefined {
  const found: TickRegion[] = [];
  let at = 0;
  for (;;) {
    const key = bytes.indexOf('"ticks"', at, 'latin1');
    if (key < 0) return found;
    at = key + 7;
    if (key > 0 && bytes[key - 1] === BACKSLASH) continue;
    let i = at;
    while (i < bytes.length && isSpace(bytes[i])) i++;
    if (bytes[i] !== COLON) continue;
    i++;
    while (i < bytes.length && isSpace(bytes[i])) i++;
    if (bytes[i] !== OPEN) return undefined; // a "ticks" key that is not an array: the schema refuses it
    const scanned = scanTicks(bytes, i);
    if (!scanned) return undefined;
    found.push({ bytes, start: i, end: scanned.end, count: scanned.count });
    at = scanned.end;
  }
}
