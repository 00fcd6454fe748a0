// FollowedPools keeps, as pools enter, change and leave a follower's book, the pools re-read at every block
// (PoolProtocol.rereadEachBlock) and v4's record of the PoolManager's protocolFeesAccrued per currency
// (PoolProtocol.sharedState): after random sequences of adds, updates and removals over v2, v4 and Balancer pools, both
// must equal a full scan of the pools as they stand. The full scans are written here: which pools are re-read follows
// from how each state was drawn (a v4 dynamic-fee pool whose hook the chain lists, a Balancer stable pool ramping or
// rate-provided), and v4's spread and re-read are the rule stated over every pool (SnapshotPoolV4
// .protocolFeesAccruedSet), not through the index.
import { isDeepStrictEqual } from 'node:util';
import t from 'tap';
import { decodeFunctionData, getAddress, parseAbi } from 'viem';
import { FollowedPools } from '../../src/follow/followedPools.ts';
import type { SnapshotPoolBalancer } from '../../src/protocols/balancer/SnapshotPoolBalancer.ts';
import { type SnapshotPool, snapshotProtocol } from '../../src/protocols/registry.ts';
import type { SnapshotPoolV2 } from '../../src/protocols/uniswapV2/SnapshotPoolV2.ts';
import type { SnapshotPoolV4 } from '../../src/protocols/uniswapV4/SnapshotPoolV4.ts';
import { seededRandom } from '../helpers/seededRandom.ts';

const LISTED_HOOK = '0x4444000000000000000000000000000000004000'; // no permission bit: a dynamic fee it sets is followed
const UNLISTED_HOOK = '0x5555000000000000000000000000000000004000';
const DYNAMIC = 0x800000;
const MANAGERS = ['0x000000000000000000000000000000000000aa01', '0x000000000000000000000000000000000000aa02'];
const CURRENCIES = [
  '0x0000000000000000000000000000000000000000',
  '0x1000000000000000000000000000000000000001',
  '0x2000000000000000000000000000000000000002',
  '0x3000000000000000000000000000000000000003',
];
const PM = parseAbi(['function protocolFeesAccrued(address currency) view returns (uint256)']);

/** A drawn state and whether a follower must re-read it at every block (by construction). */
interface Drawn {
  readonly state: SnapshotPool;
  readonly everyBlock: boolean;
}

const common = { dex: 'test', fee: 3000, balance0: '1', balance1: '1' } as const;

function drawV2(address: string, random: () => number): Drawn {
  const state: SnapshotPoolV2 = {
    ...common,
    address,
    version: 'v2',
    token0: CURRENCIES[1],
    token1: CURRENCIES[2],
    reserve0: String(1 + Math.floor(random() * 1000)),
    reserve1: '1000',
  };
  return { state, everyBlock: false };
}

function drawV4(address: string, random: () => number): Drawn {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const i = Math.floor(random() * CURRENCIES.length);
  const j = (i + 1 + Math.floor(random() * (CURRENCIES.length - 1))) % CURRENCIES.length;
  const hooks = pick(['0x0000000000000000000000000000000000000000', LISTED_HOOK, UNLISTED_HOOK]);
  const fee = hooks !== '0x0000000000000000000000000000000000000000' && random() < 0.6 ? DYNAMIC : 3000;
  const accrued = pick([undefined, [false, false], [true, false], [false, true], [true, true]] as const);
  const state: SnapshotPoolV4 = {
    ...common,
    address,
    version: 'v4',
    token0: CURRENCIES[Math.min(i, j)],
    token1: CURRENCIES[Math.max(i, j)],
    fee,
    poolManager: getAddress(pick(MANAGERS)),
    hooks,
    tickSpacing: 60,
    lpFee: 3000,
    protocolFee: accrued ? 0x1f41f4 : 0,
    sqrtPriceX96: (1n << 96n).toString(),
    tick: 0,
    liquidity: '1000',
    bitmapWords: [-1, 0],
    ticks: [],
    ...(accrued ? { protocolFeesAccruedSet: accrued } : {}),
  };
  return { state, everyBlock: fee === DYNAMIC && hooks === LISTED_HOOK };
}

