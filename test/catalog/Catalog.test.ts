// Catalog.tokensBySymbol (issue 23 item 9): a symbol names a token in any letter case, the native asset wins its
// symbol, and a symbol two tokens share names both. Expected addresses are the fixture file's and, for the shipped
// catalogue, the tokens' published contract addresses (Circle's USDC on Ethereum, Binance-Peg ETH on BNB Chain).
import t from 'tap';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { TOKEN_SYMBOL_PATTERN } from '../../src/http/formats.ts';
import { fixtureCatalogWith } from '../helpers/fixtureCatalogWith.ts';
import { fixtureCatalogDir } from '../helpers/testApp.ts';

const NATIVE = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE';
const USDC = '0x2222222222222222222222222222222222222222';
const SECOND_USDC = '0x9999999999999999999999999999999999999999';
const ERC20_ETH = '0xaAaAaAaaAaAaAaaAaAAAAAAAAaaaAaAaAaaAaaAa';

/** The fixture catalogue plus, on testchain, a second "usdc" and an ERC-20 with the native symbol "ETH". */
const withDuplicates = (t: { teardown(fn: () => void): void }) =>
  loadCatalog(
    fixtureCatalogWith(t, [
      { address: SECOND_USDC, symbol: 'usdc', name: 'Another USD Coin', slug: 'usdc-2', decimals: 6, logo: '' },
      { address: ERC20_ETH, symbol: 'ETH', name: 'Ether token', slug: 'eth-token', decimals: 18, logo: '' },
    ]),
  );

const addresses = (tokens: readonly { address: string }[]) => tokens.map((token) => token.address);

t.test('tokensBySymbol: any letter case; unknown symbols and chains name nothing', async (t) => {
  const catalog = loadCatalog(fixtureCatalogDir);
  t.strictSame(addresses(catalog.tokensBySymbol(1001, 'USDC')), [USDC]);
  t.strictSame(addresses(catalog.tokensBySymbol(1001, 'usdc')), [USDC]);
  t.strictSame(addresses(catalog.tokensBySymbol(1001, 'Dai')), ['0x3333333333333333333333333333333333333333']);
  t.strictSame(addresses(catalog.tokensBySymbol(1001, 'eth')), [NATIVE], 'the native symbol is the native asset');
  t.strictSame(addresses(catalog.tokensBySymbol(1001, 'USCD')), []);
  t.strictSame(addresses(catalog.tokensBySymbol(1001, '0x2222222222222222222222222222222222222222')), [], 'an address is no symbol');
  t.strictSame(addresses(catalog.tokensBySymbol(999, 'USDC')), [], 'unknown chain');
  t.strictSame(addresses(catalog.tokensBySymbol(1002, 'EMP')), [], 'a chain that lists no token');
});

t.test('tokensBySymbol: a symbol shared in any letter case names every token with it; the native asset wins', async (t) => {
  const catalog = withDuplicates(t);
  t.strictSame(addresses(catalog.tokensBySymbol(1001, 'USDC')), [USDC, SECOND_USDC], 'catalogue order: symbol, then address');
  t.strictSame(addresses(catalog.tokensBySymbol(1001, 'usdc')), [USDC, SECOND_USDC], 'the exact letter case does not pick one');
  t.strictSame(addresses(catalog.tokensBySymbol(1001, 'ETH')), [NATIVE], 'an ERC-20 named ETH does not shadow the native asset');
  t.strictSame(catalog.token(1001, ERC20_ETH)?.symbol, 'ETH', 'that ERC-20 is still a token, by address');
});

t.test('tokensBySymbol on the shipped catalogue', async (t) => {
  const catalog = loadCatalog();
  t.strictSame(addresses(catalog.tokensBySymbol(1, 'usdc')), ['0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48']);
  t.strictSame(addresses(catalog.tokensBySymbol(1, 'ETH')), [NATIVE]);
  t.strictSame(addresses(catalog.tokensBySymbol(56, 'BNB')), [NATIVE], "BNB Chain's native asset");
  t.strictSame(
    addresses(catalog.tokensBySymbol(56, 'ETH')),
    ['0x2170Ed0880ac9A755fd29B2688956BD959F933F8'],
    'ETH on BNB Chain is an ERC-20',
  );
  // No two tokens of a shipped chain share a symbol (excludeTokens drops list duplicates), so each symbol names its token.
  const unnamed = catalog.chains.flatMap((chain) =>
    chain.tokens
      .filter((token) => addresses(catalog.tokensBySymbol(chain.chainId, token.symbol.toLowerCase())).join() !== token.address)
      .map((token) => `${chain.slug} ${token.symbol}`),
  );
  t.strictSame(unnamed, [], 'every shipped token is named by its symbol');
  const symbol = new RegExp(TOKEN_SYMBOL_PATTERN, 'u');
  const unsendable = catalog.allTokens().filter((token) => !symbol.test(token.symbol));
  t.strictSame(unsendable, [], 'every shipped symbol has the form a request may send');
});
