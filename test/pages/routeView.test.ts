// The playground's view model (src/pages/routeView.ts), outside the browser: amounts against viem's formatUnits,
// fee tiers and basis points as exact percentages, and the drawn paths of both response shapes.
import fc from 'fast-check';
import t from 'tap';
import { formatUnits as viemFormatUnits } from 'viem';
import {
  type ApiRouteQuote,
  amountLabel,
  bpsLabel,
  drawRoute,
  feeLabel,
  feesLabel,
  formatUnits,
  groupThousands,
  percentLabel,
  type TokenInfo,
} from '../../src/pages/routeView.ts';

t.test("formatUnits equals viem's formatUnits for any amount and decimals", async (t) => {
  fc.assert(
    fc.property(fc.bigInt({ min: -(1n << 256n), max: 1n << 256n }), fc.integer({ min: 0, max: 36 }), (value, decimals) => {
      const mine = formatUnits(value.toString(), decimals);
      if (mine !== viemFormatUnits(value, decimals))
        throw new Error(`${value} / 10^${decimals}: ${mine} vs ${viemFormatUnits(value, decimals)}`);
    }),
    { seed: 20_261_122, numRuns: 2000 },
  );
  t.equal(formatUnits('1500000', 6), '1.5');
  t.equal(formatUnits('0', 18), '0');
  t.equal(formatUnits('1', 18), '0.000000000000000001');
});

t.test('fee tiers in pips and basis points as exact percentages', async (t) => {
  t.strictSame([100, 500, 3000, 10_000, 2500, 0].map(feeLabel), ['0.01%', '0.05%', '0.3%', '1%', '0.25%', '0%']);
  t.strictSame([0, 1, 50, 123, 10_000, -7].map(bpsLabel), ['0%', '0.01%', '0.5%', '1.23%', '100%', '-0.07%']);
});

t.test('thousands are grouped in the whole part only', async (t) => {
  t.strictSame(['0', '999', '1000', '1234567.891011', '12345678901234567890.5'].map(groupThousands), [
    '0',
    '999',
    '1,000',
    '1,234,567.891011',
    '12,345,678,901,234,567,890.5',
  ]);
  t.equal(amountLabel('1234567890', { address: '0x', symbol: 'USDC', decimals: 6 }), '1,234.56789 USDC');
  t.equal(amountLabel('7', undefined), '7 (smallest units)');
});

