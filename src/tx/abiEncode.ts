import type { AbiParameter, Hex } from 'viem';

/**
 * Solidity ABI encoding of a parameter list (head/tail layout, 32-byte words) for the types our router, token and
 * bridge ABIs use: address, bool, uint<N>, int<N>, bytes<N>, bytes, dynamic arrays T[] and tuples. Hand-written for the hot
 * path (viem's encodeAbiParameters dispatches generically and re-validates addresses through an LRU on every call);
 * test/tx/encodeCall.test.ts checks it against viem on random arguments of every function we encode. Values are
 * what viem accepts: addresses as 0x hex (any case), integers as bigint or number, tuples as objects keyed by
 * component name (or arrays). A value that does not fit its type throws.
 */
export function abiEncode(params: readonly AbiParameter[], values: readonly unknown[]): Hex {
  return `0x${encodeTuple(params, values)}`;
}

/** Hex of a tuple's encoding (no 0x): the static parts in order, each dynamic part as an offset to its tail. */
function encodeTuple(params: readonly AbiParameter[], values: readonly unknown[]): string {
  if (values.length !== params.length) throw new Error(`abiEncode: ${params.length} values expected, got ${values.length}`);
  let headBytes = 0;
  for (const p of params) headBytes += isDynamic(p) ? 32 : staticSize(p);
  let head = '';
  let tail = '';
  for (let i = 0; i < params.length; i++) {
    const p = params[i];
    const encoded = encodeValue(p, values[i]);
    if (isDynamic(p)) {
      head += word((headBytes + tail.length / 2).toString(16));
      tail += encoded;
    } else {
      head += encoded;
    }
  }
  return head + tail;
}

function encodeValue(p: AbiParameter, value: unknown): string {
  const type = p.type;
  if (type.endsWith('[]')) {
    if (!Array.isArray(value)) throw new Error(`abiEncode: ${type} expects an array`);
    const item = { ...p, type: type.slice(0, -2) } as AbiParameter;
    return (
      word(value.length.toString(16)) +
      encodeTuple(
        value.map(() => item),
        value,
      )
    );
  }
  if (type === 'tuple') {
    const components = (p as { components: readonly AbiParameter[] }).components;
    const list = Array.isArray(value) ? value : components.map((c) => (value as Record<string, unknown>)[c.name ?? '']);
    return encodeTuple(components, list);
  }
  if (type === 'address') {
    if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(value)) throw new Error(`abiEncode: invalid address ${String(value)}`);
    return `000000000000000000000000${value.slice(2).toLowerCase()}`;
  }
  if (type === 'bool') {
    if (typeof value !== 'boolean') throw new Error('abiEncode: bool expects a boolean');
    return word(value ? '1' : '0');
  }
  if (type === 'bytes') {
    const data = hexBody(value, type);
    return word((data.length / 2).toString(16)) + padRight(data);
  }
  const fixed = /^bytes([1-9]|[12][0-9]|3[0-2])$/.exec(type);
  if (fixed) {
    const data = hexBody(value, type);
    if (data.length !== Number(fixed[1]) * 2) throw new Error(`abiEncode: ${type} expects ${fixed[1]} bytes`);
    return padRight(data);
  }
  const uint = /^uint(\d+)$/.exec(type);
  if (uint) {
    const bits = BigInt(uint[1]);
    const n = typeof value === 'bigint' ? value : typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : undefined;
    if (n === undefined || n < 0n || n >> bits !== 0n) throw new Error(`abiEncode: ${String(value)} is not a ${type}`);
    return word(n.toString(16));
  }
  const int = /^int(\d+)$/.exec(type);
  if (int) {
    const bits = BigInt(int[1]);
    const n = typeof value === 'bigint' ? value : typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : undefined;
    const half = 1n << (bits - 1n);
    if (n === undefined || n < -half || n >= half) throw new Error(`abiEncode: ${String(value)} is not a ${type}`);
    // Two's complement over the whole word.
    return word((n < 0n ? (1n << 256n) + n : n).toString(16));
  }
  throw new Error(`abiEncode: unsupported type ${type}`);
}

function isDynamic(p: AbiParameter): boolean {
  if (p.type === 'bytes' || p.type === 'string' || p.type.endsWith('[]')) return true;
  if (p.type === 'tuple') return (p as { components: readonly AbiParameter[] }).components.some(isDynamic);
  return false;
}

/** Bytes of a static parameter's encoding (a static tuple is its members inline). */
function staticSize(p: AbiParameter): number {
  if (p.type === 'tuple') return (p as { components: readonly AbiParameter[] }).components.reduce((sum, c) => sum + staticSize(c), 0);
  return 32;
}

function word(hex: string): string {
  if (hex.length > 64) throw new Error('abiEncode: value wider than 32 bytes');
  return hex.padStart(64, '0');
}

function padRight(hex: string): string {
  const rest = hex.length % 64;
  return rest === 0 ? hex : hex + '0'.repeat(64 - rest);
}

function hexBody(value: unknown, type: string): string {
  if (typeof value !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(value))
    throw new Error(`abiEncode: ${type} expects 0x hex of whole bytes`);
  return value.slice(2).toLowerCase();
}
