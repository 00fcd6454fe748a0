// Cross-checks every catalogue token's address and decimals against packages that know them:
// @across-protocol/constants TOKEN_SYMBOLS_MAP (addresses per chain id + decimals) and, for the wrapped
// native token and UNI, @uniswap/sdk-core (WETH9, UNI_ADDRESSES). Tokens no package knows are listed.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import t from 'tap';

const require = createRequire(import.meta.url);
const CATALOG_DIR = join(import.meta.dirname, '..', '..', 'catalog');

interface Token {
  address: string;
  symbol: string;
  name: string;
  slug: string;
  decimals: number;
  logo: string;
}
interface ChainFile {
  name: string;
  slug: string;
  chainId: number;
  symbol: string;
  ecosystem: 'evm' | 'tvm' | 'svm';
  wrappedNativeToken?: string;
  tokens: Token[];
}
const PRODUCTION_FILES = ['ethereum', 'optimism', 'bnb', 'polygon', 'base', 'arbitrum', 'avalanche', 'tron', 'solana'];
const chains = PRODUCTION_FILES.map((file) => ({
  file,
  chain: JSON.parse(readFileSync(join(CATALOG_DIR, `${file}.json`), 'utf8')) as ChainFile,
}));

const NATIVE = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE';

interface AcrossToken {
  name: string;
  symbol: string;
  decimals: number;
  addresses: Record<number, string>;
}
const across = require('@across-protocol/constants') as {
  TOKEN_SYMBOLS_MAP: Record<string, AcrossToken>;
  CHAIN_IDs: Record<string, number>;
};
const sdkCore = require('@uniswap/sdk-core') as {
  WETH9: Record<number, { address: string; decimals: number }>;
  UNI_ADDRESSES: Record<number, string>;
};

/**
 * Across keys a token by symbol, with one decimals value per key. BNB Smart Chain's 18-decimal
 * Binance-Peg stablecoins and BTCB live under their own keys.
 */
const ACROSS_KEY: Record<number, Record<string, string>> = {
  56: { USDC: 'USDC-BNB', USDT: 'USDT-BNB', BTCB: 'WBTC-BNB' },
};
/** The catalogue's Solana id (Relay's 792703809) → Across's Solana chain id. */
const acrossChainId = (chain: ChainFile): number => (chain.ecosystem === 'svm' ? across.CHAIN_IDs.SOLANA : chain.chainId);
const sameAddress = (chain: ChainFile, a: string, b: string): boolean =>
  chain.ecosystem === 'evm' ? a.toLowerCase() === b.toLowerCase() : a === b;

const noOracle: string[] = [];
/** The Uniswap default token list as published on npm (second oracle for tokens Across does not list). */
const uniswapList = require('@uniswap/default-token-list') as { tokens: { chainId: number; address: string; decimals: number }[] };
/**
 * Tokens neither package lists (their address and decimals rest on the catalogue alone). Pinned: a new token
 * outside both oracles fails here until someone checks it by other means and adds it.
 */
const REVIEWED_WITHOUT_ORACLE: readonly string[] = ['avalanche BTC.b', 'tron USDC', 'solana USDT', 'solana JUP', 'solana Bonk'];

for (const { file, chain } of chains) {
  t.test(`${file}: token addresses and decimals against @across-protocol/constants`, async (t) => {
    const id = acrossChainId(chain);
    for (const tk of chain.tokens) {
      const isNative = chain.ecosystem === 'evm' ? tk.address === NATIVE : tk.symbol === chain.symbol;
      if (isNative) {
        // Across lists the native symbol with the wrapped token's address; only its decimals apply here.
        const entry = across.TOKEN_SYMBOLS_MAP[chain.symbol];
        t.ok(entry, `Across knows ${chain.symbol}`);
        t.equal(tk.decimals, entry?.decimals, `native ${tk.symbol} decimals`);
        if (chain.ecosystem === 'svm') t.equal(tk.address, entry?.addresses[id], 'SOL is the wrapped-SOL mint');
        continue;
      }
      const key = ACROSS_KEY[chain.chainId]?.[tk.symbol] ?? tk.symbol;
      const entry = across.TOKEN_SYMBOLS_MAP[key];
      const oracleAddress = entry?.addresses[id];
      if (!entry || !oracleAddress) {
        // Second oracle: the Uniswap default token list (an address it lists there must carry its decimals).
        const listed = uniswapList.tokens.find((e) => e.chainId === chain.chainId && sameAddress(chain, e.address, tk.address));
        if (listed) t.equal(tk.decimals, listed.decimals, `${tk.symbol} decimals = @uniswap/default-token-list`);
        else noOracle.push(`${file} ${tk.symbol}`);
        continue;
      }
      t.ok(sameAddress(chain, tk.address, oracleAddress), `${tk.symbol} address ${tk.address} = Across ${key} ${oracleAddress}`);
      t.equal(tk.decimals, entry.decimals, `${tk.symbol} decimals = Across ${key}`);
    }
  });
}

for (const { file, chain } of chains.filter(({ chain }) => chain.ecosystem === 'evm')) {
  t.test(`${file}: wrapped native token against @uniswap/sdk-core WETH9`, async (t) => {
    const weth = sdkCore.WETH9[chain.chainId];
    t.ok(weth, `sdk-core knows the wrapped native token of ${chain.chainId}`);
    t.equal(chain.wrappedNativeToken?.toLowerCase(), weth?.address.toLowerCase(), 'wrappedNativeToken');
    const listed = chain.tokens.find((tk) => tk.address.toLowerCase() === weth?.address.toLowerCase());
    t.equal(listed?.decimals, weth?.decimals, 'wrapped token decimals');
  });
}

t.test('ethereum: UNI against @uniswap/sdk-core UNI_ADDRESSES', async (t) => {
  const eth = chains.find(({ file }) => file === 'ethereum')?.chain;
  const uni = eth?.tokens.find((tk) => tk.symbol === 'UNI');
  t.equal(uni?.address.toLowerCase(), sdkCore.UNI_ADDRESSES[1]?.toLowerCase());
});

t.test('the BNB Smart Chain stablecoins carry 18 decimals', async (t) => {
  const bnb = chains.find(({ file }) => file === 'bnb')?.chain;
  for (const symbol of ['USDC', 'USDT']) t.equal(bnb?.tokens.find((tk) => tk.symbol === symbol)?.decimals, 18, symbol);
});

t.test('tokens without an address/decimals oracle are the reviewed ones', async (t) => {
  t.same(noOracle, REVIEWED_WITHOUT_ORACLE, `${noOracle.length} tokens checked by hand only`);
});
