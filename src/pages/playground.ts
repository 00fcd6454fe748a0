/**
 * GET /playground: pick a chain and two tokens from the catalogue endpoints, exact input or output, an amount and an optional slippage;
 * only chains that can be quoted (a DEX and pool state) are offered, and a note says how to add the others.
 * Quote posts them to POST /quotes/routes and shows every DEX's result and the best route drawn as paths of hops.
 * An error is the API's own message. With an API key, Simulate takes the same request with POST /quotes
 * (`sender`, `simulate: true`) and shows each step's simulated result; Check status reads a sent transaction of a quote
 * (GET /quotes/{quoteId}/status). Served as /assets/playground.js (esbuild strips the types; no bundling, so
 * imports name the served .js files).
 */
import {
  type ApiRouteQuote,
  amountLabel,
  bpsLabel,
  drawRoute,
  feesLabel,
  groupThousands,
  type PathDrawing,
  percentLabel,
  type TokenInfo,
} from './routeView.js';

interface Envelope<T> {
  code: number;
  message: string;
  data?: T;
}
interface Chain {
  name: string;
  slug: string;
  chainId: number;
  hasPoolState: boolean;
  /** As GET /blockchains serves them: a token the seeding run left out has `quotable: false` and the reason. */
  tokens: (TokenInfo & { name: string; quotable?: false; reason?: string })[];
}
interface Dex {
  chainId: number;
  name: string;
  slug: string;
  version: string;
}

/** A step of POST /quotes' simulation (src/quote/quoteSimulation.ts). */
interface SimulatedStep {
  message: string;
  status: 'success' | 'reverted' | 'skipped';
  gasUsed: string | null;
  gasLimit: string | null;
  revert: { reason: string; data: string } | null;
}
interface ApiQuote {
  quoteId: string;
  amountOut: string;
  tokenIn: TokenInfo;
  tokenOut: TokenInfo;
  simulation: {
    blockNumber: number;
    method: string;
    success: boolean;
    amountOut: string;
    simulatedAmountOut: string | null;
    overrides: { kind: string; token: string; value: string }[];
    steps: SimulatedStep[];
    notes: string[];
  };
}
interface TxStatus {
  status: string;
  step: number | null;
  blockNumber: number | null;
  gasUsed: string | null;
  amountOut: string;
  amountReceived: string | null;
  realizedSlippageBps: number | null;
}

/** Routes are priced the same for any recipient; the API needs one. */
const DEFAULT_RECIPIENT = '0x000000000000000000000000000000000000dEaD';
const NATIVE = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';
const PREFERRED_CHAIN = 31337;

function byId<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`#${id} is missing`);
  return found as T;
}

const form = byId<HTMLFormElement>('quote-form');
const chainSelect = byId<HTMLSelectElement>('chain');
const tokenInSelect = byId<HTMLSelectElement>('token-in');
const tokenOutSelect = byId<HTMLSelectElement>('token-out');
const flipButton = byId<HTMLButtonElement>('flip');
const tradeTypeSelect = byId<HTMLSelectElement>('trade-type');
const amountLabelText = byId<HTMLSpanElement>('amount-label');
const amountInput = byId<HTMLInputElement>('amount');
const slippageInput = byId<HTMLInputElement>('slippage');
const maxImpactInput = byId<HTMLInputElement>('max-impact');
const recipientInput = byId<HTMLInputElement>('recipient');
const quoteButton = byId<HTMLButtonElement>('quote');
const errorBox = byId<HTMLDivElement>('error');
const chainNote = byId<HTMLParagraphElement>('chain-note');
const result = byId<HTMLElement>('result');
const apiKeyInput = byId<HTMLInputElement>('api-key');
const senderInput = byId<HTMLInputElement>('sender');
const simulateButton = byId<HTMLButtonElement>('simulate');
const simulateError = byId<HTMLDivElement>('simulate-error');
const simulationBox = byId<HTMLDivElement>('simulation');
const statusForm = byId<HTMLFormElement>('status-form');
const statusQuoteId = byId<HTMLInputElement>('status-quote-id');
const txHashInput = byId<HTMLInputElement>('tx-hash');
const statusButton = byId<HTMLButtonElement>('check-status');
const statusError = byId<HTMLDivElement>('status-error');
const statusFacts = byId<HTMLElement>('status-facts');

/** Creates an element with attributes (`data-*`, `class`, ...) and children (strings become text, never HTML). */
function el(tag: string, attributes: Record<string, string | number> = {}, ...children: (Node | string)[]): HTMLElement {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  node.append(...children);
  return node;
}

