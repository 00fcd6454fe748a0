// The v2 uint112 bound against the real contracts (issue 23 item 3): on the devnet (anvil, @uniswap/v2-core and
// v2-periphery as deployed by seeds/devnet), Uniswap V2's WETH/USDC pair takes an input that leaves its WETH balance
// at exactly 2^112 - 1, and reverts `UniswapV2: OVERFLOW` (UniswapV2Pair._update) one wei above; the service's
// quoteLadder, on the pair's state read from the chain, prices the first exactly as the router does and refuses the
// second as AMOUNT_TOO_LARGE.
import t from 'tap';
import { type Address, BaseError, ContractFunctionRevertedError, parseAbi } from 'viem';
import { jsonRpc } from '../../seeds/devnet/jsonRpc.ts';
import { startDevnet } from '../../seeds/devnet/startDevnet.ts';
import type { SnapshotPoolV2 } from '../../src/protocols/uniswapV2/SnapshotPoolV2.ts';
import { uniswapV2 } from '../../src/protocols/uniswapV2/uniswapV2.ts';
import { artifactAbi, devnetWallet, freshAddress } from '../helpers/devnetWallet.ts';

const V2_ROUTER_ABI = artifactAbi('@uniswap/v2-periphery/build/UniswapV2Router02.json');
const PAIR_ABI = parseAbi([
  'function getReserves() view returns (uint112, uint112, uint32)',
  'function token0() view returns (address)',
  'function token1() view returns (address)',
]);
const ERC20_ABI = parseAbi(['function balanceOf(address) view returns (uint256)']);
const MAX_UINT112 = 2n ** 112n - 1n;

const devnet = await startDevnet();
t.teardown(() => devnet.stop());
const { client } = devnetWallet(devnet);
const { tokens, contracts, pools } = devnet.addresses;
const pair = pools.find(
  (p) =>
    p.dex === 'uniswap' && p.version === 'v2' && [p.token0, p.token1].includes(tokens.WETH) && [p.token0, p.token1].includes(tokens.USDC),
);
if (!pair) throw new Error('no Uniswap V2 WETH/USDC pair on the devnet');
const router = contracts.uniswapV2Router02;
const payer = devnet.accounts[3].address;
// Enough ether for any of the amounts below (anvil_setBalance; the devnet's accounts hold 10,000 ETH).
await jsonRpc(devnet.rpcUrl, 'anvil_setBalance', [payer, `0x${(2n ** 120n).toString(16)}`]);

/** Router02.swapExactETHForTokens of `value` wei to USDC, simulated: the amounts, or the revert reason. */
async function swapExactEth(value: bigint): Promise<{ amounts: readonly bigint[] } | { reason: string }> {
  try {
    const { result } = await client.simulateContract({
      account: payer,
      address: router,
      abi: V2_ROUTER_ABI,
      functionName: 'swapExactETHForTokens',
      args: [0n, [tokens.WETH, tokens.USDC], freshAddress('v2-overflow'), 2n ** 40n],
      value,
    });
    return { amounts: result as readonly bigint[] };
  } catch (error) {
    const reverted = error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : undefined;
    if (reverted instanceof ContractFunctionRevertedError) return { reason: reverted.reason ?? '(no reason)' };
    throw error;
  }
}

t.test('the pair takes 2^112 - 1 - its WETH balance and reverts UniswapV2: OVERFLOW one wei above; quoteLadder agrees', async (t) => {
  t.ok(router, 'the devnet has a Router02');
  const read = <T>(address: Address, abi: typeof PAIR_ABI | typeof ERC20_ABI, functionName: string, args: unknown[] = []) =>
    client.readContract({ address, abi, functionName, args } as never) as Promise<T>;
  const [reserve0, reserve1] = await read<readonly [bigint, bigint, number]>(pair.address, PAIR_ABI, 'getReserves');
  const token0 = await read<Address>(pair.address, PAIR_ABI, 'token0');
  const token1 = await read<Address>(pair.address, PAIR_ABI, 'token1');
  const balance0 = await read<bigint>(token0, ERC20_ABI, 'balanceOf', [pair.address]);
  const balance1 = await read<bigint>(token1, ERC20_ABI, 'balanceOf', [pair.address]);
  const wethIs0 = token0.toLowerCase() === tokens.WETH.toLowerCase();
  const fits = MAX_UINT112 - (wethIs0 ? balance0 : balance1);

  const atBound = await swapExactEth(fits);
  t.strictSame(await swapExactEth(fits + 1n), { reason: 'UniswapV2: OVERFLOW' }, `${fits + 1n} wei: UniswapV2: OVERFLOW`);
  if (!('amounts' in atBound)) {
    t.fail(`${fits} wei: the swap reverts (${atBound.reason})`);
    return;
  }
  t.pass(`${fits} wei: the swap succeeds`);

  const state: SnapshotPoolV2 = {
    version: 'v2',
    address: pair.address,
    dex: 'uniswap',
    token0,
    token1,
    fee: 3000,
    reserve0: reserve0.toString(),
    reserve1: reserve1.toString(),
    balance0: balance0.toString(),
    balance1: balance1.toString(),
  };
  const [priced, refused] = uniswapV2.quoteLadder(uniswapV2.fromSnapshot(state), wethIs0, 'exactIn', [fits, fits + 1n]);
  t.strictSame(
    priced.ok ? [priced.amountIn, priced.amountOut] : priced,
    [atBound.amounts[0], atBound.amounts[1]],
    'quoteLadder prices the bound as the router does',
  );
  t.strictSame(refused.ok ? refused : refused.code, 'AMOUNT_TOO_LARGE', 'quoteLadder refuses one wei more');
});
