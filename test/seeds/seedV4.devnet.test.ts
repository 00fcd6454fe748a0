// Seeding a devnet with Uniswap v4 (startDevnet({ v4: true })) through the catalogue's v4 entry: the PoolManager's
// Initialize logs find every pool of the devnet plan, native-ETH pools included (currency 0x0000…0000), each named
// by its poolId (keccak256 of the PoolKey, computed from the plan by seeds/devnet/deployUniswapV4.ts, not by the
// code under test) with its key's tick spacing, hooks and fee; the file passes seeds/snapshot.schema.json; a second
// run from that snapshot (its logs already scanned) reads the same pools again from their snapshot state's key.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { v4DevnetAddresses } from '../../seeds/devnet/deployUniswapV4.ts';
import { startDevnet } from '../../seeds/devnet/startDevnet.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { seedChains } from '../../src/chain/seedChains.ts';
import { loadSnapshots, type Snapshot } from '../../src/graph/snapshot.ts';
import { snapshotProtocol } from '../../src/protocols/registry.ts';
import type { SnapshotPoolV4 } from '../../src/protocols/uniswapV4/SnapshotPoolV4.ts';

const devnet = await startDevnet({ v4: true });
t.teardown(() => devnet.stop());
const dir = mkdtempSync(join(tmpdir(), 'sqs-seed-v4-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const catalog = loadCatalog();
const chain = catalog.chain(devnet.chainId)!;

async function seed(): Promise<Snapshot> {
  const report = await seedChains({
    chains: [chain],
    rpcUrls: new Map([[chain.chainId, devnet.rpcUrl]]),
    snapshotDir: dir,
    write: true,
    progress: 'none',
    log: () => undefined,
  });
  return report.chains[0].snapshot!;
}

const plan = v4DevnetAddresses().pools;
const expected = plan
  .map((p) => ({
    address: p.poolId.toLowerCase(),
    token0: p.currency0.toLowerCase(),
    token1: p.currency1.toLowerCase(),
    fee: p.fee,
    lpFee: p.lpFee,
    protocolFee: p.protocolFee,
    tickSpacing: p.tickSpacing,
    hooks: p.hooks.toLowerCase(),
  }))
  .sort((a, b) => (a.address < b.address ? -1 : 1));
const found = (s: Snapshot) =>
  (s.pools.filter((p) => p.version === 'v4') as SnapshotPoolV4[])
    .map((p) => ({
      address: p.address,
      token0: p.token0.toLowerCase(),
      token1: p.token1.toLowerCase(),
      fee: p.fee,
      lpFee: p.lpFee,
      protocolFee: p.protocolFee,
      tickSpacing: p.tickSpacing,
      hooks: p.hooks.toLowerCase(),
    }))
    .sort((a, b) => (a.address < b.address ? -1 : 1));

const first = await seed();

t.test('seeding finds every v4 pool of the devnet plan by its poolId, native-ETH pools included', async (t) => {
  t.equal(plan.length, 10, 'the plan has ten pools');
  t.same(found(first), expected);
  t.ok(
    expected.some((p) => BigInt(p.token0) === 0n),
    'some pools hold native ETH as currency0',
  );
  t.same(
    first.discovery?.scanned.find((s) => s.version === 'v4'),
    { dex: 'uniswap', version: 'v4', factory: devnet.v4!.contracts.poolManager, toBlock: first.blockNumber },
    'the PoolManager is scanned as the v4 entry’s factory',
  );
});

t.test('the written snapshot passes the schema and every v4 state its protocol’s checks', async (t) => {
  const loaded = loadSnapshots(dir);
  t.same(loaded.errors, []);
  const snapshot = loaded.snapshots.find((s) => s.chainId === chain.chainId)!;
  t.same(found(snapshot), expected);
  for (const p of snapshot.pools.filter((x) => x.version === 'v4')) t.equal(snapshotProtocol('v4').checkSnapshot(p), undefined, p.address);
  // The pools the service must refuse stay in the state, refused when priced: a hook with swap permissions, two dynamic
  // fees (one set in beforeSwap; one whose hook the devnet catalogue does not list).
  const active = new Map(snapshot.pools.map((p) => [p.address, snapshotProtocol(p.version).describe(p).isActive]));
  t.same(
    plan.filter((p) => BigInt(p.hooks) !== 0n).map((p) => active.get(p.poolId.toLowerCase())),
    [false, false, false],
  );
});

t.test('a second run reads the known v4 pools again from their snapshot key', async (t) => {
  const second = await seed();
  t.same(found(second), expected);
  t.same(second.discovery?.unlisted ?? [], []);
});
