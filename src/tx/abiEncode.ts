import type { AbiParameter, Hex } from 'viem';

/**
 * Solidity ABI encoding of a parameter list (head/tail layout, 32-byte words) for the types our router, token and
 * bridge ABIs use: address, bool, uint<N>, int<N>, bytes<N>, bytes, dynamic arrays T[] and tuples. Hand-written for the hot
 * path (viem's encodeAbiParameters dispatches generically and re-validates addresses through an LRU on every call);
 * test/tx/encodeCall.test.ts checks it against viem on random arguments of every function we encode. Values are
 * what viem accepts: addresses as 0x hex (any case), integers as bigint or number, tuples as objects keyed by
 * component name (or arrays). A value that does not fit its type throws. A parameter list's encoder is built on its
 * first use and kept (per list object: the ABIs' lists are constants), so a call reads no type name again.
 */
export function abiEncode(params: readonly AbiParameter[], values: readonly unknown[]): Hex {
  return abiEncodeAfter('0x', params, values) as Hex;
}

/**
 * `prefix` followed by the hex of abiEncode's encoding (no 0x), built as one flat string: every coder appends its
 * words to one list, joined once at the end (no copy per nesting level, no chain of concatenations for
 * JSON.stringify to flatten later): encodeCall's selector and arguments. Remembered (see {@link ENCODED}) so that
 * a `bytes` argument made of it is not scanned again.
 */
export function abiEncodeAfter(prefix: string, params: readonly AbiParameter[], values: readonly unknown[]): string {
  let tuple = tuples.get(params);
  if (tuple === undefined) {
    tuple = tupleCoder(params);
    tuples.set(params, tuple);
  }
  const out = [prefix];
  tuple.encode(values, out);
  const encoded = out.join('');
  if (!hexPrefixes.has(prefix) && hexPrefixes.size < 1_000 && HEX_PREFIX.test(prefix)) hexPrefixes.add(prefix);
  if (hexPrefixes.has(prefix)) {
    ENCODED[nextEncoded] = encoded;
    nextEncoded = (nextEncoded + 1) % ENCODED.length;
  }
  return encoded;
}

/**
 * The last encodings abiEncodeAfter returned (0x and lower-case hex of whole bytes, by construction). A router's
 * multicall takes the calls just encoded as `bytes` values: one found here (compared by value) is known to be valid
 * hex, without the regular-expression scan of its every digit.
 */
const ENCODED: string[] = new Array<string>(16).fill('');
let nextEncoded = 0;
/** A prefix after which an encoding is 0x hex of whole bytes (a selector, or bare 0x), and the ones seen (the few selectors). */
const HEX_PREFIX = /^0x(?:[0-9a-f]{2})*$/;
const hexPrefixes = new Set<string>();

/** How one parameter is encoded: its head size when static, and its encoding (hex, no 0x) of a value. */
interface Coder {
  readonly dynamic: boolean;
  /** Bytes of the encoding in the head: 32 (an offset) when dynamic, else the static size. */
  readonly headBytes: number;
  /** Appends the encoding of `value` to `out` (one or more pieces); returns its length in hex digits. */
  readonly encode: (value: unknown, out: string[]) => number;
}

/** A tuple's (or parameter list's) encoder: its members' coders, and its encoding of a list of values. */
interface TupleCoder {
  readonly coders: readonly Coder[];
  /** Appends the encoding of `values` to `out`; returns its length in hex digits. */
  readonly encode: (values: readonly unknown[], out: string[]) => number;
}

const tuples = new WeakMap<readonly AbiParameter[], TupleCoder>();

/** Hex of a tuple's encoding (no 0x): the static parts in order, each dynamic part as an offset to its tail. */
function tupleCoder(params: readonly AbiParameter[]): TupleCoder {
  const coders = params.map(coderOf);
  const coderAt = (i: number) => coders[i];
  return {
    coders,
    encode: (values, out) => {
      if (values.length !== coders.length) throw new Error(`abiEncode: ${coders.length} values expected, got ${values.length}`);
      return layout(values, coderAt, out);
    },
  };
}

/**
 * Appends the head/tail layout of values, the i-th encoded by coderAt(i), to `out`: the head's words there at once,
 * the dynamic parts into a tail list appended after them (an offset needs only the tails before it). Returns the
 * layout's length in hex digits.
 */
function layout(values: readonly unknown[], coderAt: (i: number) => Coder, out: string[]): number {
  let headBytes = 0;
  for (let i = 0; i < values.length; i++) headBytes += coderAt(i).headBytes;
  let tail: string[] | undefined;
  let tailChars = 0;
  for (let i = 0; i < values.length; i++) {
    const coder = coderAt(i);
    if (coder.dynamic) {
      pushWord(out, (headBytes + tailChars / 2).toString(16));
      tail ??= [];
      tailChars += coder.encode(values[i], tail);
    } else {
      coder.encode(values[i], out);
    }
  }
  if (tail !== undefined) for (const piece of tail) out.push(piece);
  return headBytes * 2 + tailChars;
}

const STATIC_WORD = { dynamic: false, headBytes: 32 } as const;

/**
 * The word of each address encoded lately, by its spelling: calls name the same few addresses (routers, tokens,
 * wallets) again and again. Bounded: cleared when full.
 */
const addressWords = new Map<string, string>();
const ADDRESS_WORDS = 10_000;