/** GETs or POSTs JSON (with `apiKey`: as its bearer) and returns the envelope; a non-2xx answer throws the API's message. */
async function call<T>(path: string, body?: unknown, apiKey?: string): Promise<T> {
  const auth: Record<string, string> = apiKey ? { authorization: `Bearer ${apiKey}` } : {};
  const response = await fetch(
    path,
    body === undefined
      ? { headers: auth }
      : { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) },
  );
  let envelope: Envelope<T> | undefined;
  try {
    envelope = (await response.json()) as Envelope<T>;
  } catch {
    envelope = undefined;
  }
  if (!response.ok || envelope === undefined || envelope.data === undefined) {
    throw new Error(envelope?.message ?? `${path} answered ${response.status} ${response.statusText}`);
  }
  return envelope.data;
}

function showError(message: string): void {
  errorBox.textContent = message;
  errorBox.hidden = false;
}

let chains: Chain[] = [];
let dexes: Dex[] = [];

function currentChain(): Chain | undefined {
  return chains.find((c) => String(c.chainId) === chainSelect.value);
}

function tokenOptions(select: HTMLSelectElement, chain: Chain, selected: string | undefined): void {
  select.replaceChildren(
    ...chain.tokens.map((t) =>
      t.quotable === false
        ? el('option', { value: t.address, disabled: '', title: t.reason ?? '' }, `${t.symbol} · ${t.name} (not quoted: ${t.reason ?? ''})`)
        : el('option', { value: t.address }, `${t.symbol} · ${t.name}`),
    ),
  );
  if (selected) select.value = selected;
}

function fillTokens(): void {
  const chain = currentChain();
  if (!chain) return;
  const quotable = chain.tokens.filter((t) => t.quotable !== false);
  const find = (test: (t: TokenInfo) => boolean) => quotable.find(test)?.address;
  const tokenIn = find((t) => t.address.toLowerCase() === NATIVE) ?? quotable[0]?.address;
  const tokenOut = find((t) => t.symbol === 'USDC' && t.address !== tokenIn) ?? quotable.find((t) => t.address !== tokenIn)?.address;
  tokenOptions(tokenInSelect, chain, tokenIn);
  tokenOptions(tokenOutSelect, chain, tokenOut);
}

async function loadCatalogue(): Promise<void> {
  try {
    [chains, dexes] = await Promise.all([call<Chain[]>('/blockchains'), call<Dex[]>('/blockchains/dex')]);
  } catch (error) {
    showError(`The catalogue could not be loaded: ${(error as Error).message}`);
    return;
  }
  // Only chains with a DEX and pool state can be quoted; the note names the others and how to add them.
  const hasDex = (c: Chain) => dexes.some((d) => d.chainId === c.chainId);
  const label = (c: Chain) => `${c.name} (${c.chainId})`;
  const unseeded = chains.filter((c) => hasDex(c) && !c.hasPoolState);
  const noDex = chains.filter((c) => !hasDex(c));
  const note: string[] = [];
  if (unseeded.length > 0)
    note.push(
      `Not offered, no pool state yet: ${unseeded.map(label).join(', ')}. Give a chain its pool state with a seeding run, ` +
        '`RPC_URL_<chainId>=<endpoint> npm run seed -- --chain <slug>` (docs/snapshots-and-following.md); ' +
        'the running server picks the snapshot up.',
    );
  if (noDex.length > 0) note.push(`No DEX, cannot be quoted: ${noDex.map(label).join(', ')}.`);
  chainNote.textContent = note.join(' ');
  chainNote.hidden = note.length === 0;
  chains = chains.filter((c) => hasDex(c) && c.hasPoolState);
  if (chains.length === 0) {
    chainSelect.replaceChildren(el('option', {}, 'No chain can be quoted'));
    return;
  }
  chainSelect.replaceChildren(...chains.map((c) => el('option', { value: c.chainId }, `${c.name} (${c.chainId})`)));
  if (chains.some((c) => c.chainId === PREFERRED_CHAIN)) chainSelect.value = String(PREFERRED_CHAIN);
  fillTokens();
  for (const control of [chainSelect, tokenInSelect, tokenOutSelect, flipButton, quoteButton]) control.disabled = false;
}

function dexName(chainId: number) {
  return (slug: string, version: string): string =>
    dexes.find((d) => d.chainId === chainId && d.slug === slug && d.version === version)?.name ?? `${slug} ${version}`;
}

