import t from 'tap';
import { countInitializedTicksCrossed } from '../../src/amm/poolTicksCounter.ts';
import { createV3Pool } from '../../src/amm/v3Pool.ts';
import { Rng } from './oracle.ts';

/**
 * Oracle: PoolTicksCounter.countInitializedTicksCrossed (v3-periphery) transcribed statement by statement over a
 * tickBitmap of 256-bit words, with Solidity's truncating `/` and `%` and its int16 / uint8 casts.
 */
function solidityCount(bitmap: Map<number, bigint>, s: number, tickBefore: number, tickAfter: number): number {
  const word = (w: number): bigint => bitmap.get(w) ?? 0n;
  const sdiv = (a: number, d: number): number => Math.trunc(a / d);
  const smod = (a: number, d: number): number => a % d;
  const uint8 = (x: number): number => ((x % 256) + 256) % 256;
  const wordPos = sdiv(tickBefore, s) >> 8;
  const bitPos = uint8(smod(sdiv(tickBefore, s), 256));
  const wordPosAfter = sdiv(tickAfter, s) >> 8;
  const bitPosAfter = uint8(smod(sdiv(tickAfter, s), 256));
  const tickAfterInitialized =
    (word(wordPosAfter) & (1n << BigInt(bitPosAfter))) > 0n && smod(tickAfter, s) === 0 && tickBefore > tickAfter;
  const tickBeforeInitialized = (word(wordPos) & (1n << BigInt(bitPos))) > 0n && smod(tickBefore, s) === 0 && tickBefore < tickAfter;
  let [wl, bl, wh, bh] =
    wordPos < wordPosAfter || (wordPos === wordPosAfter && bitPos <= bitPosAfter)
      ? [wordPos, bitPos, wordPosAfter, bitPosAfter]
      : [wordPosAfter, bitPosAfter, wordPos, bitPos];
  const MAX = (1n << 256n) - 1n;
  let mask = (MAX << BigInt(bl)) & MAX;
  let count = 0;
  while (wl <= wh) {
    if (wl === wh) mask = mask & (MAX >> BigInt(255 - bh));
    let masked = word(wl) & mask;
    while (masked !== 0n) {
      count++;
      masked &= masked - 1n;
    }
    wl++;
    mask = MAX;
  }
  if (tickAfterInitialized) count -= 1;
  if (tickBeforeInitialized) count -= 1;
  return count;
}

t.test('countInitializedTicksCrossed equals a literal transcription of PoolTicksCounter.sol', async (t) => {
  const rng = new Rng(31);
  let bad = 0;
  let n = 0;
  for (let k = 0; k < 60; k++) {
    const s = rng.pick([1, 10, 60, 200]);
    const center = Math.round(rng.int(-2000, 2000) / s) * s; // around 0, where truncation differs from flooring
    const set = new Set<number>();
    for (let i = rng.int(1, 40); i > 0; i--) set.add(center + s * rng.int(-600, 600));
    const ticks = [...set].filter((x) => Math.abs(x) <= 887272).sort((a, b) => a - b);
    const bitmap = new Map<number, bigint>();
    for (const x of ticks) {
      const c = x / s;
      bitmap.set(c >> 8, (bitmap.get(c >> 8) ?? 0n) | (1n << BigInt(((c % 256) + 256) % 256)));
    }
    const pool = createV3Pool({
      sqrtPriceX96: 1n << 96n,
      tick: 0,
      liquidity: 0n,
      tickSpacing: s,
      fee: 3000,
      ticks: ticks.map((x) => [x, 0n] as const),
      bitmapWords: [Math.floor(ticks[0] / s) >> 8, Math.floor(ticks[ticks.length - 1] / s) >> 8],
    });
    for (let i = 0; i < 300; i++) {
      const pick = (): number =>
        rng.next() < 0.4 ? rng.pick(ticks) + rng.pick([0, 0, -1, 1, -s, s]) : center + rng.int(-600 * s, 600 * s);
      const before = pick();
      const after = pick();
      n++;
      if (countInitializedTicksCrossed(pool, before, after) !== solidityCount(bitmap, s, before, after)) bad++;
    }
  }
  t.equal(bad, 0, `${n} pairs`);
});
