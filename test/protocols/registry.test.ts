// The protocol registry: one table from a pool kind (and a snapshot version) to its protocol, refusing what it does
// not know; each snapshot protocol round-trips a snapshot file's pool to a priceable pool and back to file state.
// Expected values come from the snapshot file read as plain JSON and from hand computation.
import { readFileSync } from 'node:fs';
import t, { type Test } from 'tap';
import { loadSnapshots } from '../../src/graph/snapshot.ts';
import {
  POOL_SOURCES,
  PROTOCOL_KINDS,
  poolSource,
  protocolGas,
  protocolOf,
  type SnapshotPool,
  snapshotProtocol,
  UnknownProtocolError,
} from '../../src/protocols/registry.ts';
import { routeGas } from '../../src/routing/gasModel.ts';
import type { Leg } from '../../src/routing/Trade.ts';

const dir = new URL('../fixtures/snapshots/', import.meta.url);
/** The fixture's pools as the file holds them (JSON.parse alone: the oracle for what loading and converting keep). */
const raw = (JSON.parse(readFileSync(new URL('testchain.json', dir), 'utf8')) as { pools: Record<string, unknown>[] }).pools;
const loaded = loadSnapshots(dir.pathname);
const pools: readonly SnapshotPool[] = loaded.snapshots.find((s) => s.chainId === 1001)?.pools ?? [];

/** What `fn` throws (undefined when it returns). */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

/** The error is an UnknownProtocolError with exactly this message. */
function refusedWith(t: Test, error: unknown, message: string): void {
  t.ok(error instanceof UnknownProtocolError, 'an UnknownProtocolError');
  t.equal((error as Error).message, message);
}

t.test('the table refuses a kind or a version it does not know, by name (no default protocol)', async (t) => {
  for (const kind of ['uniswapV5', 'UniswapV2', '', 'toString', '__proto__', 'constructor']) {
    refusedWith(
      t,
      thrown(() => protocolOf(kind)),
      `unknown pool protocol '${kind}' (no row in src/protocols/registry.ts)`,
    );
  }
  for (const version of ['v5', 'V2', '', 'toString', '__proto__']) {
    const message = `unknown snapshot pool version '${version}' (no row in src/protocols/registry.ts)`;
    refusedWith(
      t,
      thrown(() => snapshotProtocol(version)),
      message,
    );
    refusedWith(
      t,
      thrown(() => poolSource(version)),
      message,
    );
  }
  t.equal(new UnknownProtocolError('x').name, 'UnknownProtocolError');
});

t.test('a leg of a kind the table does not know is refused by the gas model, not priced as another protocol', async (t) => {
  const leg = { kind: 'uniswapV5', ticksCrossed: 2 } as unknown as Leg;
  refusedWith(
    t,
    thrown(() => routeGas([leg])),
    "unknown pool protocol 'uniswapV5' (no row in src/protocols/registry.ts)",
  );
});

t.test('each row is found under its own kind; the snapshot versions map to the Uniswap kinds', async (t) => {
  // A row answers each of its kinds (Balancer v2's one row prices balancerWeighted and balancerStable).
  for (const kind of PROTOCOL_KINDS) t.ok(protocolOf(kind).kind === kind || protocolOf(kind).kinds?.includes(kind), kind);
  t.equal(protocolOf('balancerStable'), protocolOf('balancerWeighted'), 'both Balancer kinds are one row');
  t.equal(snapshotProtocol('balancerV2'), protocolOf('balancerStable'), 'the balancerV2 version is that row');
  t.equal(new Set(PROTOCOL_KINDS).size, PROTOCOL_KINDS.length, 'no kind twice');
  t.equal(snapshotProtocol('v2').kind, 'uniswapV2');
  t.equal(snapshotProtocol('v3').kind, 'uniswapV3');
  t.equal(snapshotProtocol('v4').kind, 'uniswapV4');
  t.equal(snapshotProtocol('v2'), protocolOf('uniswapV2'), 'the same row either way');
  t.same(
    POOL_SOURCES.map((s) => s.version),
    ['v2', 'v3', 'v4', 'balancerV2'],
  );
  for (const source of POOL_SOURCES) t.equal(snapshotProtocol(source.version).source, source, `the ${source.version} source is its row's`);
});

