// The protocol seam's applyEvent on hand-made logs: exact updates for well-formed events, and a re-read (never a
// guessed state) for a malformed, unexpected or unappliable one. The devnet test checks the same against the chain.
import t from 'tap';
import { encodeAbiParameters, pad, toHex } from 'viem';
import { eventTopic, type PoolLog } from '../../src/protocols/logWords.ts';
import type { EventContext } from '../../src/protocols/PoolProtocol.ts';
import { type SnapshotPool, snapshotProtocol } from '../../src/protocols/registry.ts';
import type { SnapshotPoolV2 } from '../../src/protocols/uniswapV2/SnapshotPoolV2.ts';
import { type FollowedPoolV3, PANCAKE_V3_SWAP, V3_BURN, V3_MINT, V3_SWAP } from '../../src/protocols/uniswapV3/uniswapV3Events.ts';

const ctx = { tickWindowWords: 2 };
const v2: SnapshotPoolV2 = {
  address: '0x1',
  dex: 'uniswap',
  version: 'v2',
  token0: '0xa',
  token1: '0xb',
  fee: 3000,
  balance0: '5',
  balance1: '6',
  reserve0: '5',
  reserve1: '6',
  priceCumulativeSet: true,
};
const v3: FollowedPoolV3 = {
  address: '0x2',
  dex: 'uniswap',
  version: 'v3',
  token0: '0xa',
  token1: '0xb',
  fee: 3000,
  balance0: '1000',
  balance1: '1000',
  sqrtPriceX96: (2n ** 96n).toString(),
  tick: 0,
  liquidity: '100',
  tickSpacing: 60,
  bitmapWords: [-2, 2],
  ticks: [
    [-60, '100'],
    [60, '-100'],
  ],
  grossByTick: { '-60': '100', '60': '100' },
};
const SYNC = eventTopic('Sync(uint112,uint112)');
/** A log applied by the protocol of the state's snapshot version, as the follower applies it. */
const applyPoolEvent = (state: SnapshotPool, log: PoolLog, context: EventContext) =>
  snapshotProtocol(state.version).applyEvent(state, log, context);
const word = (n: bigint): string => pad(toHex(BigInt.asUintN(256, n)), { size: 32 });
const addr = pad('0x01', { size: 32 });

t.test('v2 Sync sets reserves and balances; anything else is a re-read', async (t) => {
  const r = applyPoolEvent(
    v2,
    { address: '0x1', topics: [SYNC], data: encodeAbiParameters([{ type: 'uint112' }, { type: 'uint112' }], [7n, 9n]) },
    ctx,
  );
  t.same(r, { ok: true, state: { ...v2, reserve0: '7', reserve1: '9', balance0: '7', balance1: '9' } });
  t.equal(applyPoolEvent(v2, { address: '0x1', topics: [SYNC], data: '0x01' }, ctx).ok, false, 'short data');
  t.equal(applyPoolEvent(v2, { address: '0x1', topics: [V3_SWAP], data: '0x' }, ctx).ok, false, 'unexpected topic');
});

t.test('v2 Sync of a pair whose price accumulators may still be zero', async (t) => {
  const data = encodeAbiParameters([{ type: 'uint112' }, { type: 'uint112' }], [7n, 9n]);
  const sync = { address: '0x1', topics: [SYNC], data };
  // UniswapV2Pair._update writes price0/1CumulativeLast only when the old reserves are non-zero and time passed.
  for (const cold of [
    { ...v2, priceCumulativeSet: false },
    { ...v2, priceCumulativeSet: undefined },
  ])
    t.equal(applyPoolEvent(cold, sync, ctx).ok, false, `reserves were non-zero, accumulators ${cold.priceCumulativeSet}: re-read`);
  const empty = { ...v2, reserve0: '0', reserve1: '0', balance0: '0', balance1: '0', priceCumulativeSet: false };
  t.same(
    applyPoolEvent(empty, sync, ctx),
    { ok: true, state: { ...empty, reserve0: '7', reserve1: '9', balance0: '7', balance1: '9' } },
    'the first liquidity (reserves were zero): the accumulators stay zero',
  );
});

