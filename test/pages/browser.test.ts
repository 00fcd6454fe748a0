// The pages in a real browser (Debian's chromium driven by playwright-core), against the service as `npm start`
// runs it (its own process, shipped catalogue and devnet snapshots, no build step). Every request outside the
// service's origin is aborted and recorded; console errors (CSP violations among them) are recorded. Screenshots
// are kept under .data/screenshots/.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { type Address, formatUnits } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { fundAccount } from '../../seeds/devnet/fundAccount.ts';
import { startDevnet } from '../../seeds/devnet/startDevnet.ts';
import type { Envelope } from '../../src/http/envelope.ts';
import type { Quote } from '../../src/quote/Quote.ts';
import type { RouteQuote } from '../../src/quote/routeQuotes.ts';
import type { PathView } from '../../src/routing/describeTrade.ts';
import { createApiKeyStore } from '../../src/store/apiKeyStore.ts';
import { launchChromium, type PageWatch, screenshotDir, watchedPage } from '../helpers/browser.ts';
import { devnetWallet, freshAddress } from '../helpers/devnetWallet.ts';
import { startServer } from '../helpers/serverProcess.ts';

const browser = await launchChromium(t);
if (browser) {
  const dataDir = mkdtempSync(join(tmpdir(), 'sqs-pages-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  // A fresh devnet is the chain the shipped devnet snapshot was seeded from: Simulate and Check status run on it.
  const devnet = await startDevnet();
  t.teardown(() => devnet.stop());
  const keys = createApiKeyStore({ redisUrl: undefined, dataDir });
  const { key: apiKey } = await keys.create('playground');
  await keys.close();
  const server = await startServer({
    readyPath: '/readyz',
    env: { REDIS_URL: undefined, DATA_DIR: dataDir, LOG_LEVEL: 'silent', WORKER_THREADS: '1', RPC_URL_31337: devnet.rpcUrl },
  });
  t.teardown(() => server.stop());
  const origin = server.url;

  const api = async <T = unknown>(path: string, body?: unknown): Promise<{ status: number; body: Envelope<T> }> => {
    const res = await fetch(
      origin + path,
      body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    );
    return { status: res.status, body: (await res.json()) as Envelope<T> };
  };

  /** Nothing was loaded from another origin and nothing went to the console as an error. */
  const clean = (t: Test, watch: PageWatch, allowedErrors: string[] = []): void => {
    t.strictSame(watch.foreign, [], "no request outside the service's origin");
    t.ok(
      watch.requested.length > 0 && watch.requested.every((url) => url.startsWith(`${origin}/`)),
      `${watch.requested.length} requests, all to ${origin}`,
    );
    t.strictSame(watch.errors, allowedErrors, 'console errors');
  };

  t.test('/docs lists every operation of the served document, grouped by tag, and its examples run', async (t) => {
    const watch = await watchedPage(browser, origin);
    t.teardown(() => watch.context.close());
    const { page } = watch;
    const doc = (await (await fetch(`${origin}/openapi.json`)).json()) as { paths: Record<string, Record<string, { tags: string[] }>> };
    const documented = Object.entries(doc.paths)
      .flatMap(([path, item]) => Object.entries(item).map(([method, op]) => `${op.tags[0]} ${method.toUpperCase()} ${path}`))
      .sort();
    await page.goto(`${origin}/docs`);
    await page
      .locator('.opblock')
      .nth(documented.length - 1)
      .waitFor();
    const listed = await page.$$eval('.opblock-tag-section', (sections) =>
      sections.flatMap((section) => {
        const tag = section.querySelector('.opblock-tag')?.getAttribute('data-tag') ?? '?';
        return [...section.querySelectorAll('.opblock')].map(
          (op) =>
            `${tag} ${op.querySelector('.opblock-summary-method')?.textContent} ${op.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`,
        );
      }),
    );
    t.strictSame(listed.sort(), documented, 'every operation, under its tag');
    t.equal(listed.length, 15);

    // Try it out: POST /quotes/routes with the document's first example, executed by the page itself.
    const routes = page.locator('#operations-quotes-quoteRoutes');
    await routes.locator('.opblock-summary').click();
    await routes.locator('button.try-out__btn').click();
    const answered = page.waitForResponse((r) => r.url() === `${origin}/quotes/routes` && r.request().method() === 'POST');
    await routes.locator('button.execute').click();
    const response = await answered;
    t.equal(response.status(), 200, 'the example is priced');
    const shown = routes.locator('.live-responses-table .response .response-col_status').first();
    await shown.waitFor();
    t.equal((await shown.textContent())?.trim(), '200', 'the page shows the 200');
    await page.screenshot({ path: join(screenshotDir, 'docs.png'), fullPage: true });
    clean(t, watch);
  });

  /** Chooses the devnet, a pair and an amount, presses Quote; returns the body the page sent and what the API answers to it. */
  const quoteOnPage = async (
    watch: PageWatch,
    tokenIn: string,
    tokenOut: string,
    amount: string,
    maxImpact?: string,
    tradeType?: 'exactIn' | 'exactOut',
  ) => {
    const { page } = watch;
    await page.goto(`${origin}/playground`);
    await page.locator('#quote:not([disabled])').waitFor();
    await page.selectOption('#chain', '31337');
    await page.selectOption('#token-in', tokenIn);
    await page.selectOption('#token-out', tokenOut);
    if (tradeType !== undefined) await page.selectOption('#trade-type', tradeType);
    await page.fill('#amount', amount);
    if (maxImpact !== undefined) await page.fill('#max-impact', maxImpact);
    const sent = page.waitForRequest((r) => r.url() === `${origin}/quotes/routes` && r.method() === 'POST');
    await page.click('#quote');
    const body = (await sent).postDataJSON() as Record<string, unknown>;
    await page.locator('#quote:not([disabled])').waitFor();
    return { body, direct: await api<RouteQuote[]>('/quotes/routes', body) };
  };

  interface DrawnHop {
    dex: string;
    version: string;
    fee: number;
    pool: string;
    tokenIn: string;
    tokenOut: string;
    amountIn: string;
    amountOut: string;
    text: string;
  }
  interface DrawnPath {
    percent: number;
    amountIn: string;
    amountOut: string;
    tokens: string[];
    hops: DrawnHop[];
  }
  // The callback runs in the page: no named inner functions (a loader with esbuild's keepNames would wrap them in a helper the page lacks).
  const drawing = (watch: PageWatch): Promise<DrawnPath[]> =>
    watch.page.$$eval('#route-drawing .path', (paths) =>
      paths.map((path) => ({
        percent: Number(path.getAttribute('data-percent')),
        amountIn: path.getAttribute('data-amount-in') ?? '',
        amountOut: path.getAttribute('data-amount-out') ?? '',
        tokens: [...path.querySelectorAll('.token')].map((n) => n.textContent ?? ''),
        hops: [...path.querySelectorAll('.hop')].map((hop) => ({
          dex: hop.getAttribute('data-dex') ?? '',
          version: hop.getAttribute('data-version') ?? '',
          fee: Number(hop.getAttribute('data-fee')),
          pool: hop.getAttribute('data-pool') ?? '',
          tokenIn: hop.getAttribute('data-token-in') ?? '',
          tokenOut: hop.getAttribute('data-token-out') ?? '',
          amountIn: hop.getAttribute('data-amount-in') ?? '',
          amountOut: hop.getAttribute('data-amount-out') ?? '',
          text: hop.textContent ?? '',
        })),
      })),
    );

  const devnetTokens = (await api<{ address: string; symbol: string; decimals: number }[]>('/blockchains/tokens?chainId=31337')).body.data!;
  const bySymbol = (symbol: string) => devnetTokens.find((tk) => tk.symbol === symbol);
  const byAddress = (address: string) => devnetTokens.find((tk) => tk.address.toLowerCase() === address.toLowerCase())!;
  const dexNames = new Map(
    ((await api('/blockchains/dex?chainId=31337')).body.data as { slug: string; version: string; name: string }[]).map((d) => [
      `${d.slug}/${d.version}`,
      d.name,
    ]),
  );

  /** The best route's paths as the API gives them; a response without the routing extension is one path through pairAddress. */
  const expectedPaths = (best: RouteQuote): PathView[] =>
    best.paths ?? [
      {
        percent: 100,
        amountIn: best.amountIn,
        amountOut: best.amountOut,
        hops: [
          {
            dex: best.route.dex,
            version: best.route.version,
            pool: best.pairAddress,
            fee: best.route.poolFee,
            tokenIn: best.tokenIn.address,
            tokenOut: best.tokenOut.address,
            amountIn: best.amountIn,
            amountOut: best.amountOut,
          },
        ],
      },
    ];

  /** The drawing, the best-route facts and the per-DEX table equal the API's answer to the same body. */
  const matchesApi = async (t: Test, watch: PageWatch, direct: { status: number; body: Envelope<RouteQuote[]> }): Promise<DrawnPath[]> => {
    t.equal(direct.status, 200, direct.body.message);
    const quotes = direct.body.data ?? [];
    const best = quotes[0];
    const drawn = await drawing(watch);
    const expected = expectedPaths(best);
    t.strictSame(
      drawn.map(({ tokens: _tokens, hops, ...path }) => ({ ...path, hops: hops.map(({ text: _text, ...hop }) => hop) })),
      expected.map((p) => ({
        percent: p.percent,
        amountIn: p.amountIn,
        amountOut: p.amountOut,
        hops: p.hops.map((h) => ({
          dex: h.dex,
          version: h.version,
          fee: h.fee,
          pool: h.pool,
          tokenIn: h.tokenIn,
          tokenOut: h.tokenOut,
          amountIn: h.amountIn,
          amountOut: h.amountOut,
        })),
      })),
      'paths, percentages, hops and amounts',
    );
    for (const [i, path] of drawn.entries()) {
      const hops = expected[i].hops;
      t.strictSame(
        path.tokens,
        [byAddress(hops[0].tokenIn).symbol, ...hops.map((h) => byAddress(h.tokenOut).symbol)],
        `path ${i + 1}: token symbols`,
      );
      for (const [j, hop] of path.hops.entries()) {
        const h = hops[j];
        const name = h.dex === 'wrap' ? 'Wrap' : dexNames.get(`${h.dex}/${h.version}`);
        const fee = h.dex === 'wrap' ? 'no fee' : `${formatUnits(BigInt(h.fee), 4)}%`;
        const amounts = `${formatUnits(BigInt(h.amountIn), byAddress(h.tokenIn).decimals)} ${byAddress(h.tokenIn).symbol} → ${formatUnits(BigInt(h.amountOut), byAddress(h.tokenOut).decimals)} ${byAddress(h.tokenOut).symbol}`;
        t.equal(
          hop.text.replaceAll(',', ''),
          `${name}${fee}${amounts}`,
          `path ${i + 1} hop ${j + 1}: DEX, fee tier and amounts (viem's formatUnits)`,
        );
      }
    }
    const warnings = await watch.page.$$eval('#warnings li', (lis) =>
      lis.map((li) => ({ code: li.getAttribute('data-warning-code'), message: li.textContent })),
    );
    t.strictSame(warnings, best.warnings, "the best route's warnings");
    t.equal(await watch.page.locator('#warnings').isVisible(), best.warnings.length > 0, 'the warnings box only when there are warnings');
    const facts = watch.page.locator('#best-facts');
    t.equal(await facts.locator('[data-amount-out]').getAttribute('data-amount-out'), best.amountOut, 'amountOut');
    t.equal(
      ((await facts.locator('[data-amount-out]').textContent()) ?? '').replaceAll(',', ''),
      `${formatUnits(BigInt(best.amountOut), best.tokenOut.decimals)} ${best.tokenOut.symbol}`,
    );
    t.equal(
      await facts.locator('[data-block-number]').getAttribute('data-block-number'),
      String(best.snapshot?.blockNumber),
      'snapshot block',
    );
    if (best.priceImpactBps !== undefined)
      t.equal(
        await facts.locator('[data-price-impact-bps]').getAttribute('data-price-impact-bps'),
        String(best.priceImpactBps),
        'price impact',
      );
    if (best.gasEstimate !== undefined)
      t.equal(await facts.locator('[data-gas-estimate]').getAttribute('data-gas-estimate'), best.gasEstimate, 'gas estimate');
    const rows = await watch.page.$$eval('#dex-results tbody tr', (trs) =>
      trs.map(
        (tr) =>
          `${tr.getAttribute('data-dex')}/${tr.getAttribute('data-version')} ${tr.getAttribute('data-amount-out')} ${tr.children[2]?.textContent?.replaceAll(',', '')}`,
      ),
    );
    // The LP fee in tokenIn (route.fees) and, per path, its pools' fee tiers (wraps take none); splits name their share.
    const tiers = (q: RouteQuote) => {
      const paths = expectedPaths(q)
        .map((p) => ({ p, hops: p.hops.filter((h) => h.dex !== 'wrap').map((h) => `${formatUnits(BigInt(h.fee), 4)}%`) }))
        .filter(({ hops }) => hops.length > 0);
      if (paths.length === 0) return 'no fee';
      const split = expectedPaths(q).length > 1;
      const perPath = paths.map(({ p, hops }) => `${split ? `${p.percent}%: ` : ''}${hops.join(' → ')}`).join('; ');
      return `${formatUnits(BigInt(q.route.fees), q.tokenIn.decimals)} ${q.tokenIn.symbol} (${perPath})`;
    };
    t.strictSame(
      rows,
      quotes.map((q) => `${q.route.dex}/${q.route.version} ${q.amountOut} ${tiers(q)}`),
      "every DEX's result, best first, with its fee tiers",
    );
    return drawn;
  };

  t.test('/playground offers only the chains that can be quoted and says how to add the others', async (t) => {
    const watch = await watchedPage(browser, origin);
    t.teardown(() => watch.context.close());
    const { page } = watch;
    await page.goto(`${origin}/playground`);
    await page.locator('#quote:not([disabled])').waitFor();
    const offered = await page.$$eval('#chain option', (options) => options.map((o) => [o.getAttribute('value'), o.textContent]));
    // The server serves the shipped snapshots: seeds/snapshots/devnet.json and devnet-b.json.
    t.strictSame(offered, [
      ['31337', 'Devnet (31337)'],
      ['31338', 'Devnet B (31338)'],
    ]);
    const note = page.locator('#chain-note');
    t.ok(await note.isVisible(), 'the note is shown');
    t.equal(
      await note.textContent(),
      'Not offered, no pool state yet: Ethereum (1), Optimism (10), BNB Smart Chain (56), Polygon (137), Base (8453), ' +
        'Arbitrum One (42161), Avalanche C-Chain (43114). Give a chain its pool state with a seeding run, ' +
        '`RPC_URL_<chainId>=<endpoint> npm run seed -- --chain <slug>` (docs/snapshots-and-following.md); ' +
        'the running server picks the snapshot up. No DEX, cannot be quoted: TRON (728126428), Solana (792703809).',
    );
    clean(t, watch);
  });

  t.test('/playground: a single pool (ETH to USDC) is drawn exactly as POST /quotes/routes answers', async (t) => {
    const watch = await watchedPage(browser, origin);
    t.teardown(() => watch.context.close());
    const { body, direct } = await quoteOnPage(watch, bySymbol('ETH')!.address, bySymbol('USDC')!.address, '1.5');
    t.strictSame(body, {
      originChainId: 31337,
      destinationChainId: 31337,
      tokenIn: bySymbol('ETH')!.address,
      tokenOut: bySymbol('USDC')!.address,
      amount: '1.5',
      recipientAddress: '0x000000000000000000000000000000000000dEaD',
    });
    await matchesApi(t, watch, direct);
    await watch.page.screenshot({ path: join(screenshotDir, 'playground-single.png'), fullPage: true });
    clean(t, watch);
  });

  t.test(
    '/playground: a pair that needs two hops (LINK to USDC on the devnet) is drawn exactly as POST /quotes/routes answers',
    async (t) => {
      const link = bySymbol('LINK');
      if (!link) {
        // The devnet gains LINK (only a LINK/WETH pool) with the routing work (issue 11); until it is on main this fails.
        t.fail('the devnet catalogue has no LINK yet: needs the extended devnet snapshot and multi-hop routing (issue 11)');
        return;
      }
      const watch = await watchedPage(browser, origin);
      t.teardown(() => watch.context.close());
      const { direct } = await quoteOnPage(watch, link.address, bySymbol('USDC')!.address, '10');
      const drawn = await matchesApi(t, watch, direct);
      t.ok(
        drawn.some((path) => path.hops.length === 2),
        'a path of two hops is drawn',
      );
      await watch.page.screenshot({ path: join(screenshotDir, 'playground.png'), fullPage: true });
      clean(t, watch);
    },
  );

  t.test('/playground: a maxPriceImpactBps is sent, and a high price impact shows its warning', async (t) => {
    const watch = await watchedPage(browser, origin);
    t.teardown(() => watch.context.close());
    const { body, direct } = await quoteOnPage(watch, bySymbol('WETH')!.address, bySymbol('USDC')!.address, '2000', '2000');
    t.equal(body.maxPriceImpactBps, 2000);
    const best = (direct.body.data as RouteQuote[])[0];
    t.ok(best.priceImpactBps > 500 && best.priceImpactBps <= 2000, `price impact ${best.priceImpactBps} bps`);
    t.equal(best.warnings[0]?.code, 'HIGH_PRICE_IMPACT');
    await matchesApi(t, watch, direct);
    await watch.page.screenshot({ path: join(screenshotDir, 'playground-warning.png'), fullPage: true });
    clean(t, watch);
  });

  t.test('/playground: the fee column of a known quote (1.5 ETH to USDC) reads as the LP fee and the pool tier', async (t) => {
    const watch = await watchedPage(browser, origin);
    t.teardown(() => watch.context.close());
    const { direct } = await quoteOnPage(watch, bySymbol('ETH')!.address, bySymbol('USDC')!.address, '1.5');
    await matchesApi(t, watch, direct);
    const best = (direct.body.data as RouteQuote[])[0];
    // Wrap then the 0.05% pool: the LP fee is 0.05% of 1.5 ETH (1.5e18 × 500 / 1e6 wei, exact).
    t.equal(best.route.fees, String((15n * 10n ** 17n * 500n) / 1_000_000n), 'route.fees');
    t.equal(await watch.page.locator('#dex-results tbody tr.best td').nth(2).textContent(), '0.00075 ETH (0.05%)');
    clean(t, watch);
  });

  /** A route of three hops on the devnet: AAVE's only pool is AAVE/LINK (v2), LINK's only pool LINK/WETH. */
  const threeHops = async (t: Test, width: number) => {
    const watch = await watchedPage(browser, origin);
    t.teardown(() => watch.context.close());
    await watch.page.setViewportSize({ width, height: 900 });
    const { direct } = await quoteOnPage(watch, bySymbol('AAVE')!.address, bySymbol('USDC')!.address, '1');
    const drawn = await matchesApi(t, watch, direct);
    t.ok(
      drawn.some((path) => path.hops.length === 3),
      'a path of three hops is drawn',
    );
    // Every path, hop and token box shows all of its text: nothing is cut off or scrolled.
    const clipped = await watch.page.$$eval(
      '#route-drawing, #route-drawing .path, #route-drawing .path > *, #route-drawing .hop > *',
      (nodes) =>
        nodes
          .filter((n) => n.scrollWidth > n.clientWidth)
          .map((n) => `${n.className}: ${n.textContent} (${n.scrollWidth} > ${n.clientWidth})`),
    );
    t.strictSame(clipped, [], 'no element of the route drawing is wider than its box');
    return watch;
  };

  t.test('/playground: a 3-hop route is shown in full at 1280 px', async (t) => {
    const watch = await threeHops(t, 1280);
    await watch.page.screenshot({ path: join(screenshotDir, 'playground-3hops.png'), fullPage: true });
    clean(t, watch);
  });

  t.test('/playground: on a 390 px phone the page does not scroll sideways, with a 3-hop route shown', async (t) => {
    const watch = await threeHops(t, 390);
    const widths = await watch.page.evaluate(() => [document.documentElement.scrollWidth, document.body.scrollWidth]);
    t.ok(
      widths.every((w) => w <= 390),
      `document scrollWidth ${widths.join(', ')} <= 390`,
    );
    await watch.page.screenshot({ path: join(screenshotDir, 'playground-phone.png'), fullPage: true });
    clean(t, watch);
  });

  t.test('/playground: an exact-output quote (buy 1000 USDC with ETH) delivers the requested amountOut', async (t) => {
    const watch = await watchedPage(browser, origin);
    t.teardown(() => watch.context.close());
    const { body, direct } = await quoteOnPage(watch, bySymbol('ETH')!.address, bySymbol('USDC')!.address, '1000', undefined, 'exactOut');
    t.equal(body.tradeType, 'exactOut', 'the control sends tradeType');
    t.equal(await watch.page.locator('#amount-label').textContent(), 'Amount out');
    await matchesApi(t, watch, direct);
    const best = (direct.body.data as RouteQuote[])[0];
    t.equal(best.amountOut, '1000000000', 'the API delivers exactly 1000 USDC (6 decimals)');
    const facts = watch.page.locator('#best-facts');
    t.equal(
      await facts.locator('[data-amount-out]').getAttribute('data-amount-out'),
      '1000000000',
      'the page shows the requested amountOut',
    );
    t.equal(await facts.locator('[data-amount-in]').getAttribute('data-amount-in'), best.amountIn, 'and the amountIn it needs');
    t.equal(await watch.page.locator('#limit-header').textContent(), 'Maximum in');
    clean(t, watch);
  });

  t.test("/playground: an invalid amount shows the API's 400 message", async (t) => {
    const watch = await watchedPage(browser, origin);
    t.teardown(() => watch.context.close());
    const { direct } = await quoteOnPage(watch, bySymbol('ETH')!.address, bySymbol('USDC')!.address, '1.2.3');
    t.strictSame(
      [direct.status, direct.body],
      [400, { code: 400, message: 'amount: must be a positive decimal string such as "1.5" (no sign, exponent or spaces)' }],
    );
    const error = watch.page.locator('#error');
    t.equal(await error.textContent(), direct.body.message);
    t.ok(await error.isVisible(), 'the message is shown');
    t.ok(await watch.page.locator('#result').isHidden(), 'no result is shown');
    await watch.page.screenshot({ path: join(screenshotDir, 'playground-error.png'), fullPage: true });
    // Chromium reports the 400 itself as a failed resource load.
    clean(t, watch, ['Failed to load resource: the server responded with a status of 400 (Bad Request)']);
  });

  t.test('/playground on a 390 px phone: Simulate shows each step as simulated, Check status reads the sent steps', async (t) => {
    const watch = await watchedPage(browser, origin);
    t.teardown(() => watch.context.close());
    const { page } = watch;
    await page.setViewportSize({ width: 390, height: 900 });
    const sender = privateKeyToAccount(devnet.accounts[3].privateKey);
    const recipient = freshAddress('playground-recipient');
    const chain = devnetWallet(devnet);
    const WETH = bySymbol('WETH')!.address as Address;
    const USDC = bySymbol('USDC')!.address as Address;
    t.equal(await chain.balanceOf(WETH, sender.address), 0n, 'the sender holds no WETH yet');
    await quoteOnPage(watch, WETH, USDC, '1.25');
    await page.fill('#recipient', recipient);
    await page.fill('#api-key', apiKey);
    await page.fill('#sender', sender.address);
    const answered = page.waitForResponse((r) => r.url() === `${origin}/quotes` && r.request().method() === 'POST');
    await page.click('#simulate');
    const response = await answered;
    t.equal(response.status(), 200);
    t.strictSame(
      (await response.request().postDataJSON()) as unknown,
      {
        originChainId: 31337,
        destinationChainId: 31337,
        tokenIn: WETH,
        tokenOut: USDC,
        amount: '1.25',
        recipientAddress: recipient,
        sender: sender.address,
        simulate: true,
      },
      'the page sends the quote request with sender and simulate',
    );
    const quote = ((await response.json()) as Envelope<Quote>).data!;
    const sim = quote.simulation!;
    await page.locator('#simulation').waitFor();
    const rows = await page.$$eval('#simulation-steps tbody tr', (trs) =>
      trs.map((tr) => [
        tr.children[0]?.textContent,
        tr.getAttribute('data-status'),
        tr.getAttribute('data-gas-used'),
        tr.getAttribute('data-gas-limit'),
        tr.getAttribute('data-reason'),
      ]),
    );
    t.strictSame(
      rows,
      sim.steps.map((s) => [s.message, s.status, s.gasUsed ?? '', s.gasLimit ?? '', s.revert?.reason ?? '']),
      'each step as simulated',
    );
    t.strictSame(
      rows.map((r) => r[1]),
      ['success', 'success'],
      'approve and swap both succeed',
    );
    const summary = page.locator('#simulation-summary');
    t.strictSame(
      [await summary.getAttribute('data-success'), await summary.getAttribute('data-simulated-amount-out')],
      ['true', quote.amountOut],
      'the devnet is the state the snapshot was seeded from: the simulated output is amountOut',
    );
    t.equal(
      await page.locator('#simulation-notes').textContent(),
      `Given to the sender for the simulation: balance of ${formatUnits(BigInt(quote.amountIn), 18)} WETH.`,
    );
    t.equal(await page.inputValue('#status-quote-id'), quote.quoteId, 'the status panel takes the quote id');

    // The steps sent exactly as returned, each read back through the status panel; the chain is the oracle.
    await fundAccount(devnet.rpcUrl, sender.address, WETH, 10n ** 19n);
    const before = await chain.balanceOf(USDC, recipient);
    const receipts = await chain.sendSteps(sender, quote.steps);
    const delivered = (await chain.balanceOf(USDC, recipient)) - before;
    t.equal(delivered.toString(), sim.simulatedAmountOut, "the recipient's balance change is the simulated output");
    const shown: Record<string, string | null>[] = [];
    for (const receipt of receipts) {
      await page.fill('#tx-hash', receipt.transactionHash);
      const status = page.waitForResponse((r) => r.url().startsWith(`${origin}/quotes/${quote.quoteId}/status`));
      await page.click('#check-status');
      t.equal((await status).status(), 200);
      await page.locator('#status-facts').waitFor();
      shown.push(
        await page.$eval('#status-facts', (dl) =>
          Object.fromEntries(
            [...dl.querySelectorAll('dd')].flatMap((dd) =>
              [...dd.attributes].filter((a) => a.name.startsWith('data-')).map((a) => [a.name, a.value]),
            ),
          ),
        ),
      );
    }
    t.strictSame(
      shown,
      receipts.map((r, i) => ({
        'data-status': 'success',
        'data-step': String(i),
        'data-block-number': String(r.blockNumber),
        'data-gas-used': String(r.gasUsed),
        'data-amount-received': i === 0 ? '0' : delivered.toString(),
        'data-amount-out': quote.amountOut,
        'data-realized-slippage-bps': i === 0 ? '—' : '0',
      })),
      "each sent step as its receipt and the recipient's balance say",
    );
    // A hash the chain does not know; then a malformed one: the API's 400 message.
    await page.fill('#tx-hash', `0x${'ab'.repeat(32)}`);
    await page.click('#check-status');
    await page.locator('#status-facts dd[data-status="not_found"]').waitFor();
    await page.fill('#tx-hash', '0x12');
    await page.click('#check-status');
    await page.locator('#status-error').waitFor();
    t.equal(await page.locator('#status-error').textContent(), 'txHash: must be a transaction hash (0x followed by 64 hex digits)');
    t.ok(await page.locator('#status-facts').isHidden(), 'no stale status beside the error');
    const widths = await page.evaluate(() => [document.documentElement.scrollWidth, document.body.scrollWidth]);
    t.ok(
      widths.every((w) => w <= 390),
      `document scrollWidth ${widths.join(', ')} <= 390`,
    );
    await page.screenshot({ path: join(screenshotDir, 'playground-simulate-phone.png'), fullPage: true });
    clean(t, watch, ['Failed to load resource: the server responded with a status of 400 (Bad Request)']);
  });
}