t.test("each Balancer kind is priced with its own measured gas, one row's kinds apart", async (t) => {
  // src/protocols/balancer/balancerGas.ts: 30,200 per weighted hop, 80,300 per stable hop, 17,100 per cold slot.
  t.equal(protocolGas('balancerWeighted').hop, 30_200n);
  t.equal(protocolGas('balancerStable').hop, 80_300n);
  t.equal(protocolGas('uniswapV2'), protocolOf('uniswapV2').gas, "a one-kind row's figures are its gas");
  const leg = (kind: Leg['kind'], coldSlots: number) => ({ kind, ticksCrossed: 0, coldSlots, movesTick: false }) as Leg;
  t.equal(routeGas([leg('balancerWeighted', 0), leg('balancerStable', 1)]), 30_200n + 80_300n + 17_100n);
  t.equal(routeGas([leg('balancerStable', 0), leg('balancerStable', 0)], 'exactOut'), 2n * 80_300n, 'no exact-output saving');
  refusedWith(
    t,
    thrown(() => protocolGas('balancerLinear')),
    "unknown pool protocol 'balancerLinear' (no row in src/protocols/registry.ts)",
  );
});

t.test('each snapshot protocol round-trips a pool of the fixture: snapshot -> pool -> its row, and back to file state', async (t) => {
  t.same(loaded.errors, []);
  t.same(
    pools.map((p) => p.version),
    ['v2', 'v3'],
    'the fixture has one pool of each version',
  );
  const expected: Record<string, { kind: string; mid: [bigint, bigint] }> = {
    // reserve1 / reserve0 of the file's pair.
    v2: { kind: 'uniswapV2', mid: [30_000_000_000n, 10_000_000_000_000_000_000n] },
    // sqrtPriceX96² / 2^192 of the file's pool.
    v3: { kind: 'uniswapV3', mid: [4339505179874779489431521n ** 2n, 2n ** 192n] },
  };
  pools.forEach((state, i) => {
    const file = raw[i];
    const protocol = snapshotProtocol(state.version);
    const pool = protocol.fromSnapshot(state);
    t.equal(pool.kind, expected[state.version].kind, `${state.version}: kind`);
    t.equal(protocolOf(pool.kind), protocol, `${state.version}: the pool's kind leads back to its row`);
    t.same(
      { address: pool.address, dex: pool.dex, version: pool.version, token0: pool.token0, token1: pool.token1, fee: pool.fee },
      {
        address: file.address,
        dex: file.dex,
        version: file.version,
        token0: String(file.token0).toLowerCase(),
        token1: String(file.token1).toLowerCase(),
        fee: file.fee,
      },
      `${state.version}: the pool's identity as the file gives it`,
    );
    const [num, den] = expected[state.version].mid;
    t.same(protocol.midPrice(pool), { num, den }, `${state.version}: mid price of the priceable pool`);
    t.same(protocol.snapshotMidPrice(state), { num, den }, `${state.version}: mid price read from the state`);
    t.equal(protocol.checkSnapshot(state), undefined, `${state.version}: a valid state has no problem`);
    t.same(JSON.parse(JSON.stringify(protocol.fileState(state))), file, `${state.version}: file state is the file's pool`);
  });
});

t.test('v3: follower-side liquidityGross is left out of file state; unordered ticks are a problem', async (t) => {
  const v3 = pools.find((p) => p.version === 'v3');
  if (!v3) throw new Error('fixture without a v3 pool');
  const protocol = snapshotProtocol('v3');
  const followed = { ...v3, ticks: [[-10, '5'] as const, [10, '-5'] as const], grossByTick: { '-10': '5', '10': '5' } };
  const file = protocol.fileState(followed);
  t.notOk('grossByTick' in file, 'no grossByTick');
  t.same(file.version === 'v3' && file.ticks, followed.ticks);
  t.equal(protocol.stateSize(followed), 2, 'two ticks');
  t.equal(protocol.checkSnapshot({ ...v3, ticks: [[10, '-5'] as const, [-10, '5'] as const] }), 'ticks: must be strictly ascending');
  t.equal(protocol.checkSnapshot({ ...v3, ticks: [[10, '-5'] as const, [10, '5'] as const] }), 'ticks: must be strictly ascending');
});
