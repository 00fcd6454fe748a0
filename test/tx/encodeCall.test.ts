import t from 'tap';
import { type Abi, type AbiFunction, type AbiParameter, bytesToHex, encodeAbiParameters, encodeFunctionData, getAddress } from 'viem';
import { abiEncode, abiEncodeAfter } from '../../src/tx/abiEncode.ts';
import * as abis from '../../src/tx/abis.ts';
import { encodeCall } from '../../src/tx/encodeCall.ts';
import { seededRandom } from '../helpers/seededRandom.ts';

/** A random value of an ABI parameter's type (the types our ABIs use). */
function randomValue(param: AbiParameter, next: () => number): unknown {
  const bytes = (n: number) => bytesToHex(Uint8Array.from({ length: n }, () => Math.floor(next() * 256)));
  if (param.type.endsWith('[]')) {
    const item = { ...param, type: param.type.slice(0, -2) } as AbiParameter;
    return Array.from({ length: Math.floor(next() * 4) }, () => randomValue(item, next));
  }
  if (param.type === 'tuple')
    return Object.fromEntries(('components' in param ? param.components : []).map((c) => [c.name!, randomValue(c, next)]));
  if (param.type === 'address') return getAddress(bytes(20));
  if (param.type === 'bool') return next() < 0.5;
  if (param.type === 'bytes') return bytes(Math.floor(next() * 90));
  const fixed = /^bytes(\d+)$/.exec(param.type);
  if (fixed) return bytes(Number(fixed[1]));
  const int = /^uint(\d+)$/.exec(param.type);
  if (int) {
    const bits = Number(int[1]);
    const edge = next();
    if (edge < 0.2) return bits <= 48 ? 0 : 0n;
    if (edge < 0.4) return bits <= 48 ? 2 ** bits - 1 : (1n << BigInt(bits)) - 1n;
    const value = BigInt(bytes(Math.ceil(bits / 8))) & ((1n << BigInt(bits)) - 1n);
    return bits <= 48 ? Number(value) : value;
  }
  const signed = /^int(\d+)$/.exec(param.type);
  if (signed) {
    // Two's complement edges (the least, the greatest, -1) and random values of the whole range.
    const bits = BigInt(signed[1]);
    const edge = next();
    const value =
      edge < 0.15
        ? -(1n << (bits - 1n))
        : edge < 0.3
          ? (1n << (bits - 1n)) - 1n
          : edge < 0.4
            ? -1n
            : BigInt.asIntN(Number(bits), BigInt(bytes(Number(bits) / 8)));
    return bits <= 48n ? Number(value) : value;
  }
  throw new Error(`no generator for ABI type ${param.type}`);
}

const functions = Object.entries(abis as Record<string, unknown>)
  .filter((entry): entry is [string, Abi] => Array.isArray(entry[1]))
  .flatMap(([abiName, abi]) => abi.filter((item): item is AbiFunction => item.type === 'function').map((item) => ({ abiName, abi, item })));

t.test('encodeCall writes the bytes viem encodeFunctionData writes, for every function of every ABI we encode', async (t) => {
  t.ok(functions.length >= 20, `${functions.length} functions`);
  const next = seededRandom(14);
  const differing: string[] = [];
  let compared = 0;
  for (const { abiName, abi, item } of functions) {
    const encode = encodeCall(abi, item.name as never) as (args: readonly unknown[]) => string;
    for (let i = 0; i < 25; i++) {
      const args = item.inputs.map((p) => randomValue(p, next));
      const expected = encodeFunctionData({ abi, functionName: item.name, args } as never);
      compared++;
      if (encode(args) !== expected) {
        differing.push(`${abiName}.${item.name} case ${i}: ${encode(args)} != ${expected}`);
        break;
      }
    }
  }
  t.same(differing, [], `${compared} random calls encoded as viem does`);
});

t.test('encodeCall refuses a name the ABI does not have exactly once', async (t) => {
  t.throws(() => encodeCall(abis.erc20Abi, 'nope' as never), { message: 'encodeCall: 0 functions named nope in the ABI (one expected)' });
  const twice = [...abis.erc20Abi, ...abis.erc20Abi] as Abi;
  t.throws(() => encodeCall(twice, 'approve' as never), { message: 'encodeCall: 2 functions named approve in the ABI (one expected)' });
});

t.test("abiEncode writes signed integers as viem does (two's complement), the v4 tickSpacing and tick types", async (t) => {
  for (const [type, value] of [
    ['int24', -887272n],
    ['int24', 60n],
    ['int24', -(1n << 23n)],
    ['int24', (1n << 23n) - 1n],
    ['int256', -1n],
    ['int128', -(1n << 127n)],
  ] as const) {
    const param = [{ type }] as AbiParameter[];
    t.equal(abiEncode(param, [value]), encodeAbiParameters(param, [value]), `${type} ${value}`);
  }
});