/** The request body from the form: what the person typed, so the API judges it (an invalid amount gets the API's 400). */
function requestBody(chain: Chain): Record<string, unknown> {
  const body: Record<string, unknown> = {
    originChainId: chain.chainId,
    destinationChainId: chain.chainId,
    tokenIn: tokenInSelect.value,
    tokenOut: tokenOutSelect.value,
    amount: amountInput.value,
    recipientAddress: recipientInput.value.trim() || DEFAULT_RECIPIENT,
  };
  // Exact input is the API's default; only exact output is sent.
  if (tradeTypeSelect.value === 'exactOut') body.tradeType = 'exactOut';
  const slippage = slippageInput.value.trim();
  if (slippage !== '') body.slippageBps = /^-?\d+$/.test(slippage) ? Number(slippage) : slippage;
  const maxImpact = maxImpactInput.value.trim();
  if (maxImpact !== '') body.maxPriceImpactBps = /^-?\d+$/.test(maxImpact) ? Number(maxImpact) : maxImpact;
  return body;
}

function drawPath(path: PathDrawing): HTMLElement {
  const first = path.hops[0];
  const row = el('div', {
    class: 'path',
    'data-percent': path.percent,
    'data-amount-in': path.amountIn,
    'data-amount-out': path.amountOut,
  });
  row.append(el('span', { class: 'percent', title: `${path.amountInLabel} → ${path.amountOutLabel}` }, percentLabel(path.percent)));
  if (first) row.append(el('span', { class: 'token' }, first.tokenInSymbol));
  for (const hop of path.hops) {
    row.append(
      el('span', { class: 'arrow', 'aria-hidden': 'true' }, '→'),
      el(
        'span',
        {
          class: 'hop',
          'data-dex': hop.dex,
          'data-version': hop.version,
          'data-fee': hop.fee,
          'data-pool': hop.pool,
          'data-token-in': hop.tokenIn,
          'data-token-out': hop.tokenOut,
          'data-amount-in': hop.amountIn,
          'data-amount-out': hop.amountOut,
          title: `pool ${hop.pool}`,
        },
        el('span', { class: 'hop-dex' }, hop.dexName),
        el('span', { class: 'hop-fee' }, hop.feeLabel),
        el('span', { class: 'hop-amounts' }, `${hop.amountInLabel} → ${hop.amountOutLabel}`),
      ),
      el('span', { class: 'arrow', 'aria-hidden': 'true' }, '→'),
      el('span', { class: 'token' }, hop.tokenOutSymbol),
    );
  }
  return row;
}

function fact(term: string, value: string, attributes: Record<string, string | number> = {}): HTMLElement[] {
  return [el('dt', {}, term), el('dd', attributes, value)];
}

