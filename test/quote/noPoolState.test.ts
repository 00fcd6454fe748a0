// A chain without pool state (no snapshot loaded: every production chain of a fresh checkout, here also devnet-b with
// its snapshot left out) is refused as such, not as "no route": POST /quotes/routes, POST /quotes (exact input and
// output) and bridge quotes whose origin or destination swap needs such a chain get the exact 400 naming the chain
// and the seeding run; a bridge without a swap on that chain is still quoted.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import type { Quote } from '../../src/quote/Quote.ts';
import { buildQuoteTestApp } from '../helpers/quoteTestApp.ts';
import type { Answer } from '../helpers/testApp.ts';

const CATALOG_DIR = fileURLToPath(new URL('../../catalog', import.meta.url));
const SHIPPED = fileURLToPath(new URL('../../seeds/snapshots', import.meta.url));
const snapshotDir = mkdtempSync(join(tmpdir(), 'no-pool-state-'));
copyFileSync(join(SHIPPED, 'devnet.json'), join(snapshotDir, 'devnet.json'));

const q = buildQuoteTestApp({ catalogDir: CATALOG_DIR, snapshotDir });
t.teardown(async () => {
  await q.close();
  rmSync(snapshotDir, { recursive: true, force: true });
});
const { key } = await q.keys.create('org-no-pool-state');
const headers = { authorization: `Bearer ${key}` };

const ETH = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE';
const MAINNET_USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const MAINNET_WETH = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2';
const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const DEVNET_USDC = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512';
const DEVNET_UNI = '0x5FC8d32690cc91D4c39d9d3abcBD16989F875707';
const RECIPIENT = '0x00000000000000000000000000000000000000aa';
const ethereum = {
  originChainId: 1,
  destinationChainId: 1,
  tokenIn: ETH,
  tokenOut: MAINNET_USDC,
  amount: '1',
  recipientAddress: RECIPIENT,
};
const ETHEREUM_REFUSAL =
  'quote unavailable: no pool state for ethereum (chain 1): run the seeding run with RPC_URL_1 (docs/snapshots-and-following.md)';

t.test('same chain: POST /quotes/routes and POST /quotes name the chain without pool state', async (t) => {
  for (const [path, body] of [
    ['/quotes/routes', ethereum],
    ['/quotes', ethereum],
    ['/quotes/routes', { ...ethereum, tradeType: 'exactOut', amount: '1000' }],
    ['/quotes', { ...ethereum, tradeType: 'exactOut', amount: '1000' }],
    ['/quotes', { ...ethereum, tokenIn: MAINNET_USDC, tokenOut: MAINNET_WETH, maxHops: 1 }],
  ] as const) {
    const res = await q.request('POST', path, { body, headers });
    t.strictSame([res.status, res.body], [400, { code: 400, message: ETHEREUM_REFUSAL }], `${path} ${JSON.stringify(body)}`);
  }
});

t.test('bridge: a destination swap on a chain without pool state', async (t) => {
  const body = {
    originChainId: 31337,
    destinationChainId: 31338,
    tokenIn: DEVNET_USDC,
    tokenOut: DEVNET_UNI,
    amount: '100',
    recipientAddress: RECIPIENT,
  };
  const res = await q.request('POST', '/quotes', { body, headers });
  t.strictSame(
    [res.status, res.body],
    [
      400,
      {
        code: 400,
        message:
          'quote unavailable: no pool state for devnet-b (chain 31338): run the seeding run with RPC_URL_31338 (docs/snapshots-and-following.md)',
      },
    ],
  );
  const direct = await q.request<Answer<Quote>>('POST', '/quotes', { body: { ...body, tokenOut: DEVNET_USDC }, headers });
  t.equal(direct.status, 200, 'USDC -> USDC needs no swap on devnet-b: quoted');
  // 100 USDC x (1 - 5 bps) - 0.15 USDC (catalog/devnet.json, destinations["31338"])
  t.equal(direct.body.data.amountOut, '99800000');
});

t.test('bridge: swaps on both chains, neither with pool state', async (t) => {
  const body = { originChainId: 1, destinationChainId: 8453, tokenIn: ETH, tokenOut: BASE_USDC, amount: '1', recipientAddress: RECIPIENT };
  const res = await q.request('POST', '/quotes', { body, headers });
  t.strictSame(
    [res.status, res.body],
    [
      400,
      {
        code: 400,
        message:
          'quote unavailable: no pool state for ethereum (chain 1) and base (chain 8453): run the seeding run with RPC_URL_1 and RPC_URL_8453 (docs/snapshots-and-following.md)',
      },
    ],
  );
});
