/**
 * Reading a JSON document's bytes without decoding them whole (parseSnapshotBytes): the bytes of JSON's structure,
 * where a string ends, and the document parsed a part at a time around its `pools` array.
 */

export const QUOTE = 0x22;
export const COMMA = 0x2c;
export const MINUS = 0x2d;
export const COLON = 0x3a;
export const OPEN = 0x5b;
export const BACKSLASH = 0x5c;
export const CLOSE = 0x5d;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const ZERO = 0x30;
export const NINE = 0x39;

export function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
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
export function parseReduced(text: Buffer, prepare: (pool: Record<string, unknown>) => Record<string, unknown> | undefined): unknown {
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
export function stringEnd(b: Buffer, start: number): number {
  for (let at = start + 1; ; ) {
    const quote = b.indexOf(QUOTE, at);
    if (quote < 0) return -1;
    let backslashes = 0;
    while (b[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    at = quote + 1;
  }
}
