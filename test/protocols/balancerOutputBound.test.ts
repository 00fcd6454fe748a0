// A Balancer pool's exact-output ladder at its output balance, placed by hand: an output of the whole balance or more
// is refused as INSUFFICIENT_LIQUIDITY, "the output exceeds the pool balance" (answered without an error thrown per
// amount); below it, a weighted pool's own MAX_OUT_RATIO (30% of the balance) refuses, with its own reason.
import t from 'tap';
import type { SnapshotPoolBalancer } from '../../src/protocols/balancer/SnapshotPoolBalancer.ts';
import type { LadderQuote } from '../../src/protocols/PoolProtocol.ts';
import { protocolOf, snapshotProtocol } from '../../src/protocols/registry.ts';

const A = '0x1111111111111111111111111111111111111111';
const B = '0x2222222222222222222222222222222222222222';
const E18 = 10n ** 18n;
const balances = [1_000n * E18, 2_000n * E18];

const weighted: SnapshotPoolBalancer = {
  version: 'balancerV2',
  poolKind: 'balancerWeighted',
  address: `0x00000000000000000000000000000000000ba150${'0'.repeat(24)}`,
  dex: 'balancer',
  token0: A,
  token1: B,
  fee: 1000,
  balance0: String(balances[0]),
  balance1: String(balances[1]),
  pool: '0x00000000000000000000000000000000000ba150',
  vault: '0xba12222222228d8ba445958a75a0704d566bf2c8',
  factory: '0x0000000000000000000000000000000000000fac',
  swapFee: String(10n ** 15n),
  tokens: [A, B],
  balances: balances.map(String),
  decimals: [18, 18],
  weights: [String(E18 / 2n), String(E18 / 2n)],
};

const shape = (q: LadderQuote): unknown => (q.ok ? 'priced' : { code: q.code, reason: q.reason });
const PAST = { code: 'INSUFFICIENT_LIQUIDITY', reason: 'the output exceeds the pool balance' };

t.test('weighted: the whole output balance or more is refused as past it; just below, MAX_OUT_RATIO refuses', async (t) => {
  const pool = snapshotProtocol('balancerV2').fromSnapshot(weighted);
  const kind = protocolOf(pool.kind);
  const out = balances[1];
  const got = kind.quoteLadder(pool, true, 'exactOut', [out / 10n, out - 1n, out, out + 1n]).map(shape);
  t.same(got, ['priced', { code: 'INSUFFICIENT_LIQUIDITY', reason: 'amount out exceeds 30% of the balance (MAX_OUT_RATIO)' }, PAST, PAST]);
  t.same(kind.quoteLadder(pool, false, 'exactOut', [balances[0]]).map(shape), [PAST], 'the other direction');
});
