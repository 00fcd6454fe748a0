// A small chain of hand-made Uniswap V2 pairs on the test catalogue's chain (1001), for route-search tests whose
// expected paths and amounts are worked out by hand. Tokens: WETH 0x11…, USDC 0x22… (6 decimals), DAI 0x33…,
// XYZ 0x99… (added here), and the native asset ETH; base tokens USDC and DAI.
//
//   pair  tokens      reserves                    USD value (score)
//   P1    WETH/USDC   100 WETH / 300,000 USDC      600,000 (WETH priced at 3,000 USD here: the deepest stable side)
//   P2    WETH/DAI    50 WETH / 150,000 DAI        300,000
//   P3    USDC/DAI    200,000 / 200,000            400,000
//   P4    DAI/XYZ     50,000 DAI / 10,000 XYZ      100,000 (XYZ priced at 5 USD here)
//   P5    USDC/XYZ    500 USDC / 100 XYZ             1,000
import { fileURLToPath } from 'node:url';
import type { CatalogChain, CatalogToken } from '../../src/catalog/Catalog.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { ChainPoolIndex } from '../../src/graph/ChainPoolIndex.ts';
import type { SnapshotPoolV2 } from '../../src/protocols/uniswapV2/SnapshotPoolV2.ts';
import type { TradeRequest } from '../../src/routing/searchGas.ts';

const catalog = loadCatalog(fileURLToPath(new URL('../fixtures/catalog', import.meta.url)));
const base = catalog.chain(1001)!;

export const WETH = '0x1111111111111111111111111111111111111111';
export const USDC = '0x2222222222222222222222222222222222222222';
export const DAI = '0x3333333333333333333333333333333333333333';
export const XYZ = '0x9999999999999999999999999999999999999999';
export const ETH = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';

const xyz: CatalogToken = { ...base.tokens.find((t) => t.symbol === 'DAI')!, address: XYZ, symbol: 'XYZ', name: 'XYZ', slug: 'xyz' };

/** The test chain with XYZ and two base tokens. */
export const handChain: CatalogChain = { ...base, tokens: [...base.tokens, xyz], baseTokens: [USDC, DAI] };

const E18 = 10n ** 18n;
const E6 = 10n ** 6n;

/** A Uniswap V2 pair's snapshot record (fee 0.3%, tokens sorted by address, reserves as its balances). */
export function v2PairSnapshot(address: string, token0: string, token1: string, reserve0: bigint, reserve1: bigint): SnapshotPoolV2 {
  return {
    address,
    dex: 'uniswap',
    version: 'v2',
    token0,
    token1,
    fee: 3000,
    balance0: reserve0.toString(),
    balance1: reserve1.toString(),
    reserve0: reserve0.toString(),
    reserve1: reserve1.toString(),
  };
}

const pair = (n: number, token0: string, token1: string, reserve0: bigint, reserve1: bigint): SnapshotPoolV2 =>
  v2PairSnapshot(`0x00000000000000000000000000000000000000a${n}`, token0, token1, reserve0, reserve1);

/** The five pairs of the table above, P1 … P5. */
export const handPairs: readonly SnapshotPoolV2[] = [
  pair(1, WETH, USDC, 100n * E18, 300_000n * E6),
  pair(2, WETH, DAI, 50n * E18, 150_000n * E18),
  pair(3, USDC, DAI, 200_000n * E6, 200_000n * E18),
  pair(4, DAI, XYZ, 50_000n * E18, 10_000n * E18),
  pair(5, USDC, XYZ, 500n * E6, 100n * E18),
];

/** The pool address of pair Pn. */
export const P = (n: number): string => handPairs[n - 1].address;

/** A WETH -> DAI request of `over`'s side and amount over every pair: up to 2 hops and 3 paths, gas not ranked. */
export function wethToDai(over: Pick<TradeRequest, 'tradeType' | 'amount'>): TradeRequest {
  return { tokenIn: WETH, tokenOut: DAI, maxHops: 2, maxSplits: 3, gasPriceWei: 0n, allow: () => true, ...over };
}

/** A fresh index over the hand pairs (or some of them). */
export function handIndex(pairs: readonly SnapshotPoolV2[] = handPairs): ChainPoolIndex {
  return new ChainPoolIndex(handChain, pairs);
}
