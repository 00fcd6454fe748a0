// Random trading on a devnet for the follower test (test/follow/) and bench (bench/follow.ts): v3 swaps both ways (crossing ticks), v3 mints and burns
// (ticks around and away from the price, positions emptied), v2 adds, removes and swaps, from anvil's unlocked
// accounts, mined on demand (automine off) so each block holds a known batch. A seeded PRNG makes runs reproducible.
import { type Address, encodeFunctionData, getAddress, type Hex, maxUint128, maxUint256, parseAbi, toHex } from 'viem';
import { rng } from '../../bench/lib/generateScale.ts';
import type { Snapshot } from '../../src/graph/snapshot.ts';
import type { SnapshotPool } from '../../src/protocols/registry.ts';
import { fundAccount } from './fundAccount.ts';
import { jsonRpc } from './jsonRpc.ts';
import type { Devnet } from './startDevnet.ts';

const erc20 = parseAbi(['function approve(address, uint256) returns (bool)', 'function balanceOf(address) view returns (uint256)']);
const swapRouter = parseAbi([
  'struct P { address tokenIn; address tokenOut; uint24 fee; address recipient; uint256 deadline; uint256 amountIn; uint256 amountOutMinimum; uint160 sqrtPriceLimitX96; }',
  'function exactInputSingle(P params) payable returns (uint256)',
]);
const npm = parseAbi([
  'struct M { address token0; address token1; uint24 fee; int24 tickLower; int24 tickUpper; uint256 amount0Desired; uint256 amount1Desired; uint256 amount0Min; uint256 amount1Min; address recipient; uint256 deadline; }',
  'function mint(M params) payable returns (uint256, uint128, uint256, uint256)',
  'struct D { uint256 tokenId; uint128 liquidity; uint256 amount0Min; uint256 amount1Min; uint256 deadline; }',
  'function decreaseLiquidity(D params) payable returns (uint256, uint256)',
  'struct C { uint256 tokenId; address recipient; uint128 amount0Max; uint128 amount1Max; }',
  'function collect(C params) payable returns (uint256, uint256)',
  'function totalSupply() view returns (uint256)',
  'function ownerOf(uint256) view returns (address)',
  'function positions(uint256) view returns (uint96, address, address, address, uint24, int24, int24, uint128, uint256, uint256, uint128, uint128)',
]);
const v2Router = parseAbi([
  'function addLiquidity(address, address, uint256, uint256, uint256, uint256, address, uint256) returns (uint256, uint256, uint256)',
  'function removeLiquidity(address, address, uint256, uint256, uint256, address, uint256) returns (uint256, uint256)',
  'function swapExactTokensForTokens(uint256, uint256, address[], address, uint256) returns (uint256[])',
]);
const v3Factory = parseAbi(['function createPool(address, address, uint24) returns (address)']);
const v3Pool = parseAbi(['function initialize(uint160)']);

const DEADLINE = 2n ** 40n;

/** Trading accounts on a devnet and the on-demand block miner. */
export class DevnetTrader {
  private readonly traders: Address[];
  private readonly rand: () => number;
  private readonly positions: { id: bigint; owner: Address }[] = [];

  constructor(
    private readonly devnet: Devnet,
    seed: number,
  ) {
    this.traders = devnet.accounts.slice(1, 5).map((a) => a.address);
    this.rand = rng(seed);
  }

  private get c(): Devnet['addresses']['contracts'] {
    return this.devnet.addresses.contracts;
  }

  async rpc<T>(method: string, params: unknown[] = []): Promise<T> {
    return jsonRpc<T>(this.devnet.rpcUrl, method, params);
  }

  async call<T>(to: Address, data: Hex): Promise<T> {
    return this.rpc<T>('eth_call', [{ to, data }, 'latest']);
  }

  /** Sends a transaction from an unlocked account (fixed gas, no estimate); it may revert when mined. */
  async send(from: Address, to: Address, data: Hex, gas = 1_500_000n): Promise<void> {
    await this.rpc('eth_sendTransaction', [{ from, to, data, gas: toHex(gas) }]);
  }