function render(chain: Chain, body: unknown, quotes: ApiRouteQuote[]): void {
  const best = quotes[0];
  if (!best) {
    showError('The API returned no route.');
    return;
  }
  const token = (address: string) => chain.tokens.find((t) => t.address.toLowerCase() === address.toLowerCase());
  const names = dexName(chain.chainId);
  byId('best-summary').textContent =
    `${amountLabel(best.amountIn, best.tokenIn)} → ${amountLabel(best.amountOut, best.tokenOut)} · ${best.route.name}`;
  byId('route-drawing').replaceChildren(...drawRoute(best, token, names).map(drawPath));
  const warnings = byId('warnings');
  warnings.replaceChildren(...best.warnings.map((w) => el('li', { 'data-warning-code': w.code }, w.message)));
  warnings.hidden = best.warnings.length === 0;
  const exactOut = best.tradeType === 'exactOut';
  const slippage = `${bpsLabel(best.slippageBps)} slippage`;
  const facts: HTMLElement[] = [
    ...fact('Amount in', amountLabel(best.amountIn, best.tokenIn), { 'data-amount-in': best.amountIn }),
    ...fact('Amount out', amountLabel(best.amountOut, best.tokenOut), { 'data-amount-out': best.amountOut }),
    ...(exactOut
      ? fact(`Maximum in (${slippage})`, amountLabel(best.amountInMaximum ?? best.amountIn, best.tokenIn))
      : fact(`Minimum out (${slippage})`, amountLabel(best.amountOutMinimum, best.tokenOut))),
    ...fact('LP fees', feesLabel(best, drawRoute(best, token, names))),
  ];
  if (best.priceImpactBps !== undefined)
    facts.push(...fact('Price impact', bpsLabel(best.priceImpactBps), { 'data-price-impact-bps': best.priceImpactBps }));
  if (best.gasEstimate !== undefined)
    facts.push(...fact('Gas estimate', `${groupThousands(best.gasEstimate)} gas`, { 'data-gas-estimate': best.gasEstimate }));
  if (best.networkFee !== undefined) {
    const inTokenOut = best.networkFee.inTokenOut === null ? '' : ` ≈ ${amountLabel(best.networkFee.inTokenOut, best.tokenOut)}`;
    const native = token(NATIVE) ?? { address: NATIVE, symbol: 'wei', decimals: 0 };
    facts.push(
      ...fact('Network fee', `${amountLabel(best.networkFee.wei, native)}${inTokenOut}`, { 'data-network-fee-wei': best.networkFee.wei }),
    );
  }
  facts.push(
    ...(best.snapshot
      ? fact('Snapshot', `block ${best.snapshot.blockNumber}, ${best.snapshot.ageSeconds} s old`, {
          'data-block-number': best.snapshot.blockNumber,
          'data-age-seconds': best.snapshot.ageSeconds,
        })
      : fact('Snapshot', 'none')),
  );
  byId('best-facts').replaceChildren(...facts);
  byId('limit-header').textContent = exactOut ? 'Maximum in' : 'Minimum out';
  byId('dex-results')
    .querySelector('tbody')!
    .replaceChildren(
      ...quotes.map((q, i) =>
        el(
          'tr',
          { class: i === 0 ? 'best' : '', 'data-dex': q.route.dex, 'data-version': q.route.version, 'data-amount-out': q.amountOut },
          el('td', {}, q.route.name),
          el('td', {}, q.route.dex === 'wrap' ? 'wrap' : names(q.route.dex, q.route.version)),
          el('td', {}, feesLabel(q, drawRoute(q, token, names))),
          el('td', { class: 'num' }, amountLabel(q.amountIn, q.tokenIn)),
          el('td', { class: 'num' }, amountLabel(q.amountOut, q.tokenOut)),
          el(
            'td',
            { class: 'num' },
            exactOut ? amountLabel(q.amountInMaximum ?? q.amountIn, q.tokenIn) : amountLabel(q.amountOutMinimum, q.tokenOut),
          ),
          el('td', { class: 'num' }, q.priceImpactBps === undefined ? '—' : bpsLabel(q.priceImpactBps)),
          el('td', { class: 'num' }, q.gasEstimate === undefined ? '—' : groupThousands(q.gasEstimate)),
        ),
      ),
    );
  byId('raw').textContent = `POST /quotes/routes\n${JSON.stringify(body, null, 2)}\n\n${JSON.stringify(quotes, null, 2)}`;
  result.hidden = false;
}

let latest = 0;
async function quote(): Promise<void> {
  const chain = currentChain();
  if (!chain) return;
  const mine = ++latest;
  errorBox.hidden = true;
  quoteButton.disabled = true;
  quoteButton.textContent = 'Quoting…';
  const body = requestBody(chain);
  try {
    const quotes = await call<ApiRouteQuote[]>('/quotes/routes', body);
    if (mine === latest) render(chain, body, quotes);
  } catch (error) {
    if (mine === latest) {
      result.hidden = true;
      showError((error as Error).message);
    }
  } finally {
    if (mine === latest) {
      quoteButton.disabled = false;
      quoteButton.textContent = 'Quote';
    }
  }
}