function drawBalancer(address: string, random: () => number): Drawn {
  const stable = random() < 0.7;
  const ampUpdating = stable && random() < 0.3;
  const rated = stable && random() < 0.3;
  const state: SnapshotPoolBalancer = {
    ...common,
    address,
    version: 'balancerV2',
    token0: CURRENCIES[1],
    token1: CURRENCIES[2],
    poolKind: stable ? 'balancerStable' : 'balancerWeighted',
    pool: getAddress(address.slice(0, 42)),
    vault: getAddress(MANAGERS[0]),
    factory: getAddress(MANAGERS[1]),
    tokens: [CURRENCIES[1], CURRENCIES[2]],
    balances: ['1', '1'],
    decimals: [18, 18],
    swapFee: '3000000000000000',
    ...(stable
      ? { bptIndex: -1, amp: '200000', ampUpdating, rates: rated ? ['1000000000000000000', null] : [null, null] }
      : { weights: ['500000000000000000', '500000000000000000'] }),
  };
  return { state, everyBlock: ampUpdating || rated };
}

/** Pool addresses: each keeps its protocol (a pool's address names one pool). */
const ADDRESSES = Array.from({ length: 60 }, (_, k) => `0x${(k + 1).toString(16).padStart(64, '0')}`);
const draw = (address: string, random: () => number): Drawn => {
  const k = ADDRESSES.indexOf(address) % 3;
  return k === 0 ? drawV2(address, random) : k === 1 ? drawV4(address, random) : drawBalancer(address, random);
};

/** The rule over every pool: a key is a PoolManager and a currency. */
const keyOf = (p: SnapshotPoolV4, currency: string): string => `${p.poolManager.toLowerCase()}:${currency.toLowerCase()}`;
const v4Pools = (all: ReadonlyMap<string, Drawn>): [string, SnapshotPoolV4][] =>
  [...all].flatMap(([a, d]) => (d.state.version === 'v4' ? [[a, d.state] as [string, SnapshotPoolV4]] : []));

/** Every pool of a key takes the key's new value (a false among the block's changes wins). */
function fullSpread(changed: readonly (readonly [SnapshotPoolV4 | undefined, SnapshotPoolV4])[], all: ReadonlyMap<string, Drawn>) {
  const now = new Map<string, boolean>();
  for (const [before, after] of changed) {
    const set = after.protocolFeesAccruedSet;
    if (!set) continue;
    [after.token0, after.token1].forEach((c, i) => {
      if (before?.protocolFeesAccruedSet?.[i] !== set[i]) now.set(keyOf(after, c), (now.get(keyOf(after, c)) ?? true) && set[i]);
    });
  }
  return changedBy(now, all);
}

function changedBy(now: ReadonlyMap<string, boolean>, all: ReadonlyMap<string, Drawn>): Map<string, SnapshotPoolV4> {
  const out = new Map<string, SnapshotPoolV4>();
  for (const [a, p] of v4Pools(all)) {
    const set = p.protocolFeesAccruedSet;
    if (!set) continue;
    const next = [now.get(keyOf(p, p.token0)) ?? set[0], now.get(keyOf(p, p.token1)) ?? set[1]] as const;
    if (next[0] !== set[0] || next[1] !== set[1]) out.set(a, { ...p, protocolFeesAccruedSet: next });
  }
  return out;
}

/** The keys some pool records non-zero: what the follower reads at every block. */
function recordedNonZero(all: ReadonlyMap<string, Drawn>): string[] {
  const keys = new Set<string>();
  for (const [, p] of v4Pools(all)) {
    [p.token0, p.token1].forEach((c, i) => {
      if (p.protocolFeesAccruedSet?.[i]) keys.add(keyOf(p, c));
    });
  }
  return [...keys].sort();
}