  /** Funds every trader with every devnet token and approves the routers and the position manager (automine on). */
  async setUp(pools: readonly SnapshotPool[]): Promise<void> {
    const tokens = [...new Set(pools.flatMap((p) => [getAddress(p.token0), getAddress(p.token1)]))];
    for (const trader of this.traders) {
      for (const token of tokens) {
        await fundAccount(this.devnet.rpcUrl, trader, token, 10n ** 30n);
        for (const spender of [
          this.c.swapRouter,
          this.c.nonfungiblePositionManager,
          this.c.uniswapV2Router02,
          this.c.sushiswapV2Router02,
        ]) {
          await this.send(trader, token, encodeFunctionData({ abi: erc20, functionName: 'approve', args: [spender, maxUint256] }));
        }
      }
      for (const p of pools.filter((x) => x.version === 'v2')) {
        const router = p.dex === 'sushiswap' ? this.c.sushiswapV2Router02 : this.c.uniswapV2Router02;
        await this.send(
          trader,
          getAddress(p.address),
          encodeFunctionData({ abi: erc20, functionName: 'approve', args: [router, maxUint256] }),
        );
      }
    }
    await this.rpc('evm_setAutomine', [false]);
  }

  private pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.rand() * list.length)];
  }

  /** A random share (1/1000 .. ~1/3) of an amount: small trades and ones that cross many ticks. */
  private share(amount: bigint): bigint {
    const den = BigInt(3 + Math.floor(this.rand() ** 2 * 1000));
    return amount / den + 1n;
  }

  /** Queues `count` random actions over the followed pools (their state at the last block) for the next block. */
  async queue(state: Snapshot, count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      // v2 and v3 pools only: v4 swaps go through the PoolManager, not a pool contract.
      const p = this.pick(state.pools.filter((x) => x.version === 'v2' || x.version === 'v3'));
      if (!p) return;
      const from = this.pick(this.traders);
      const [t0, t1] = [getAddress(p.token0), getAddress(p.token1)];
      const r = this.rand();
      if (p.version === 'v3') {
        if (r < 0.5) {
          const zeroForOne = this.rand() < 0.5;
          const amountIn = this.share(BigInt(zeroForOne ? p.balance0 : p.balance1));
          const args = {
            tokenIn: zeroForOne ? t0 : t1,
            tokenOut: zeroForOne ? t1 : t0,
            fee: p.fee,
            recipient: from,
            deadline: DEADLINE,
            amountIn,
            amountOutMinimum: 0n,
            sqrtPriceLimitX96: 0n,
          };
          await this.send(from, this.c.swapRouter, encodeFunctionData({ abi: swapRouter, functionName: 'exactInputSingle', args: [args] }));
        } else if (r < 0.8 || this.positions.length === 0) {
          const s = p.tickSpacing;
          const centre = Math.floor(p.tick / s) * s + (this.rand() < 0.3 ? Math.floor((this.rand() - 0.5) * 40) * s : 0);
          const lower = centre - (1 + Math.floor(this.rand() * 20)) * s;
          const upper = centre + (1 + Math.floor(this.rand() * 20)) * s;
          const amount0 = this.share(BigInt(p.balance0) + 1000n);
          const amount1 = this.share(BigInt(p.balance1) + 1000n);
          const args = {
            token0: t0,
            token1: t1,
            fee: p.fee,
            tickLower: lower,
            tickUpper: upper,
            amount0Desired: amount0,
            amount1Desired: amount1,
            amount0Min: 0n,
            amount1Min: 0n,
            recipient: from,
            deadline: DEADLINE,
          };
          await this.send(from, this.c.nonfungiblePositionManager, encodeFunctionData({ abi: npm, functionName: 'mint', args: [args] }));
        } else {
          const k = Math.floor(this.rand() * this.positions.length);
          const pos = this.positions.splice(k, 1)[0];
          const info = await this.call<Hex>(
            this.c.nonfungiblePositionManager,
            encodeFunctionData({ abi: npm, functionName: 'positions', args: [pos.id] }),
          ).catch(() => undefined);
          if (info === undefined) continue; // reverted away (evm_revert)
          const liquidity = BigInt(`0x${info.slice(2 + 64 * 7, 2 + 64 * 8)}`);
          const part = this.rand() < 0.7 ? liquidity : liquidity / 2n;
          const m = this.c.nonfungiblePositionManager;
          await this.send(
            pos.owner,
            m,
            encodeFunctionData({
              abi: npm,
              functionName: 'decreaseLiquidity',
              args: [{ tokenId: pos.id, liquidity: part, amount0Min: 0n, amount1Min: 0n, deadline: DEADLINE }],
            }),
          );
          await this.send(
            pos.owner,
            m,
            encodeFunctionData({
              abi: npm,
              functionName: 'collect',
              args: [{ tokenId: pos.id, recipient: pos.owner, amount0Max: maxUint128, amount1Max: maxUint128 }],
            }),
          );
          if (part !== liquidity) this.positions.push(pos);
        }
      } else {
        const router = p.dex === 'sushiswap' ? this.c.sushiswapV2Router02 : this.c.uniswapV2Router02;
        if (r < 0.5) {
          const zeroForOne = this.rand() < 0.5;
          const amountIn = this.share(BigInt(zeroForOne ? p.reserve0 : p.reserve1));
          const path = zeroForOne ? [t0, t1] : [t1, t0];
          await this.send(
            from,
            router,
            encodeFunctionData({ abi: v2Router, functionName: 'swapExactTokensForTokens', args: [amountIn, 0n, path, from, DEADLINE] }),
          );
        } else if (r < 0.8) {
          const a0 = this.share(BigInt(p.reserve0));
          const a1 = (a0 * BigInt(p.reserve1)) / BigInt(p.reserve0) + 1n;
          await this.send(
            from,
            router,
            encodeFunctionData({ abi: v2Router, functionName: 'addLiquidity', args: [t0, t1, a0, a1, 0n, 0n, from, DEADLINE] }),
          );
        } else {
          const lp = BigInt(
            await this.call<Hex>(getAddress(p.address), encodeFunctionData({ abi: erc20, functionName: 'balanceOf', args: [from] })),
          );
          if (lp > 0n)
            await this.send(
              from,
              router,
              encodeFunctionData({ abi: v2Router, functionName: 'removeLiquidity', args: [t0, t1, lp / 3n, 0n, 0n, from, DEADLINE] }),
            );
        }
      }
    }
  }

  /** Queues creating a v3 pool (factory createPool) and, unless told not to, its initialize for the next block. */
  async queueNewPool(token0: Address, token1: Address, fee: number, pool: Address, initialize = true): Promise<void> {
    await this.send(
      this.traders[0],
      this.c.uniswapV3Factory,
      encodeFunctionData({ abi: v3Factory, functionName: 'createPool', args: [token0, token1, fee] }),
      8_000_000n,
    );
    if (initialize) await this.queueInitialize(pool);
  }

  /** Queues initializing a created v3 pool at price 1 for the next block. */
  async queueInitialize(pool: Address): Promise<void> {
    await this.send(this.traders[0], pool, encodeFunctionData({ abi: v3Pool, functionName: 'initialize', args: [2n ** 96n] }));
  }

  /** Mines one block with the queued transactions; records the positions minted in it. */
  async mine(): Promise<void> {
    const before = BigInt(
      await this.call<Hex>(this.c.nonfungiblePositionManager, encodeFunctionData({ abi: npm, functionName: 'totalSupply' })),
    );
    await this.rpc('evm_mine');
    const after = BigInt(
      await this.call<Hex>(this.c.nonfungiblePositionManager, encodeFunctionData({ abi: npm, functionName: 'totalSupply' })),
    );
    for (let id = before + 1n; id <= after; id++) {
      const owner = await this.call<Hex>(
        this.c.nonfungiblePositionManager,
        encodeFunctionData({ abi: npm, functionName: 'ownerOf', args: [id] }),
      );
      this.positions.push({ id, owner: getAddress(`0x${owner.slice(26)}`) });
    }
  }
}