/** Shows a quote's simulation: per step its result, gas used and the gas limit the quote now carries. */
function renderSimulation(chain: Chain, quote: ApiQuote): void {
  const sim = quote.simulation;
  const token = (address: string) => chain.tokens.find((t) => t.address.toLowerCase() === address.toLowerCase());
  const outcome = sim.success
    ? `every step succeeds; the recipient receives ${sim.simulatedAmountOut === null ? '(not observed)' : amountLabel(sim.simulatedAmountOut, quote.tokenOut)}`
    : `step ${sim.steps.findIndex((s) => s.status === 'reverted') + 1} reverts`;
  const summary = byId('simulation-summary');
  summary.textContent = `Quote ${quote.quoteId}, simulated at block ${sim.blockNumber} (${sim.method}): ${outcome} (quoted ${amountLabel(quote.amountOut, quote.tokenOut)}).`;
  summary.setAttribute('data-quote-id', quote.quoteId);
  summary.setAttribute('data-success', String(sim.success));
  summary.setAttribute('data-simulated-amount-out', sim.simulatedAmountOut ?? '');
  byId('simulation-steps')
    .querySelector('tbody')!
    .replaceChildren(
      ...sim.steps.map((step) =>
        el(
          'tr',
          {
            'data-status': step.status,
            'data-gas-used': step.gasUsed ?? '',
            'data-gas-limit': step.gasLimit ?? '',
            'data-reason': step.revert?.reason ?? '',
          },
          el('td', {}, step.message),
          el('td', { class: `reason step-${step.status}` }, step.revert ? `reverted: ${step.revert.reason}` : step.status),
          el('td', { class: 'num' }, step.gasUsed === null ? '—' : groupThousands(step.gasUsed)),
          el('td', { class: 'num' }, step.gasLimit === null ? '—' : groupThousands(step.gasLimit)),
        ),
      ),
    );
  const given = sim.overrides.map((o) => `${o.kind} of ${amountLabel(o.value, token(o.token))}`);
  const notes = [...(given.length > 0 ? [`Given to the sender for the simulation: ${given.join(', ')}.`] : []), ...sim.notes];
  const notesBox = byId('simulation-notes');
  notesBox.textContent = notes.join(' ');
  notesBox.hidden = notes.length === 0;
  simulationBox.hidden = false;
}

async function simulate(): Promise<void> {
  const chain = currentChain();
  if (!chain) return;
  simulateError.hidden = true;
  simulationBox.hidden = true;
  simulateButton.disabled = true;
  simulateButton.textContent = 'Simulating…';
  try {
    const body = { ...requestBody(chain), sender: senderInput.value.trim(), simulate: true };
    const quote = await call<ApiQuote>('/quotes', body, apiKeyInput.value.trim());
    renderSimulation(chain, quote);
    statusQuoteId.value = quote.quoteId;
  } catch (error) {
    simulateError.textContent = (error as Error).message;
    simulateError.hidden = false;
  } finally {
    simulateButton.disabled = false;
    simulateButton.textContent = 'Simulate';
  }
}

/** Shows what GET /quotes/{quoteId}/status says of a transaction. */
async function checkStatus(): Promise<void> {
  statusError.hidden = true;
  statusFacts.hidden = true;
  statusButton.disabled = true;
  try {
    const id = encodeURIComponent(statusQuoteId.value.trim());
    const hash = encodeURIComponent(txHashInput.value.trim());
    const s = await call<TxStatus>(`/quotes/${id}/status?txHash=${hash}`, undefined, apiKeyInput.value.trim());
    const dash = (value: string | number | null) => (value === null ? '—' : String(value));
    statusFacts.replaceChildren(
      ...fact('Status', s.status, { 'data-status': s.status }),
      ...fact('Step', s.step === null ? '—' : String(s.step + 1), { 'data-step': dash(s.step) }),
      ...fact('Block', dash(s.blockNumber), { 'data-block-number': dash(s.blockNumber) }),
      ...fact('Gas used', s.gasUsed === null ? '—' : groupThousands(s.gasUsed), { 'data-gas-used': dash(s.gasUsed) }),
      ...fact('Received', dash(s.amountReceived), { 'data-amount-received': dash(s.amountReceived) }),
      ...fact('Quoted amount out', s.amountOut, { 'data-amount-out': s.amountOut }),
      ...fact('Realized slippage', s.realizedSlippageBps === null ? '—' : bpsLabel(s.realizedSlippageBps), {
        'data-realized-slippage-bps': dash(s.realizedSlippageBps),
      }),
    );
    statusFacts.hidden = false;
  } catch (error) {
    statusError.textContent = (error as Error).message;
    statusError.hidden = false;
  } finally {
    statusButton.disabled = false;
  }
}

simulateButton.addEventListener('click', () => void simulate());
statusForm.addEventListener('submit', (event) => {
  event.preventDefault();
  void checkStatus();
});
chainSelect.addEventListener('change', fillTokens);
tradeTypeSelect.addEventListener('change', () => {
  amountLabelText.textContent = tradeTypeSelect.value === 'exactOut' ? 'Amount out' : 'Amount in';
});
flipButton.addEventListener('click', () => {
  const tokenIn = tokenInSelect.value;
  tokenInSelect.value = tokenOutSelect.value;
  tokenOutSelect.value = tokenIn;
});
form.addEventListener('submit', (event) => {
  event.preventDefault();
  void quote();
});
void loadCatalogue();
