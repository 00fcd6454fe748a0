import t from 'tap';
import { type Address, encodePacked, getAddress } from 'viem';
import type { Leg } from '../../../src/routing/Trade.ts';
import { packedV3Path } from '../../../src/tx/routers/RouterEncoder.ts';

/** A deterministic pseudo-random source (xorshift32), so a failure names its case. */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

t.test('packedV3Path: the bytes of viem encodePacked(address, uint24, address, ...), forward and reversed', async (t) => {
  const next = random(24);
  const fees = [0, 1, 100, 500, 3000, 10000, 0xffffff];
  for (let c = 0; c < 300; c++) {
    const hops = 1 + Math.floor(next() * 4);
    const tokens = Array.from({ length: hops + 1 }, () =>
      getAddress(`0x${Array.from({ length: 40 }, () => Math.floor(next() * 16).toString(16)).join('')}`),
    );
    const legs = Array.from({ length: hops }, () => ({ fee: fees[Math.floor(next() * fees.length)] }) as Leg);
    const packed = (order: Address[], legFees: number[]) =>
      encodePacked(
        ['address', ...legFees.flatMap(() => ['uint24', 'address'] as const)],
        [order[0], ...legFees.flatMap((fee, i) => [fee, order[i + 1]])],
      );
    const feesIn = legs.map((l) => l.fee);
    t.equal(packedV3Path({ legs, tokens }), packed(tokens, feesIn), `case ${c}`);
    t.equal(packedV3Path({ legs, tokens }, true), packed([...tokens].reverse(), [...feesIn].reverse()), `case ${c} reversed`);
  }
});

t.test('packedV3Path: a fee beyond uint24 or a malformed address is refused', async (t) => {
  const tokens = ['0x1111111111111111111111111111111111111111', '0x2222222222222222222222222222222222222222'] as Address[];
  t.throws(() => packedV3Path({ legs: [{ fee: 0x1000000 } as Leg], tokens }), /fee 16777216 is not a uint24/);
  t.throws(() => packedV3Path({ legs: [{ fee: 500 } as Leg], tokens: [tokens[0], '0x22' as Address] }), /invalid address 0x22/);
});
