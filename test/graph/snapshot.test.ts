// Snapshot files and the gas price they record: gasPriceWei loads on both read paths (parseSnapshot and the fast
// byte path of loadSnapshots), an older file without it still loads and counts as gas price 0, a malformed one is
// refused with the schema's message. The shipped devnet snapshots carry the field (their values come from the
// chain: test/chain/seedChains.test.ts checks the seeding run against eth_maxPriorityFeePerGas and the block).

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { tickRegionList } from '../../src/graph/parseSnapshotBytes.ts';
import { loadSnapshots, parseSnapshot, type Snapshot, snapshotGasPriceWei } from '../../src/graph/snapshot.ts';
import { type SnapshotPool, snapshotProtocol } from '../../src/protocols/registry.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const fixture = readFileSync(join(ROOT, 'test', 'fixtures', 'snapshots', 'testchain.json'), 'utf8');
const withGasPrice = (value: unknown): string => {
  const data = JSON.parse(fixture) as Record<string, unknown>;
  return JSON.stringify({ ...data, gasPriceWei: value }, null, 1);
};

t.test('a snapshot without gasPriceWei (written before the field) loads; its gas price counts as 0', async (t) => {
  t.notOk('gasPriceWei' in (JSON.parse(fixture) as object), 'the fixture predates the field');
  const parsed = parseSnapshot(fixture);
  t.type(parsed, 'object');
  t.equal((parsed as Snapshot).gasPriceWei, undefined);
  t.equal(snapshotGasPriceWei(parsed as Snapshot), 0n);
  const dir = mkdtempSync(join(tmpdir(), 'snapshot-gas-'));
  writeFileSync(join(dir, 'testchain.json'), fixture);
  const load = loadSnapshots(dir);
  t.same(load.errors, []);
  t.equal(snapshotGasPriceWei(load.snapshots[0]), 0n, 'the same through the fast path');
});

t.test('gasPriceWei loads on both paths as the integer string it is', async (t) => {
  const text = withGasPrice('1000000008');
  t.equal(snapshotGasPriceWei(parseSnapshot(text) as Snapshot), 1_000_000_008n);
  const dir = mkdtempSync(join(tmpdir(), 'snapshot-gas-'));
  writeFileSync(join(dir, 'testchain.json'), text);
  const load = loadSnapshots(dir);
  t.same(load.errors, []);
  t.equal(load.snapshots[0].gasPriceWei, '1000000008');
  t.equal(snapshotGasPriceWei(load.snapshots[0]), 1_000_000_008n);
  // Larger than 2^53: kept exact.
  t.equal(snapshotGasPriceWei(parseSnapshot(withGasPrice('123456789012345678901234567890')) as Snapshot), 123456789012345678901234567890n);
});

t.test('a malformed gasPriceWei is refused with the schema message, on both paths', async (t) => {
  for (const bad of ['1.5', '-1', '', '0x10', 100]) {
    const text = withGasPrice(bad);
    const message = typeof bad === 'number' ? '/gasPriceWei: must be string' : '/gasPriceWei: must match pattern "^(0|[1-9][0-9]*)$"';
    t.equal(parseSnapshot(text), message, `${JSON.stringify(bad)} refused`);
    const dir = mkdtempSync(join(tmpdir(), 'snapshot-gas-'));
    writeFileSync(join(dir, 'testchain.json'), text);
    t.same(
      loadSnapshots(dir),
      { snapshots: [], errors: [`testchain.json: ${message}`] },
      `${JSON.stringify(bad)} refused by loadSnapshots`,
    );
  }
});

t.test('the shipped devnet snapshots record a gas price', async (t) => {
  const load = loadSnapshots(join(ROOT, 'seeds', 'snapshots'));
  t.same(load.errors, []);
  t.same(
    load.snapshots.map((s) => [s.chainId, typeof s.gasPriceWei, snapshotGasPriceWei(s) > 0n]),
    [
      [31338, 'string', true],
      [31337, 'string', true],
    ],
  );
});