t.test('v3 fee-growth state: a swap, a crossed tick, a new tick, a flash', async (t) => {
  const fresh: FollowedPoolV3 = { ...v3, feeGrowthGlobalSet: [false, false], feeGrowthOutsideSet: {} };
  // token1 in (amount1 > 0), from tick 0 to 61: crosses tick 60 (tickBefore < t <= tickAfter).
  const data = encodeAbiParameters(
    [{ type: 'int256' }, { type: 'int256' }, { type: 'uint160' }, { type: 'uint128' }, { type: 'int24' }],
    [-9n, 10n, 2n ** 96n + 5n, 0n, 61],
  );
  const swap = applyPoolEvent(fresh, { address: '0x2', topics: [V3_SWAP, addr, addr], data }, ctx);
  const s = (swap as { state: FollowedPoolV3 }).state;
  t.same(s.feeGrowthGlobalSet, [false, true], "the input's fee growth is non-zero after a swap that paid a fee");
  // Tick.cross: outside1 = global1 (non-zero) - 0; outside0 = global0 (zero) - 0 stays zero.
  t.same(s.feeGrowthOutsideSet, { '60': 2 }, "the crossed tick's outside1 written from the global, outside0 still zero");
  const mintData = encodeAbiParameters(
    [{ type: 'address' }, { type: 'uint128' }, { type: 'uint256' }, { type: 'uint256' }],
    ['0x0000000000000000000000000000000000000001', 50n, 3n, 4n],
  );
  const warm0: FollowedPoolV3 = { ...fresh, feeGrowthGlobalSet: [true, false] };
  const below = applyPoolEvent(warm0, { address: '0x2', topics: [V3_MINT, addr, word(-120n), word(120n)], data: mintData }, ctx);
  // Tick.update: a new tick at or below the current one starts with outside = global, above it with 0.
  t.same((below as { state: FollowedPoolV3 }).state.feeGrowthOutsideSet, { '-120': 1 }, 'new tick -120 <= tick 0: outside = global');
  const flashData = encodeAbiParameters(
    [{ type: 'uint256' }, { type: 'uint256' }, { type: 'uint256' }, { type: 'uint256' }],
    [100n, 0n, 0n, 2n],
  );
  const flash = applyPoolEvent(
    fresh,
    { address: '0x2', topics: [eventTopic('Flash(address,address,uint256,uint256,uint256,uint256)'), addr, addr], data: flashData },
    ctx,
  );
  t.same((flash as { state: FollowedPoolV3 }).state.feeGrowthGlobalSet, [false, true], 'a flash fee paid in token1');
  const unknown = applyPoolEvent(v3, { address: '0x2', topics: [V3_SWAP, addr, addr], data }, ctx);
  t.equal((unknown as { state: FollowedPoolV3 }).state.feeGrowthGlobalSet, undefined, 'unknown stays unknown');
});