t.test('abiEncode refuses values that do not fit their type, and types our ABIs do not use', async (t) => {
  // The last two viem accepts (it pads odd hex, it has function types); nothing we encode uses them.
  const cases: [AbiParameter, unknown, string][] = [
    [{ type: 'uint24' }, 1n << 24n, 'abiEncode: 16777216 is not a uint24'],
    [{ type: 'uint256' }, -1n, 'abiEncode: -1 is not a uint256'],
    [{ type: 'uint32' }, 1.5, 'abiEncode: 1.5 is not a uint32'],
    [{ type: 'address' }, '0x123', 'abiEncode: invalid address 0x123'],
    [{ type: 'bytes32' }, '0x12', 'abiEncode: bytes32 expects 32 bytes'],
    [{ type: 'int24' }, 1n << 23n, 'abiEncode: 8388608 is not a int24'],
    [{ type: 'bytes' }, '0x123', 'abiEncode: bytes expects 0x hex of whole bytes'],
    [{ type: 'function' }, '0x', 'abiEncode: unsupported type function'],
  ];
  for (const [i, [param, value, message]] of cases.entries()) {
    t.throws(() => abiEncode([param], [value]), { message }, message);
    if (i < 6) t.throws(() => encodeAbiParameters([param], [value] as never), `viem refuses it too: ${message}`);
  }
});

t.test('abiEncode writes bytes and addresses in lower case whatever their case, also after their lower-case spelling', async (t) => {
  // bytes in lower case skip the lower-casing pass, and address words are kept by spelling: neither may leak a case.
  // The oracle: viem's encoding of the lower-cased values (viem keeps the case of bytes as given).
  const params = [{ type: 'bytes' }, { type: 'address' }, { type: 'bytes[]' }] as AbiParameter[];
  const lower = ['0xabcdef01', '0x5fbdb2315678afecb367f032d93f642f64180aa3', ['0x00ff', '0xab']];
  const mixed = ['0xABCDEF01', '0x5FbDB2315678afecb367f032d93F642f64180aa3', ['0x00FF', '0xAb']];
  const expected = encodeAbiParameters(params, lower as never);
  t.equal(abiEncode(params, lower), expected, 'lower case');
  t.equal(abiEncode(params, mixed), expected, 'mixed case');
});

t.test('abiEncode takes the calls it has just encoded as bytes values (a multicall of them), as viem encodes them', async (t) => {
  // Calls encoded a moment before are taken without scanning their digits again (abiEncode.ts ENCODED); the oracle
  // is viem's encoding of the same calls and of the multicall around them.
  const next = seededRandom(15);
  const approve = encodeCall(abis.erc20Abi, 'approve');
  const multicall = encodeCall(abis.swapRouter02Abi, 'multicall');
  for (let i = 0; i < 20; i++) {
    const args = [
      getAddress(bytesToHex(Uint8Array.from({ length: 20 }, () => Math.floor(next() * 256)))),
      BigInt(Math.floor(next() * 2 ** 52)),
    ] as const;
    const calls = Array.from({ length: 1 + (i % 4) }, () => approve(args));
    t.equal(calls[0], encodeFunctionData({ abi: abis.erc20Abi, functionName: 'approve', args }), `call ${i}`);
    const deadline = BigInt(1_900_000_000 + i);
    t.equal(
      multicall([deadline, calls]),
      encodeFunctionData({ abi: abis.swapRouter02Abi, functionName: 'multicall', args: [deadline, calls] }),
      `multicall ${i} of ${calls.length} calls`,
    );
  }
  t.throws(() => multicall([1n, [`${approve([getAddress(`0x${'11'.repeat(20)}`), 1n])}0`]]), {
    message: 'abiEncode: bytes expects 0x hex of whole bytes',
  });
});

t.test('abiEncode scans a bytes value that an encoding after a prefix other than hex made (it is not known to be hex)', async (t) => {
  const param = [{ type: 'uint256' }] as AbiParameter[];
  for (const prefix of ['0xZZ', '0x1', 'ab']) {
    const text = abiEncodeAfter(prefix, param, [1n]);
    t.throws(() => abiEncode([{ type: 'bytes' }], [text]), { message: 'abiEncode: bytes expects 0x hex of whole bytes' }, prefix);
  }
  const hex = abiEncodeAfter('0xabcd', param, [1n]);
  t.equal(abiEncode([{ type: 'bytes' }], [hex]), encodeAbiParameters([{ type: 'bytes' }], [hex as `0x${string}`]), 'a hex prefix');
});