t.test('the fast path gives the document JSON.parse gives: same keys in the same order, ticks an enumerable getter', async (t) => {
  // Both of the fixture's pools twice: a v2 pair whose reserves equal its balances, v3 pools with ticks (last, and
  // first), tokens repeated.
  const data = JSON.parse(fixture) as { pools: Record<string, unknown>[] };
  const v2 = data.pools.find((p) => p.version === 'v2')!;
  const v3 = data.pools.find((p) => p.version === 'v3')!;
  data.pools = [
    v2,
    v3,
    { ...v2, address: `0x${'1'.repeat(40)}`, balance1: v2.balance0, reserve1: '7' },
    { ticks: [], ...v3, address: `0x${'2'.repeat(40)}` }, // ticks first, then the rest
  ];
  const text = JSON.stringify(data, null, 1);
  const dir = mkdtempSync(join(tmpdir(), 'snapshot-fast-'));
  writeFileSync(join(dir, 'testchain.json'), text);
  const load = loadSnapshots(dir);
  t.same(load.errors, []);
  const expected = JSON.parse(text) as { pools: Record<string, unknown>[] };
  const pools = load.snapshots[0].pools as unknown as Record<string, unknown>[];
  t.equal(pools.length, expected.pools.length);
  for (const [i, pool] of pools.entries()) {
    t.strictSame(Object.keys(pool), Object.keys(expected.pools[i]), `pool ${i}: keys in order`);
    for (const key of Object.keys(pool)) t.strictSame(pool[key], expected.pools[i][key], `pool ${i}: ${key}`);
    if ('ticks' in pool) {
      const d = Object.getOwnPropertyDescriptor(pool, 'ticks')!;
      t.ok(d.get && d.enumerable, `pool ${i}: ticks decoded on access`);
      const size = snapshotProtocol('v3').stateSize(pool as unknown as SnapshotPool);
      t.equal(size, (expected.pools[i].ticks as unknown[]).length, `pool ${i}: its tick count read without decoding`);
    }
  }
  t.strictSame(JSON.parse(JSON.stringify(load.snapshots[0])), expected, 'serialises as the file');
});

t.test('the fast path parses the pools a part at a time into the document JSON.parse gives, and refuses what it refuses', async (t) => {
  // 10,000 pools (many parts of about 48 KB), strings holding quotes, backslashes, brackets and a `"pools": [` of
  // their own, and no whitespace between elements.
  const data = JSON.parse(fixture) as { pools: Record<string, unknown>[] } & Record<string, unknown>;
  const [v2, v3] = ['v2', 'v3'].map((v) => data.pools.find((p) => p.version === v)!);
  data.pools = Array.from({ length: 10_000 }, (_, i) => ({
    ...(i % 3 === 0 ? v3 : v2),
    address: `0x${i.toString(16).padStart(40, '0')}`,
  }));
  data.excludedTokens = [
    { address: `0x${'3'.repeat(40)}`, reason: 'metadata', detail: 'a "quoted" \\ detail, "pools": [ {"x": 1} ] }', pools: [] },
  ];
  const dir = mkdtempSync(join(tmpdir(), 'snapshot-parts-'));
  const load = (text: string) => {
    writeFileSync(join(dir, 'testchain.json'), text);
    return loadSnapshots(dir);
  };
  for (const [name, text] of [
    ['indented', JSON.stringify(data, null, 1)],
    ['compact', JSON.stringify(data)],
  ] as const) {
    t.ok(text.length > 6 * 512 * 1024, `${name}: several parts`);
    const loaded = load(text);
    t.same(loaded.errors, [], name);
    t.strictSame(JSON.parse(JSON.stringify(loaded.snapshots[0])), JSON.parse(text), `${name}: as JSON.parse`);
    t.ok(tickRegionList(loaded.snapshots[0]), `${name}: on the fast path`);
  }
  const compact = JSON.stringify(data);
  const second = `${'{"address":"'}0x${'0'.repeat(37)}001"`;
  for (const [name, text] of [
    ['no comma between two pools', compact.replace(`},${second}`, `} ${second}`)],
    // Between every two pools: also where one part ends and the next begins.
    ['no comma between pools', compact.replaceAll('},{"address"', '} {"address"')],
    ['two commas between pools', compact.replaceAll('},{"address"', '},,{"address"')],
    ['a comma after the last pool', compact.replace(/}\],"excludedTokens"/, '},],"excludedTokens"')],
    ['a number among the pools', compact.replace(`},${second}`, `},1,${second}`)],
    ['strings among the pools', compact.replaceAll('},{"address"', '},"x",{"address"')],
  ] as const) {
    t.not(text, compact, `${name}: changed`);
    const message = parseSnapshot(text);
    t.type(message, 'string', `${name}: refused by JSON.parse`);
    t.same(load(text), { snapshots: [], errors: [`testchain.json: ${message}`] }, `${name}: refused with its message`);
  }
  // Two `pools` keys: JSON.parse keeps the last; so does the load (through the slow path).
  const twice = compact.replace('"pools":[', `"pools":[${JSON.stringify(data.pools[1])}],"pools":[`);
  const loaded = load(twice);
  t.same(loaded.errors, []);
  t.equal(loaded.snapshots[0].pools.length, 10_000, 'two pools keys: the last one');
});