t.test('v3 Mint, Burn and Swap', async (t) => {
  const mintData = encodeAbiParameters(
    [{ type: 'address' }, { type: 'uint128' }, { type: 'uint256' }, { type: 'uint256' }],
    ['0x0000000000000000000000000000000000000001', 50n, 3n, 4n],
  );
  const mint = applyPoolEvent(v3, { address: '0x2', topics: [V3_MINT, addr, word(-120n), word(60n)], data: mintData }, ctx);
  t.ok(mint.ok);
  const m = (mint as { state: FollowedPoolV3 }).state;
  t.same(
    m.ticks,
    [
      [-120, '50'],
      [-60, '100'],
      [60, '-150'],
    ],
    'a new tick, an existing one',
  );
  t.same(m.grossByTick, { '-120': '50', '-60': '100', '60': '150' });
  t.equal(m.liquidity, '150', 'in range: liquidity grows');
  t.same([m.balance0, m.balance1], ['1003', '1004']);
  const burnData = encodeAbiParameters([{ type: 'uint128' }, { type: 'uint256' }, { type: 'uint256' }], [100n, 0n, 0n]);
  const burn = applyPoolEvent(v3, { address: '0x2', topics: [V3_BURN, addr, word(-60n), word(60n)], data: burnData }, ctx);
  t.same((burn as { state: FollowedPoolV3 }).state.ticks, [], 'both ticks emptied: gone from the list');
  t.equal((burn as { state: FollowedPoolV3 }).state.liquidity, '0');
  const unknownGross = { ...v3, grossByTick: undefined };
  t.equal(
    applyPoolEvent(unknownGross, { address: '0x2', topics: [V3_BURN, addr, word(-60n), word(60n)], data: burnData }, ctx).ok,
    false,
    'gross unknown: re-read',
  );
  const swapData = (tick: bigint): string =>
    encodeAbiParameters(
      [{ type: 'int256' }, { type: 'int256' }, { type: 'uint160' }, { type: 'uint128' }, { type: 'int24' }],
      [10n, -9n, 2n ** 96n + 5n, 100n, Number(tick)],
    );
  const swap = applyPoolEvent(v3, { address: '0x2', topics: [V3_SWAP, addr, addr], data: swapData(1n) }, ctx);
  t.same(swap, {
    ok: true,
    state: { ...v3, balance0: '1010', balance1: '991', sqrtPriceX96: (2n ** 96n + 5n).toString(), tick: 1, liquidity: '100' },
  });
  t.equal(
    applyPoolEvent(v3, { address: '0x2', topics: [V3_SWAP, addr, addr], data: swapData(60n * 256n) }, ctx).ok,
    false,
    'price leaves its window: re-read',
  );
  t.equal(applyPoolEvent(v3, { address: '0x2', topics: [V3_SWAP, addr], data: swapData(1n) }, ctx).ok, false, 'missing topic: re-read');
});

t.test("PancakeSwap v3's Swap (two protocol-fee words more, its own topic) moves the v3 state as Uniswap's does", async (t) => {
  const types = [{ type: 'int256' }, { type: 'int256' }, { type: 'uint160' }, { type: 'uint128' }, { type: 'int24' }] as const;
  const pancake = { ...v3, dex: 'pancakeswap', fee: 2500, tickSpacing: 50 };
  const data = encodeAbiParameters([...types, { type: 'uint128' }, { type: 'uint128' }], [10n, -9n, 2n ** 96n + 5n, 100n, 1, 2n, 0n]);
  t.equal(PANCAKE_V3_SWAP, eventTopic('Swap(address,address,int256,int256,uint160,uint128,int24,uint128,uint128)'));
  t.not(PANCAKE_V3_SWAP, V3_SWAP, 'another topic than Uniswap v3');
  t.same(applyPoolEvent(pancake, { address: '0x2', topics: [PANCAKE_V3_SWAP, addr, addr], data }, ctx), {
    ok: true,
    state: { ...pancake, balance0: '1010', balance1: '991', sqrtPriceX96: (2n ** 96n + 5n).toString(), tick: 1, liquidity: '100' },
  });
  const uniswapLayout = encodeAbiParameters(types, [10n, -9n, 2n ** 96n + 5n, 100n, 1]);
  t.equal(
    applyPoolEvent(pancake, { address: '0x2', topics: [PANCAKE_V3_SWAP, addr, addr], data: uniswapLayout }, ctx).ok,
    false,
    "Uniswap's five words under Pancake's topic: re-read",
  );
  t.equal(
    applyPoolEvent(pancake, { address: '0x2', topics: [V3_SWAP, addr, addr], data }, ctx).ok,
    false,
    "Pancake's seven words under Uniswap's topic: re-read",
  );
  const overflow = encodeAbiParameters(
    [...types, { type: 'uint256' }, { type: 'uint128' }],
    [10n, -9n, 2n ** 96n + 5n, 100n, 1, 2n ** 128n, 0n],
  );
  t.equal(
    applyPoolEvent(pancake, { address: '0x2', topics: [PANCAKE_V3_SWAP, addr, addr], data: overflow }, ctx).ok,
    false,
    'a protocol fee beyond uint128: re-read',
  );
});
