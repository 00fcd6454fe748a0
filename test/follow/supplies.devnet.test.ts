// Token supplies (snapshot totalSupplies, what GET /blockchains/pools multiplies by USD prices for marketCap) against
// the devnet's own totalSupply() reads: the seeding run records every ERC-20's at its block; the follower re-reads
// them at the head once the configured block time has passed and carries them in that block's update (and its
// snapshot), and not in between. WETH9's supply is its ether balance, so anvil_setBalance moves it without a trade.
import { pino } from 'pino';
import t from 'tap';
import { type Address, createPublicClient, http, parseAbi } from 'viem';
import { jsonRpc } from '../../seeds/devnet/jsonRpc.ts';
import { pairTokens } from '../../src/chain/discoveryPairs.ts';
import { ChainFollower } from '../../src/follow/ChainFollower.ts';
import type { BlockUpdate } from '../../src/graph/blockUpdate.ts';
import { startSeededDevnet } from '../helpers/followDevnet.ts';

const { devnet, snapshotDir, catalog, chain, seedNow } = await startSeededDevnet(t.teardown.bind(t), 'sqs-supplies-');
const client = createPublicClient({ transport: http(devnet.rpcUrl) });
const erc20 = parseAbi(['function totalSupply() view returns (uint256)']);

/** Every ERC-20's totalSupply() at a block, one eth_call each, keyed as the snapshot keys them. */
async function chainSupplies(blockNumber: number): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const tokens = chain.tokens.filter((x) => x.address !== '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE').map((x) => x.address as Address);
  for (const address of tokens.sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)))
    out[address] = String(
      await client.readContract({ address, abi: erc20, functionName: 'totalSupply', blockNumber: BigInt(blockNumber) }),
    );
  return out;
}

const start = await seedNow();

t.test('the seeding run records every ERC-20 totalSupply() at its block', async (t) => {
  t.equal(Object.keys(start.totalSupplies!).length, pairTokens(chain).length, 'one per ERC-20 (the native asset is WETH)');
  t.strictSame(start.totalSupplies, await chainSupplies(start.blockNumber));
});

t.test('the follower re-reads them at the head once 60 s of block time have passed, and carries them in that update', async (t) => {
  const updates: BlockUpdate[] = [];
  const follower = new ChainFollower(
    {
      chain,
      rpcUrl: devnet.rpcUrl,
      snapshotDir,
      catalog,
      logger: pino({ level: 'silent' }),
      follow: false,
      startFrom: start,
      supplyEverySeconds: 60,
    },
    (u) => {
      updates.push(u);
    },
  );
  await follower.start();
  const weth = chain.wrappedNativeToken as Address;
  const mineWithMoreWeth = async (seconds: number): Promise<void> => {
    const balance = await client.getBalance({ address: weth });
    await jsonRpc(devnet.rpcUrl, 'anvil_setBalance', [weth, `0x${(balance + 5n * 10n ** 18n).toString(16)}`]);
    if (seconds > 0) await jsonRpc(devnet.rpcUrl, 'evm_increaseTime', [seconds]);
    await jsonRpc(devnet.rpcUrl, 'evm_mine', []);
    await follower.step();
  };

  t.equal(updates.length, 1, 'a start delivers one full update');
  t.ok(updates[0].full, 'every pool');
  t.strictSame(updates[0].totalSupplies, start.totalSupplies, "the first update after a start carries the start snapshot's supplies");
  const stale = updates[0].totalSupplies![weth];

  await mineWithMoreWeth(0);
  await mineWithMoreWeth(0);
  t.same(
    updates.slice(1).map((u) => u.totalSupplies),
    [undefined, undefined],
    'not due (about a second of block time): none',
  );

  await mineWithMoreWeth(120);
  const due = updates[3];
  const onChain = await chainSupplies(due.blockNumber);
  t.strictSame(due.totalSupplies, onChain, 'due: re-read at that block');
  t.equal(BigInt(onChain[weth]) - BigInt(stale), 15n * 10n ** 18n, 'WETH supply grew by the 3 x 5 ETH');
  t.strictSame(follower.snapshot().totalSupplies, onChain, "the follower's snapshot carries them");

  await mineWithMoreWeth(0);
  t.equal(updates[4].totalSupplies, undefined, 'next block: none');
  t.strictSame(follower.snapshot().totalSupplies, onChain, 'kept');
});
