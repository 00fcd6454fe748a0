import t from 'tap';
import { formatUnits } from 'viem';
import { displayAmount } from '../../src/tx/Step.ts';
import { seededRandom } from '../helpers/seededRandom.ts';

t.test('displayAmount writes the text viem formatUnits writes, for edge and random amounts and decimals', async (t) => {
  const next = seededRandom(24);
  const cases: [bigint, number][] = [
    [0n, 0],
    [0n, 18],
    [7n, 0],
    [1500000n, 6],
    [1000000n, 6],
    [123456n, 6],
    [5n, 6],
    [10n, 1],
    [-1500000n, 6],
    [-5n, 18],
    [(1n << 256n) - 1n, 18],
    [10n ** 18n, 18],
    [120n * 10n ** 17n, 18],
  ];
  for (let i = 0; i < 2000; i++) {
    // Digits of every length up to 80, with runs of zeros (trailing zeros are what is cut).
    const length = 1 + Math.floor(next() * 80);
    let digits = '';
    for (let k = 0; k < length; k++) digits += next() < 0.4 ? '0' : String(Math.floor(next() * 10));
    cases.push([BigInt(digits) * (next() < 0.1 ? -1n : 1n), Math.floor(next() * 40)]);
  }
  const differing = cases.filter(([amount, decimals]) => displayAmount(amount, { decimals }) !== formatUnits(amount, decimals));
  t.same(differing, [], `${cases.length} amounts`);
  t.throws(() => displayAmount(1n, { decimals: -1 }), RangeError);
});