const sortedEntries = <V>(m: ReadonlyMap<string, V>): [string, V][] => [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

t.test('every-block pools and v4 shared state equal a full scan after random adds, updates and removals', async (t) => {
  const context = { allowedHooks: new Set([LISTED_HOOK]) };
  let spreadsChecked = 0;
  let rereadsChecked = 0;
  let everyBlockSeen = 0;
  let checks = 0;
  /** One assertion per mismatch (the first few), not per comparison: tens of thousands are made. */
  let failures = 0;
  const check = (name: string, got: unknown, want: unknown): void => {
    checks++;
    if (isDeepStrictEqual(got, want) || failures++ > 5) return;
    t.strictSame(got, want, name);
  };
  for (let seed = 1; seed <= 40; seed++) {
    const random = seededRandom(seed);
    const pools = new FollowedPools(context);
    const all = new Map<string, Drawn>();
    const shared = pools.sharedOf(snapshotProtocol('v4'))!;
    for (let step = 0; step < 300; step++) {
      const r = random();
      const address = ADDRESSES[Math.floor(random() * ADDRESSES.length)];
      if (r < 0.55) {
        // Add or update.
        const d = draw(address, random);
        pools.set(address, d.state);
        all.set(address, d);
      } else if (r < 0.75) {
        pools.delete(address);
        all.delete(address);
      } else if (r < 0.9) {
        // A block changes some v4 pools' records (set first, as the book does), then spreads.
        const changed: [SnapshotPoolV4 | undefined, SnapshotPoolV4][] = [];
        for (const [a] of v4Pools(all)) {
          if (random() >= 0.2) continue;
          const before = all.get(a)!.state as SnapshotPoolV4;
          const d = draw(a, random);
          const after = { ...(d.state as SnapshotPoolV4), poolManager: before.poolManager, token0: before.token0, token1: before.token1 };
          pools.set(a, after);
          all.set(a, { state: after, everyBlock: d.everyBlock });
          changed.push([random() < 0.1 ? undefined : before, after]);
        }
        const got = shared.spread(changed);
        check(`seed ${seed} step ${step}: spread`, sortedEntries(got), sortedEntries(fullSpread(changed, all)));
        for (const [a, state] of got) {
          pools.set(a, state);
          all.set(a, { state, everyBlock: all.get(a)!.everyBlock });
        }
        spreadsChecked++;
      } else {
        // The block's re-read: the keys read, and what random results (zero, non-zero, a failed read) change.
        const read = shared.reread();
        const want = recordedNonZero(all);
        // In the calls' order (the results below answer them in that order).
        const asked = (read?.calls ?? []).map((c) => {
          const { args } = decodeFunctionData({ abi: PM, data: c.data });
          return `${c.target.toLowerCase()}:${String(args[0]).toLowerCase()}`;
        });
        check(`seed ${seed} step ${step}: keys read`, [...asked].sort(), want);
        if (read) {
          const results = read.calls.map(() => [0n, 5n, undefined][Math.floor(random() * 3)]);
          const emptied = new Map(asked.flatMap((k, i) => (results[i] === 0n ? [[k, false] as const] : [])));
          const got = read.apply(results);
          check(`seed ${seed} step ${step}: re-read applied`, sortedEntries(got), sortedEntries(changedBy(emptied, all)));
          for (const [a, state] of got) {
            pools.set(a, state);
            all.set(a, { state, everyBlock: all.get(a)!.everyBlock });
          }
          rereadsChecked++;
        }
      }
      const everyBlock = [...all].filter(([, d]) => d.everyBlock).map(([a]) => a);
      everyBlockSeen += everyBlock.length;
      check(`seed ${seed} step ${step}: every-block pools`, [...pools.everyBlock()].sort(), everyBlock.sort());
      check(
        `seed ${seed} step ${step}: pools`,
        sortedEntries(new Map(pools)),
        sortedEntries(new Map([...all].map(([a, d]) => [a, d.state]))),
      );
    }
    // The predicate is the protocols' (rereadEachBlock), which the drawn flags must agree with.
    for (const [a, d] of all)
      check(`seed ${seed}: ${a}'s flag`, snapshotProtocol(d.state.version).rereadEachBlock?.(d.state, context) ?? false, d.everyBlock);
  }
  t.equal(failures, 0, `${checks} comparisons with the full scan`);
  t.ok(
    spreadsChecked > 100 && rereadsChecked > 100 && everyBlockSeen > 1000,
    `${spreadsChecked} spreads, ${rereadsChecked} re-reads checked`,
  );
});
