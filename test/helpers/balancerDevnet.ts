// The devnet's Balancer pools read as the service reads them (readBalancerPools through Multicall3) at one block.
import type { PublicClient } from 'viem';
import type { BalancerDevnetAddresses } from '../../seeds/devnet/deployBalancer.ts';
import { MULTICALL3_ADDRESS } from '../../seeds/devnet/devnetAddresses.ts';
import { multicallBatched } from '../../src/chain/multicallBatched.ts';
import type { BalancerPoolState } from '../../src/protocols/balancer/balancerState.ts';
import { readBalancerPools } from '../../src/protocols/balancer/readBalancerPools.ts';

/** The state of every devnet Balancer pool at `block`, in the order of `bal.pools`. */
export async function readDevnetBalancerPools(
  client: PublicClient,
  bal: BalancerDevnetAddresses,
  block: bigint,
): Promise<BalancerPoolState[]> {
  const states = await readBalancerPools(
    client,
    { blockNumber: block, vault: bal.contracts.vault },
    bal.pools.map((p) => ({ address: p.address, poolId: p.poolId, kind: p.kind === 'weighted' ? 'balancerWeighted' : 'balancerStable' })),
    (calls) => multicallBatched(client, { multicall3: MULTICALL3_ADDRESS, blockNumber: block, batchSize: 100, concurrency: 1 }, calls),
  );
  return states.map((s, i) => {
    if (typeof s === 'string') throw new Error(`${bal.pools[i].name}: ${s}`);
    return s;
  });
}
