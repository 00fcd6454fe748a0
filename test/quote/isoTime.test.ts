import t from 'tap';
import { isoTime } from '../../src/quote/saveQuote.ts';
import { seededRandom } from '../helpers/seededRandom.ts';

t.test("isoTime writes Date's toISOString, within a second and across seconds, years and the range's ends", async (t) => {
  const next = seededRandom(24);
  const times = [0, 1, 9, 10, 99, 100, 999, 1000, 1_895_000_000_000, 1_895_000_000_007, 1_895_000_000_042, 1_895_000_000_999];
  times.push(253_402_300_799_999, 253_402_300_800_000, -1, 1.5, 2 ** 52);
  // Random times of the whole range, and runs of consecutive milliseconds (the same second's text kept).
  for (let i = 0; i < 3000; i++) times.push(Math.floor(next() * 253_402_300_800_000));
  for (let ms = 1_895_000_000_990; ms < 1_895_000_001_020; ms++) times.push(ms);
  const differing = times.filter((ms) => isoTime(ms) !== new Date(ms).toISOString());
  t.same(differing, [], `${times.length} times`);
});
