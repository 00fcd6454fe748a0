// A v4 pool's state read straight from the chain through v4-periphery's StateView (the test oracle's view of the
// pool, independent of the service's seeding): slot0, the in-range liquidity, every set bit of the tick bitmap in a
// window of words around the current tick, and each initialized tick's liquidityNet.
import { type Address, type Hex, type PublicClient, parseAbi } from 'viem';
import { type DevnetV4Pool, V4_ARTIFACT_PATHS } from '../../seeds/devnet/deployUniswapV4.ts';
import { MULTICALL3_ADDRESS } from '../../seeds/devnet/devnetAddresses.ts';
import type { SnapshotPoolV4 } from '../../src/protocols/uniswapV4/SnapshotPoolV4.ts';
import { artifactAbi } from './devnetWallet.ts';

const V4_QUOTER_ABI = artifactAbi(V4_ARTIFACT_PATHS.V4Quoter);

export const STATE_VIEW_ABI = parseAbi([
  'function getSlot0(bytes32 poolId) view returns (uint160 sqrtPriceX96, int24 tick, uint24 protocolFee, uint24 lpFee)',
  'function getLiquidity(bytes32 poolId) view returns (uint128)',
  'function getTickBitmap(bytes32 poolId, int16 word) view returns (uint256)',
  'function getTickLiquidity(bytes32 poolId, int24 tick) view returns (uint128 liquidityGross, int128 liquidityNet)',
  'function poolManager() view returns (address)',
]);

/** The pool's state at `blockNumber` as a snapshot file would hold it, over `windowWords` bitmap words each side of the current tick's word. */
export async function readV4State(
  client: PublicClient,
  stateView: Address,
  poolManager: Address,
  pool: DevnetV4Pool,
  windowWords: number,
  blockNumber: bigint,
): Promise<SnapshotPoolV4> {
  const id = pool.poolId;
  const read = <T>(functionName: 'getSlot0' | 'getLiquidity', args: readonly [Hex]): Promise<T> =>
    client.readContract({ address: stateView, abi: STATE_VIEW_ABI, functionName, args, blockNumber }) as Promise<T>;
  const [sqrtPriceX96, tick, protocolFee, lpFee] = await read<readonly [bigint, number, number, number]>('getSlot0', [id]);
  const liquidity = await read<bigint>('getLiquidity', [id]);
  const s = pool.tickSpacing;
  const center = Math.floor(tick / s) >> 8;
  const first = Math.max(center - windowWords, Math.floor(-887272 / s) >> 8);
  const last = Math.min(center + windowWords, Math.floor(887272 / s) >> 8);
  const words: number[] = [];
  for (let w = first; w <= last; w++) words.push(w);
  const bitmaps = (await client.multicall({
    contracts: words.map((w) => ({ address: stateView, abi: STATE_VIEW_ABI, functionName: 'getTickBitmap', args: [id, w] }) as const),
    allowFailure: false,
    blockNumber,
    multicallAddress: MULTICALL3_ADDRESS,
  })) as bigint[];
  const initialized: number[] = [];
  bitmaps.forEach((bits, i) => {
    for (let bit = 0; bit < 256; bit++) if ((bits >> BigInt(bit)) & 1n) initialized.push((words[i] * 256 + bit) * s);
  });
  const nets = (await client.multicall({
    contracts: initialized.map(
      (t) => ({ address: stateView, abi: STATE_VIEW_ABI, functionName: 'getTickLiquidity', args: [id, t] }) as const,
    ),
    allowFailure: false,
    blockNumber,
    multicallAddress: MULTICALL3_ADDRESS,
  })) as (readonly [bigint, bigint])[];
  return {
    version: 'v4',
    address: id,
    dex: 'uniswap',
    token0: pool.currency0,
    token1: pool.currency1,
    fee: pool.fee,
    balance0: '0',
    balance1: '0',
    poolManager,
    hooks: pool.hooks,
    tickSpacing: s,
    lpFee,
    protocolFee,
    sqrtPriceX96: String(sqrtPriceX96),
    tick,
    liquidity: String(liquidity),
    bitmapWords: [first, last],
    ticks: initialized.map((t, i) => [t, String(nets[i][1])] as const),
  };
}

/**
 * V4Quoter's quote of one amount on one pool at `blockNumber` (quoteExactInputSingle / quoteExactOutputSingle): the
 * other side's amount and its gas estimate, or undefined when it reverts (NotEnoughLiquidity and the like).
 */
export async function v4QuoterQuote(
  client: PublicClient,
  quoter: Address,
  pool: DevnetV4Pool,
  zeroForOne: boolean,
  tradeType: 'exactIn' | 'exactOut',
  amount: bigint,
  blockNumber: bigint,
): Promise<{ amount: bigint; gas: bigint } | undefined> {
  const params = {
    poolKey: { currency0: pool.currency0, currency1: pool.currency1, fee: pool.fee, tickSpacing: pool.tickSpacing, hooks: pool.hooks },
    zeroForOne,
    exactAmount: amount,
    hookData: '0x' as Hex,
  };
  try {
    const result = (await client.readContract({
      address: quoter,
      abi: V4_QUOTER_ABI,
      functionName: tradeType === 'exactIn' ? 'quoteExactInputSingle' : 'quoteExactOutputSingle',
      args: [params],
      blockNumber,
    })) as readonly [bigint, bigint];
    return { amount: result[0], gas: result[1] };
  } catch {
    return undefined;
  }
}