function coderOf(p: AbiParameter): Coder {
  const type = p.type;
  if (type.endsWith('[]')) {
    const item = coderOf({ ...p, type: type.slice(0, -2) } as AbiParameter);
    const itemAt = () => item;
    return {
      dynamic: true,
      headBytes: 32,
      encode: (value, out) => {
        if (!Array.isArray(value)) throw new Error(`abiEncode: ${type} expects an array`);
        pushWord(out, value.length.toString(16));
        return 64 + layout(value, itemAt, out);
      },
    };
  }
  if (type === 'tuple') {
    const components = (p as { components: readonly AbiParameter[] }).components;
    const tuple = tupleCoder(components);
    const dynamic = tuple.coders.some((c) => c.dynamic);
    return {
      dynamic,
      headBytes: dynamic ? 32 : tuple.coders.reduce((sum, c) => sum + c.headBytes, 0),
      encode: (value, out) =>
        tuple.encode(Array.isArray(value) ? value : components.map((c) => (value as Record<string, unknown>)[c.name ?? '']), out),
    };
  }
  if (type === 'address')
    return {
      ...STATIC_WORD,
      encode: (value, out) => {
        if (typeof value !== 'string') throw new Error(`abiEncode: invalid address ${String(value)}`);
        let encoded = addressWords.get(value);
        if (encoded === undefined) {
          if (!/^0x[0-9a-fA-F]{40}$/.test(value)) throw new Error(`abiEncode: invalid address ${value}`);
          // Joined (a flat string): each call's join then copies it in one go.
          encoded = [ZERO_RUNS[24], value.slice(2).toLowerCase()].join('');
          if (addressWords.size >= ADDRESS_WORDS) addressWords.clear();
          addressWords.set(value, encoded);
        }
        out.push(encoded);
        return 64;
      },
    };
  if (type === 'bool')
    return {
      ...STATIC_WORD,
      encode: (value, out) => {
        if (typeof value !== 'boolean') throw new Error('abiEncode: bool expects a boolean');
        pushWord(out, value ? '1' : '0');
        return 64;
      },
    };
  if (type === 'bytes')
    return {
      dynamic: true,
      headBytes: 32,
      encode: (value, out) => {
        const data = hexBody(value, type);
        pushWord(out, (data.length / 2).toString(16));
        return 64 + padRight(data, out);
      },
    };
  const fixed = /^bytes([1-9]|[12][0-9]|3[0-2])$/.exec(type);
  if (fixed) {
    const size = Number(fixed[1]);
    return {
      ...STATIC_WORD,
      encode: (value, out) => {
        const data = hexBody(value, type);
        if (data.length !== size * 2) throw new Error(`abiEncode: ${type} expects ${size} bytes`);
        return padRight(data, out);
      },
    };
  }
  const uint = /^uint(\d+)$/.exec(type);
  if (uint) {
    // 2^bits, computed once (no shift per value).
    const end = 1n << BigInt(uint[1]);
    return {
      ...STATIC_WORD,
      encode: (value, out) => {
        const n = integer(value);
        if (n === undefined || n < 0n || n >= end) throw new Error(`abiEncode: ${String(value)} is not a ${type}`);
        pushWord(out, n.toString(16));
        return 64;
      },
    };
  }
  const int = /^int(\d+)$/.exec(type);
  if (int) {
    const half = 1n << (BigInt(int[1]) - 1n);
    return {
      ...STATIC_WORD,
      encode: (value, out) => {
        const n = integer(value);
        if (n === undefined || n < -half || n >= half) throw new Error(`abiEncode: ${String(value)} is not a ${type}`);
        // Two's complement over the whole word.
        pushWord(out, (n < 0n ? (1n << 256n) + n : n).toString(16));
        return 64;
      },
    };
  }
  // Refused when a value is encoded, not when the encoder is built (an ABI may hold functions we never call).
  const dynamic = type === 'string';
  return {
    dynamic,
    headBytes: 32,
    encode: () => {
      throw new Error(`abiEncode: unsupported type ${type}`);
    },
  };
}

/** An integer value as viem takes it (bigint, or a safe-integer number); undefined for anything else. */
function integer(value: unknown): bigint | undefined {
  if (typeof value === 'bigint') return value;
  return typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : undefined;
}

/** `ZERO_RUNS[n]`: n zeros, for n from 0 to 64 (flat strings made once). */
const ZERO_RUNS = Array.from({ length: 65 }, (_, n) => new Array<string>(n).fill('0').join(''));

/**
 * Appends the 32-byte word of hex digits (at most 64) to `out`: the zeros before them and the digits as two pieces,
 * which the final join copies (padStart would build its padding and a concatenation for the join to flatten).
 */
function pushWord(out: string[], hex: string): void {
  if (hex.length > 64) throw new Error('abiEncode: value wider than 32 bytes');
  out.push(ZERO_RUNS[64 - hex.length], hex);
}

/** Appends hex and the zeros that pad it to whole words to `out`; returns their length in hex digits. */
function padRight(hex: string, out: string[]): number {
  out.push(hex);
  const rest = hex.length % 64;
  if (rest === 0) return hex.length;
  out.push(ZERO_RUNS[64 - rest]);
  return hex.length + 64 - rest;
}

/**
 * The hex digits of 0x hex of whole bytes, lower case: an encoding abiEncodeAfter returned lately (ENCODED) without
 * any scan; otherwise one test over the string (no per-byte capture group; lower-case hex is passed on without a
 * second pass to lower-case it).
 */
function hexBody(value: unknown, type: string): string {
  if (typeof value === 'string' && ENCODED.includes(value)) return value.slice(2);
  if (typeof value === 'string' && value.length % 2 === 0 && /^0x[0-9a-f]*$/.test(value)) return value.slice(2);
  if (typeof value !== 'string' || value.length % 2 !== 0 || !/^0x[0-9a-fA-F]*$/.test(value))
    throw new Error(`abiEncode: ${type} expects 0x hex of whole bytes`);
  return value.slice(2).toLowerCase();
}
