/**
 * The fast load path for large snapshot files, same format (seeds/snapshot.schema.json). Nearly all of a big
 * snapshot is v3 tick lists; parsing them into millions of small arrays and validating each with ajv is what
 * made 100,000 pools slow to load and large in memory. Here each `"ticks": [...]` array is checked by a
 * hand-written byte scanner (the schema's grammar for it, plus strictly ascending ticks) and left in the file's
 * bytes; everything else is parsed with JSON.parse and validated with the same schema (ticks excepted). A pool's
 * `ticks` becomes a getter that decodes its array on access into exactly what JSON.parse would have returned.
 *
 * The fast path is conservative: whatever it does not recognise (other number spellings, odd keys, a "ticks"
 * array where the schema does not expect one) makes it return undefined, and the caller falls back to the full
 * JSON.parse + ajv path, which also produces the refusal message. It never accepts a file that path refuses.
 */
import type { ErrorObject } from 'ajv';
import { snapshotHasTickList } from '../protocols/registry.ts';
import { countLazyTicksWith } from '../protocols/uniswapV3/tickCount.ts';

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

const QUOTE = 0x22;
const COMMA = 0x2c;
const MINUS = 0x2d;
const COLON = 0x3a;
const OPEN = 0x5b;
const BACKSLASH = 0x5c;
const CLOSE = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const ZERO = 0x30;
const NINE = 0x39;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

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

/**
 * Most bytes of pools parsed at once: their text is then a string V8 makes in its young generation, which a
 * scavenge frees (a string over 128 KB goes to the large-object space, freed only by a full collection).
 */
const POOLS_PER_PARSE_BYTES = 48 * 1024;

/**
 * JSON.parse of the reduced text, made a part at a time: the document without its pools' elements, then the pools
 * in runs of about POOLS_PER_PARSE_BYTES. Parsed whole, the text decoded for JSON.parse (as large as the file without
 * its ticks: 38 MB for 100,000 pools) would be garbage as large as the parsed pools, in every thread at start-up,
 * raising the heap each keeps. Undefined when the text is not JSON, or not an object with one `pools` array of objects
 * (poolSpans reads the structure), as for JSON.parse's refusal: the slow path decides.
 */
function parseReduced(text: Buffer, prepare: (pool: Record<string, unknown>) => Record<string, unknown> | undefined): unknown {
  /** The pools prepared, or undefined when one is not an object or its preparation refuses it. */
  const prepared = (parsed: unknown): Record<string, unknown>[] | undefined => {
    if (!Array.isArray(parsed)) return undefined;
    for (let i = 0; i < parsed.length; i++) {
      const pool = parsed[i] as unknown;
      if (typeof pool !== 'object' || pool === null || Array.isArray(pool)) return undefined;
      const ready = prepare(pool as Record<string, unknown>);
      if (!ready) return undefined;
      parsed[i] = ready;
    }
    return parsed as Record<string, unknown>[];
  };
  const found = poolSpans(text);
  try {
    if (!found) {
      const whole = JSON.parse(text.toString('utf8')) as { pools?: unknown } | null;
      if (typeof whole !== 'object' || whole === null || !prepared(whole.pools)) return undefined;
      return whole;
    }
    const { open, close, spans } = found;
    const document = JSON.parse(text.toString('utf8', 0, open + 1) + text.toString('utf8', close)) as { pools: unknown[] };
    const pools: unknown[] = [];
    for (let first = 0; first < spans.length; ) {
      let last = first;
      while (last + 2 < spans.length && spans[last + 3] - spans[first] <= POOLS_PER_PARSE_BYTES) last += 2;
      const part = prepared(JSON.parse(`[${text.toString('utf8', spans[first], spans[last + 1])}]`));
      if (!part) return undefined;
      for (const pool of part) pools.push(pool);
      first = last + 2;
    }
    if (!Array.isArray(document.pools) || document.pools.length !== 0) return undefined;
    document.pools = pools;
    return document;
  } catch {
    return undefined;
  }
}

/**
 * Where the elements of the top-level object's `pools` array are: the offsets of its `[` and `]`, and each element's
 * start and end, when the text is an object whose one `pools` key holds an array of objects separated by single
 * commas (whitespace aside); undefined otherwise (e.g. a small text without pools: then parsed whole).
 */
function poolSpans(b: Buffer): { open: number; close: number; spans: number[] } | undefined {
  const n = b.length;
  let i = 0;
  while (i < n && isSpace(b[i])) i++;
  if (b[i] !== OPEN_BRACE) return undefined;
  let depth = 0;
  let open = -1;
  let close = -1;
  const spans: number[] = [];
  /** Inside the pools array: what may come next ('element' after `[` or a comma, 'separator' after an element). */
  let expect: 'element' | 'separator' = 'element';
  let start = -1;
  for (; i < n; i++) {
    const c = b[i];
    if (c === QUOTE) {
      const end = stringEnd(b, i);
      if (end < 0) return undefined;
      if (depth === 1 && end - i === 6 && b.toString('latin1', i + 1, end) === 'pools') {
        let j = end + 1;
        while (j < n && isSpace(b[j])) j++;
        if (b[j] === COLON) {
          if (open >= 0) return undefined; // a second `pools` key: JSON.parse keeps the last one
          j++;
          while (j < n && isSpace(b[j])) j++;
          if (b[j] !== OPEN) return undefined;
          open = j;
          depth = 2;
          i = j;
          continue;
        }
      }
      if (depth === 2 && open >= 0 && close < 0) return undefined; // a string element
      i = end;
      continue;
    }
    if (depth === 2 && open >= 0 && close < 0 && !isSpace(c)) {
      // Directly inside the pools array.
      if (c === OPEN_BRACE && expect === 'element') {
        start = i;
        depth++;
        continue;
      }
      if (c === COMMA && expect === 'separator') {
        expect = 'element';
        continue;
      }
      if (c === CLOSE && (expect === 'separator' || spans.length === 0)) {
        close = i;
        depth--;
        continue;
      }
      return undefined;
    }
    if (c === OPEN_BRACE || c === OPEN) depth++;
    else if (c === CLOSE_BRACE || c === CLOSE) {
      depth--;
      if (depth === 2 && open >= 0 && close < 0) {
        if (c !== CLOSE_BRACE) return undefined;
        spans.push(start, i + 1);
        expect = 'separator';
      }
    }
  }
  return open >= 0 && close >= 0 ? { open, close, spans } : undefined;
}

/** The offset of the quote closing the JSON string opened at `start`, or -1 when there is none. */
function stringEnd(b: Buffer, start: number): number {
  for (let at = start + 1; ; ) {
    const quote = b.indexOf(QUOTE, at);
    if (quote < 0) return -1;
    let backslashes = 0;
    while (b[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    at = quote + 1;
  }
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
