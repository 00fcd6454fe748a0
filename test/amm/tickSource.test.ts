import t from 'tap';
import { getSqrtRatioAtTick } from '../../src/amm/tickMath.ts';
import { WindowTickSource } from '../../src/amm/tickSource.ts';
import { Rng, v3sdk } from './oracle.ts';

function source(ticks: number[], s: number, words: [number, number], fee = 3000): WindowTickSource {
  return new WindowTickSource({
    tick: 0,
    liquidity: 0n,
    tickSpacing: s,
    fee,
    ticks: ticks.map((x) => [x, 1n] as const),
    bitmapWords: words,
  });
}

t.test('nextInitializedTickWithinOneWord: v3-core TickBitmap.spec vectors (spacing 1)', async (t) => {
  const ticks = [-200, -55, -4, 70, 78, 84, 139, 240, 535];
  const src = source(ticks, 1, [-5, 5]);
  const sdkTicks = ticks.map((index) => new v3sdk.Tick({ index, liquidityGross: '1', liquidityNet: '1' }));
  const vectors: [number, boolean, number, boolean][] = [
    // lte = false
    [78, false, 84, true],
    [-55, false, -4, true],
    [77, false, 78, true],
    [-56, false, -55, true],
    [255, false, 511, false],
    [-257, false, -200, true],
    [340, false, 511, false],
    [508, false, 511, false],
    [328, false, 511, false],
    // lte = true
    [78, true, 78, true],
    [79, true, 78, true],
    [258, true, 256, false],
    [256, true, 256, false],
    [72, true, 70, true],
    [-257, true, -512, false],
    [1023, true, 768, false],
    [900, true, 768, false],
  ];
  for (const [tick, lte, next, init] of vectors) {
    const r = src.nextInitializedTickWithinOneWord(tick, lte);
    t.same([r?.tick, r?.initialized], [next, init], `from ${tick} lte=${lte}`);
    t.same(v3sdk.TickList.nextInitializedTickWithinOneWord(sdkTicks, tick, lte, 1), [next, init], `SDK from ${tick} lte=${lte}`);
  }
});

t.test('nextInitializedTickWithinOneWord equals the SDK TickList on random ticks and spacings; undefined outside the window', async (t) => {
  const rng = new Rng(21);
  let bad = 0;
  let unknown = 0;
  for (let k = 0; k < 40; k++) {
    const s = rng.pick([1, 10, 60, 200]);
    const center = Math.round(rng.int(-800_000, 800_000) / s) * s;
    const set = new Set<number>();
    const count = rng.int(1, 60);
    for (let i = 0; i < count; i++)
      set.add(Math.max(Math.ceil(-887272 / s) * s, Math.min(Math.floor(887272 / s) * s, center + s * rng.int(-3000, 3000))));
    const ticks = [...set].sort((a, b) => a - b);
    const words: [number, number] = [Math.floor(ticks[0] / s) >> 8, Math.floor(ticks[ticks.length - 1] / s) >> 8];
    const src = source(ticks, s, words);
    const sdkTicks = ticks.map((index) => new v3sdk.Tick({ index, liquidityGross: '1', liquidityNet: '1' }));
    for (let i = 0; i < 200; i++) {
      const tick = Math.max(-887272, Math.min(887272, center + rng.int(-4000 * s, 4000 * s)));
      const lte = rng.next() < 0.5;
      const r = src.nextInitializedTickWithinOneWord(tick, lte);
      const compressed = Math.floor(tick / s);
      const word = lte ? compressed >> 8 : (compressed + 1) >> 8;
      if (word < words[0] || word > words[1]) {
        unknown++;
        if (r !== undefined) bad++;
        continue;
      }
      const [next, init] = v3sdk.TickList.nextInitializedTickWithinOneWord(sdkTicks, tick, lte, s);
      if (r === undefined || r.tick !== next || r.initialized !== init) bad++;
      else if (r.sqrtPriceX96 !== getSqrtRatioAtTick(Math.max(-887272, Math.min(887272, next)))) bad++;
    }
  }
  t.equal(bad, 0);
  t.ok(unknown > 100, 'queries outside the window were exercised');
});

t.test('refuses inconsistent tick lists', async (t) => {
  t.throws(() => source([10, 5], 1, [-1, 1]), { code: 'INVALID_POOL_STATE' }, 'not ascending');
  t.throws(() => source([15], 10, [-1, 1]), { code: 'INVALID_POOL_STATE' }, 'not a multiple of the spacing');
  t.throws(() => source([256 * 5], 1, [-1, 1]), { code: 'INVALID_POOL_STATE' }, 'outside the known words');
});
