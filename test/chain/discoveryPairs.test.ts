import { join } from 'node:path';
import t from 'tap';
import { getAddress } from 'viem';
import type { CatalogChain } from '../../src/catalog/Catalog.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { discoveryCandidates, discoveryPairs, pairTokens } from '../../src/chain/discoveryPairs.ts';
import { feeBps, transferFeeProbeAmount, transferFeeResult } from '../../src/chain/probeTransferFees.ts';
import { checkTokenMetadata, decodeSymbol } from '../../src/chain/tokenMetadata.ts';

const catalog = loadCatalog(join(import.meta.dirname, '..', '..', 'catalog'));
const key = ([a, b]: readonly [string, string]) => `${a}/${b}`;

t.test('discoveryPairs: (base, base) and (token, base) pairs, each once, token0 < token1: linear in the token count', async (t) => {
  const devnet = catalog.chain('devnet')!;
  const pairs = discoveryPairs(devnet);
  // 5 bases (WETH, USDC, USDT, DAI, WBTC) + UNI, LINK, AAVE: 10 base pairs + 3 x 5 token pairs + the catalogue's
  // explicit AAVE/LINK pair.
  t.equal(pairs.length, 26);
  t.ok(
    pairs.every(([a, b]) => BigInt(a) < BigInt(b)),
    'token0 below token1',
  );
  t.equal(new Set(pairs.map(key)).size, 26, 'no pair twice');
  const bases = new Set(devnet.baseTokens);
  const explicit = new Set(devnet.pairs.map(([a, b]) => key(BigInt(a) < BigInt(b) ? [a, b] : [b, a])));
  t.ok(
    pairs.every(([a, b]) => bases.has(a) || bases.has(b) || explicit.has(key([a, b]))),
    'every pair has a base token, or is listed explicitly',
  );

  const ethereum = catalog.chain('ethereum')!;
  const erc20s = pairTokens(ethereum).length;
  const n = ethereum.baseTokens.length;
  t.equal(erc20s, 406, 'Ethereum: 406 ERC-20s (the list and the chain file; ETH stands for WETH)');
  t.equal(discoveryPairs(ethereum).length, (n * (n - 1)) / 2 + (erc20s - n) * n, 'C(5,2) + 401 x 5 = 2,015 pairs');
  // Per pair: Uniswap V2, SushiSwap V2, Uniswap V3 x 4 fee tiers.
  t.equal(discoveryCandidates(ethereum).length, 2015 * 6, '12,090 discovery candidates (all pairs would be 82,215 x 6 = 493,290)');
});

t.test(
  'discoveryPairs: explicit pairs are added once; the native asset stands for the wrapped token; unusable tokens are dropped',
  async (t) => {
    const devnet = catalog.chain('devnet')!;
    const uni = devnet.tokens.find((x) => x.symbol === 'UNI')!.address;
    const extra = getAddress('0x00000000000000000000000000000000000000ab');
    const chain: CatalogChain = {
      ...devnet,
      baseTokens: [devnet.tokens.find((x) => x.symbol === 'ETH')!.address, devnet.wrappedNativeToken],
      tokens: [
        ...devnet.tokens,
        { address: extra, symbol: 'X', name: 'X', slug: 'x', decimals: 18, logo: '', blockchainId: devnet.chainId },
      ],
      pairs: [
        [uni, extra],
        [extra, uni],
        [devnet.wrappedNativeToken, extra],
      ],
    };
    const pairs = discoveryPairs(chain).map(key);
    // One base (WETH, named twice): 8 other ERC-20s x WETH (X included), plus UNI/X; WETH/X is already a base pair.
    t.equal(pairs.length, 9);
    t.ok(pairs.includes(key(BigInt(uni) < BigInt(extra) ? [uni, extra] : [extra, uni])), 'the explicit pair');
    const usable = new Set(
      pairTokens(chain)
        .map((a) => a.toLowerCase())
        .filter((a) => a !== uni.toLowerCase()),
    );
    t.equal(discoveryPairs(chain, usable).length, 7, 'UNI dropped: its base pair and the explicit pair go');
    t.same(discoveryPairs({ ...chain, baseTokens: [], pairs: [] }).length, 36, 'no base tokens: every pair of the 9 ERC-20s');
  },
);

t.test('checkTokenMetadata and decodeSymbol', async (t) => {
  const listed = { decimals: 6, symbol: 'USDT' };
  t.equal(checkTokenMetadata(listed, 6, 'USDT'), undefined);
  t.equal(checkTokenMetadata(listed, 18, 'USDT'), 'decimals() is 18 on chain, 6 in the catalogue');
  t.equal(checkTokenMetadata(listed, 6, 'USD₮0'), 'symbol() is "USD₮0" on chain, "USDT" in the catalogue');
  t.equal(checkTokenMetadata(listed, undefined, undefined), 'decimals() cannot be read; symbol() cannot be read');
  // MKR's symbol() returns bytes32.
  t.equal(decodeSymbol('0x4d4b520000000000000000000000000000000000000000000000000000000000'), 'MKR');
  t.equal(
    decodeSymbol(
      '0x000000000000000000000000000000000000000000000000000000000000002000000000000000000000000000000000000000000000000000000000000000045553445400000000000000000000000000000000000000000000000000000000',
    ),
    'USDT',
  );
});

t.test('transfer-fee arithmetic: probe amount, rounded basis points, classification', async (t) => {
  t.equal(transferFeeProbeAmount(10n ** 21n), 10n ** 19n);
  t.equal(transferFeeProbeAmount(1_234_567_89n), 1_230_000n, 'a hundredth, rounded down to a multiple of 10,000');
  t.equal(transferFeeProbeAmount(5_000n), 50n);
  t.equal(transferFeeProbeAmount(42n), 42n, 'too small for a hundredth: all of it');
  t.equal(feeBps(10_000n, 9_900n), 100);
  t.equal(feeBps(12_345n, 12_222n), 100, '123 lost of 12,345 = 99.6 bps, rounded');
  t.equal(feeBps(10n ** 18n, 10n ** 18n - 1n), 0, 'one wei of rounding (stETH-like) is not a fee');
  t.equal(feeBps(100n, 101n), 0);
  const holder = getAddress('0x00000000000000000000000000000000000000ab');
  t.same(transferFeeResult(10_000n, { received: 10_000n, returned: 10_000n }, holder), { kind: 'none' });
  t.same(transferFeeResult(10_000n, { received: 9_900n, returned: 9_603n }, holder), {
    kind: 'fee',
    buyFeeBps: 100,
    sellFeeBps: 300,
    detail: 'it takes a fee on transfer: 1% of a transfer out of a pool (buy), 3% of a transfer into one (sell)',
  });
  t.same(transferFeeResult(10_000n, undefined, holder), {
    kind: 'failed',
    detail: `a transfer out of its pool ${holder} and back could not be simulated`,
  });
});