const WETH: TokenInfo = { address: '0x5FbDB2315678afecb367f032d93F642f64180aa3', symbol: 'WETH', decimals: 18 };
const USDC: TokenInfo = { address: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512', symbol: 'USDC', decimals: 6 };
const LINK: TokenInfo = { address: '0x0000000000000000000000000000000000000111', symbol: 'LINK', decimals: 18 };
const token = (address: string) => [WETH, USDC, LINK].find((tk) => tk.address.toLowerCase() === address.toLowerCase());
const names = (slug: string, version: string) => `${slug === 'uniswap' ? 'Uniswap' : 'SushiSwap'} ${version.toUpperCase()}`;
const base: ApiRouteQuote = {
  amountIn: '2000000000000000000',
  amountOut: '5990000000',
  amountOutMinimum: '5960050000',
  slippageBps: 50,
  warnings: [],
  route: { dex: 'uniswap', name: 'Uniswap V3', version: 'v3', poolFee: 500, fees: '1000000000000000' },
  tokenIn: WETH,
  tokenOut: USDC,
  pairAddress: '0x00000000000000000000000000000000000000a1',
  snapshot: { blockNumber: 156, blockTimestamp: 1_795_296_525, ageSeconds: 3 },
};

t.test('a response without paths is one path through pairAddress', async (t) => {
  t.strictSame(drawRoute(base, token, names), [
    {
      percent: 100,
      amountIn: '2000000000000000000',
      amountOut: '5990000000',
      amountInLabel: '2 WETH',
      amountOutLabel: '5,990 USDC',
      hops: [
        {
          dex: 'uniswap',
          dexName: 'Uniswap V3',
          version: 'v3',
          pool: base.pairAddress,
          fee: 500,
          feeLabel: '0.05%',
          tokenIn: WETH.address,
          tokenOut: USDC.address,
          tokenInSymbol: 'WETH',
          tokenOutSymbol: 'USDC',
          amountIn: '2000000000000000000',
          amountOut: '5990000000',
          amountInLabel: '2 WETH',
          amountOutLabel: '5,990 USDC',
        },
      ],
    },
  ]);
});

t.test('with paths, the drawing is exactly the paths: splits, hops in order, symbols from the catalogue', async (t) => {
  const quote: ApiRouteQuote = {
    ...base,
    tokenIn: LINK,
    amountIn: '10000000000000000000',
    amountOut: '150000000',
    paths: [
      {
        percent: 70,
        amountIn: '7000000000000000000',
        amountOut: '105000000',
        hops: [
          {
            dex: 'uniswap',
            version: 'v3',
            pool: '0x00000000000000000000000000000000000000b1',
            fee: 3000,
            tokenIn: LINK.address.toLowerCase(),
            tokenOut: WETH.address,
            amountIn: '7000000000000000000',
            amountOut: '35000000000000000',
          },
          {
            dex: 'sushiswap',
            version: 'v2',
            pool: '0x00000000000000000000000000000000000000b2',
            fee: 3000,
            tokenIn: WETH.address,
            tokenOut: USDC.address,
            amountIn: '35000000000000000',
            amountOut: '105000000',
          },
        ],
      },
      {
        percent: 30,
        amountIn: '3000000000000000000',
        amountOut: '45000000',
        hops: [
          {
            dex: 'uniswap',
            version: 'v2',
            pool: '0x00000000000000000000000000000000000000b3',
            fee: 3000,
            tokenIn: LINK.address,
            tokenOut: USDC.address,
            amountIn: '3000000000000000000',
            amountOut: '45000000',
          },
        ],
      },
    ],
  };
  const drawn = drawRoute(quote, token, names);
  t.strictSame(
    drawn.map((p) => [
      p.percent,
      p.amountInLabel,
      p.amountOutLabel,
      p.hops.map((h) => `${h.tokenInSymbol}>${h.dexName} ${h.feeLabel} ${h.amountInLabel} → ${h.amountOutLabel}>${h.tokenOutSymbol}`),
    ]),
    [
      [70, '7 LINK', '105 USDC', ['LINK>Uniswap V3 0.3% 7 LINK → 0.035 WETH>WETH', 'WETH>SushiSwap V2 0.3% 0.035 WETH → 105 USDC>USDC']],
      [30, '3 LINK', '45 USDC', ['LINK>Uniswap V2 0.3% 3 LINK → 45 USDC>USDC']],
    ],
  );
  t.equal(drawn[0].hops[0].tokenIn, LINK.address.toLowerCase(), 'addresses are kept as the API gave them');
  t.equal(feesLabel(quote, drawn), '0.001 LINK (70%: 0.3% → 0.3%; 30%: 0.3%)', 'route.fees in tokenIn, tiers per split');
  t.equal(feesLabel(base, drawRoute(base, token, names)), '0.001 WETH (0.05%)');
});

t.test('a wrap hop is labelled as a wrap, without a fee tier', async (t) => {
  const ETH: TokenInfo = { address: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE', symbol: 'ETH', decimals: 18 };
  const wrap: ApiRouteQuote = {
    ...base,
    tokenIn: ETH,
    tokenOut: WETH,
    amountOut: base.amountIn,
    route: { dex: 'wrap', name: 'WETH wrap', version: '', poolFee: 0, fees: '0' },
    pairAddress: WETH.address,
  };
  const [path] = drawRoute(wrap, (a) => (a.toLowerCase() === ETH.address.toLowerCase() ? ETH : token(a)), names);
  t.strictSame(
    [path!.hops[0].dexName, path!.hops[0].feeLabel, path!.hops[0].tokenInSymbol, path!.hops[0].tokenOutSymbol],
    ['Wrap', 'no fee', 'ETH', 'WETH'],
  );
  t.equal(feesLabel(wrap, [path!]), 'no fee');
  const wrapThenSwap: ApiRouteQuote = {
    ...base,
    tokenIn: ETH,
    paths: [
      {
        percent: 100,
        amountIn: base.amountIn,
        amountOut: base.amountOut,
        hops: [
          {
            dex: 'wrap',
            version: '',
            pool: WETH.address,
            fee: 0,
            tokenIn: ETH.address,
            tokenOut: WETH.address,
            amountIn: base.amountIn,
            amountOut: base.amountIn,
          },
          {
            dex: 'uniswap',
            version: 'v3',
            pool: base.pairAddress,
            fee: 500,
            tokenIn: WETH.address,
            tokenOut: USDC.address,
            amountIn: base.amountIn,
            amountOut: base.amountOut,
          },
        ],
      },
    ],
  };
  const lookup = (a: string) => (a.toLowerCase() === ETH.address.toLowerCase() ? ETH : token(a));
  t.equal(feesLabel(wrapThenSwap, drawRoute(wrapThenSwap, lookup, names)), '0.001 ETH (0.05%)', 'a wrap hop takes no fee and is left out');
});

t.test('split shares with up to four decimals', async (t) => {
  t.strictSame([100, 50, 33.3333, 12.5, 0.0001, 66.667].map(percentLabel), ['100%', '50%', '33.3333%', '12.5%', '0.0001%', '66.667%']);
});
