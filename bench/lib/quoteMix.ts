import type { LoadRequest } from './runLoad.ts';

/** A recipient for bench requests (any valid address; nothing is sent on chain). */
export const BENCH_RECIPIENT = '0x1111111111111111111111111111111111111111';

/** Devnet token addresses (catalog/devnet.json, chain 31337). */
export const DEVNET_TOKENS = {
  ETH: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE',
  WETH: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  USDC: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
  USDT: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0',
  WBTC: '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9',
  DAI: '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9',
} as const;
const T = DEVNET_TOKENS;

/**
 * The devnet quote mix: v2 and v3 pairs (every request has both), amounts from "nothing crossed" to about
 * 11 initialized ticks crossed on the shipped snapshot (tick counts per v3 pool in the comments), and a native-ETH input.
 */
export const DEVNET_QUOTES: ReadonlyArray<readonly [keyof typeof T, keyof typeof T, string]> = [
  ['WETH', 'DAI', '10'], // 1 tick
  ['WETH', 'DAI', '100'], // 5 ticks
  ['WETH', 'DAI', '1000'], // 10 ticks (one v2 pool too small)
  ['WBTC', 'USDC', '1'], // 0 and 3 ticks
  ['WBTC', 'USDC', '10'], // 4 and 11 ticks
  ['WETH', 'USDC', '100'], // 0 and 1 tick
  ['WETH', 'USDC', '1000'], // 6 ticks
  ['WETH', 'WBTC', '1000'], // 10 ticks
  ['USDC', 'WETH', '1000'], // 0 ticks
  ['DAI', 'USDC', '100'], // 0 ticks
  ['USDT', 'WETH', '100000'], // 2 ticks
  ['USDC', 'WBTC', '100000'], // 0 and 4 ticks
  ['WETH', 'USDT', '100'], // 2 ticks
  ['ETH', 'USDC', '5'], // native input, 0 ticks
];

/** One JSON body per entry of DEVNET_QUOTES, with `extra` fields (e.g. routing limits) added to each. */
export function devnetQuoteBodies(extra: Readonly<Record<string, unknown>> = {}): string[] {
  return variedQuoteBodies(1, extra);
}

/**
 * The mix with every amount varied per request (`variants` amounts per entry: the listed amount plus 0.0001 × i),
 * so no cache of identical answers can serve a load run; bodies interleave the entries.
 */
export function variedQuoteBodies(variants: number, extra: Readonly<Record<string, unknown>> = {}): string[] {
  const bodies: string[] = [];
  for (let i = 0; i < variants; i++) {
    for (const [tokenIn, tokenOut, amount] of DEVNET_QUOTES) {
      const varied = i === 0 ? amount : `${amount}.${String(i).padStart(4, '0')}`;
      bodies.push(
        JSON.stringify({
          originChainId: 31337,
          destinationChainId: 31337,
          tokenIn: T[tokenIn],
          tokenOut: T[tokenOut],
          amount: varied,
          recipientAddress: BENCH_RECIPIENT,
          slippageBps: 50,
          ...extra,
        }),
      );
    }
  }
  return bodies;
}

/** POST requests of the mix to a path, with optional headers (e.g. the API key). */
export function quoteRequests(path: string, bodies: readonly string[], headers?: Record<string, string>): LoadRequest[] {
  return bodies.map((body) => ({ method: 'POST', path, body, headers }));
}
