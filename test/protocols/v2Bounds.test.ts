// A v2 pair's ladder at the bounds UniswapV2Pair.swap enforces, each placed by hand: _update requires both balances
// after the swap to fit uint112 (balanceIn + amountIn <= 2^112 - 1, balanceOut - amountOut <= 2^112 - 1), and the
// amounts either side of each bound are priced by UniswapV2Library's formula written out here. Exact output refusals
// (read as codes, not thrown) equal the library's reverts.
import t from 'tap';
import { getAmountIn } from '../../src/amm/v2.ts';
import { ammRefusal } from '../../src/protocols/ammRefusal.ts';
import type { LadderQuote } from '../../src/protocols/PoolProtocol.ts';
import { protocolOf, snapshotProtocol } from '../../src/protocols/registry.ts';
import type { SnapshotPoolV2 } from '../../src/protocols/uniswapV2/SnapshotPoolV2.ts';

const MAX_UINT112 = (1n << 112n) - 1n;
const v2 = protocolOf('uniswapV2');

function pair(reserve0: bigint, reserve1: bigint, balance0: bigint, balance1: bigint): ReturnType<typeof v2.fromSnapshot> {
  const state: SnapshotPoolV2 = {
    address: '0x9999999999999999999999999999999999999999',
    dex: 'uniswap',
    version: 'v2',
    token0: '0x1111111111111111111111111111111111111111',
    token1: '0x2222222222222222222222222222222222222222',
    fee: 3000,
    reserve0: reserve0.toString(),
    reserve1: reserve1.toString(),
    balance0: balance0.toString(),
    balance1: balance1.toString(),
    priceCumulativeSet: true,
  };
  return snapshotProtocol('v2').fromSnapshot(state);
}

/** UniswapV2Library at 0.3%, by hand. */
const out = (a: bigint, rIn: bigint, rOut: bigint): bigint => (a * 997n * rOut) / (rIn * 1000n + a * 997n);
const input = (a: bigint, rIn: bigint, rOut: bigint): bigint => (rIn * a * 1000n) / ((rOut - a) * 997n) + 1n;

const shape = (q: LadderQuote): unknown => (q.ok ? { amountIn: q.amountIn, amountOut: q.amountOut } : q.code);

t.test('exact input up to the input balance bound: the last amount that fits is priced, one wei more is refused', async (t) => {
  const r = 10n ** 30n;
  const balance0 = MAX_UINT112 - 10n ** 24n;
  const room = MAX_UINT112 - balance0;
  for (const [zeroForOne, p] of [
    [true, pair(r, r, balance0, r)],
    [false, pair(r, r, r, balance0)],
  ] as const) {
    const got = v2.quoteLadder(p, zeroForOne, 'exactIn', [room - 1n, room, room + 1n]).map(shape);
    t.same(
      got,
      [{ amountIn: room - 1n, amountOut: out(room - 1n, r, r) }, { amountIn: room, amountOut: out(room, r, r) }, 'AMOUNT_TOO_LARGE'],
      `zeroForOne ${zeroForOne}`,
    );
  }
});

t.test('exact output from a balance above uint112 (a donation): outputs that leave it above the bound are refused', async (t) => {
  const r = 10n ** 30n;
  const over = 1000n;
  const p = pair(r, r, r, MAX_UINT112 + over);
  // balance1 - amountOut <= 2^112 - 1 from amountOut = over on.
  const got = v2.quoteLadder(p, true, 'exactOut', [over - 1n, over, over + 1n]).map(shape);
  t.same(got, [
    'AMOUNT_TOO_LARGE',
    { amountIn: input(over, r, r), amountOut: over },
    { amountIn: input(over + 1n, r, r), amountOut: over + 1n },
  ]);
  // The same from exact input: the amounts whose output is just below, at and above `over`.
  const a = input(over, r, r) - 6n;
  const amounts = Array.from({ length: 12 }, (_, i) => a + BigInt(i));
  const ladder = v2.quoteLadder(p, true, 'exactIn', amounts);
  let refused = 0;
  let priced = 0;
  for (const [i, q] of ladder.entries()) {
    const o = out(amounts[i], r, r);
    t.same(shape(q), o < over ? 'AMOUNT_TOO_LARGE' : { amountIn: amounts[i], amountOut: o }, `${amounts[i]} buys ${o}`);
    if (o < over) refused++;
    else priced++;
  }
  t.ok(refused > 0 && priced > 0, `both sides of the bound met (${refused} refused, ${priced} priced)`);
});

t.test("exact output refusals read without an error thrown: the same code and reason as the library's revert", async (t) => {
  const thrown = (f: () => unknown): unknown => {
    try {
      f();
    } catch (error) {
      return ammRefusal(error);
    }
    return 'no revert';
  };
  const r = 10n ** 20n;
  const p = pair(r, 3n * r, r, 3n * r);
  const amounts = [2n * r, 3n * r, 3n * r + 1n];
  const got = v2.quoteLadder(p, true, 'exactOut', amounts);
  t.same(shape(got[0]), { amountIn: input(2n * r, r, 3n * r), amountOut: 2n * r });
  for (const i of [1, 2])
    t.same(
      got[i],
      thrown(() => getAmountIn(amounts[i], r, 3n * r, 30)),
      `${amounts[i]}: the whole reserve or more`,
    );
  const empty = pair(0n, 3n * r, 0n, 3n * r);
  t.same(
    v2.quoteLadder(empty, true, 'exactOut', [1n])[0],
    thrown(() => getAmountIn(1n, 0n, 3n * r, 30)),
    'an empty reserve',
  );
});
