import Router from '@koa/router';
import type { Catalog } from '../catalog/Catalog.ts';
import { ServiceUnavailableError } from '../errors/BaseError.ts';
import { type LiveState, stateAgeSeconds } from '../graph/liveState.ts';
import type { PoolGraph } from '../graph/PoolGraph.ts';
import { sendData } from '../http/envelope.ts';
import { type Pricer, probeTask } from '../quote/Pricer.ts';
import type { ApiKeyStore } from '../store/apiKeyStore.ts';
import type { QuoteStore } from '../store/quoteStore.ts';

/** What readiness looks at; the quote-side checks apply only when their dependency is given. */
export interface ReadinessDeps {
  readonly catalog: Catalog;
  readonly graph: () => PoolGraph;
  /**
   * Probed with `probeWorkers()` when it has one (a task sent to a worker thread), else with a task
   * that prices nothing (chain 0) through `price()`.
   */
  readonly pricer?: Pick<Pricer, 'findTrades'> & { probeWorkers?(): Promise<unknown> };
  readonly store?: Pick<QuoteStore, 'ping' | 'kind'>;
  readonly keys?: Pick<ApiKeyStore, 'ping' | 'kind'>;
  /** Followed chains (FOLLOW=true): not ready while one's state is older than MAX_STATE_AGE_SECONDS. */
  readonly liveState?: LiveState;
  /** Whether the process has sent itself its warm-up requests (src/http/warmUpRequests.ts); not ready until then. */
  readonly warmedUp?: () => boolean;
  /** Longest a single check may take (default 2000 ms). */
  readonly timeoutMs?: number;
  /** How long the probes' answers (pricing worker, stores) are reused, so probes cannot load the workers (default 1000 ms). */
  readonly cacheMs?: number;
}

/** One readiness check's result. */
export interface CheckResult {
  ok: boolean;
  detail: string;
}

/** `data` of a 200 from GET /readyz. */
export interface Readiness {
  status: 'ready' | 'not ready';
  checks: Record<string, CheckResult>;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A failed check's result: the error's message. */
function failed(error: unknown): CheckResult {
  return { ok: false, detail: error instanceof Error ? error.message : String(error) };
}

async function check(run: () => Promise<string>, timeoutMs: number, what: string): Promise<CheckResult> {
  try {
    return { ok: true, detail: await withTimeout(run(), timeoutMs, what) };
  } catch (error) {
    return failed(error);
  }
}

/** The checks that ask another thread or process (a pricing worker, the stores): what /readyz reuses for cacheMs. */
function probeChecks(deps: ReadinessDeps, timeoutMs: number): Promise<Record<string, CheckResult>> {
  const pending: Record<string, Promise<CheckResult>> = {};
  const { pricer, store, keys } = deps;
  if (pricer) {
    pending.workers = check(
      async () => {
        if (pricer.probeWorkers) {
          await pricer.probeWorkers();
          return 'a pricing worker answered';
        }
        await pricer.findTrades(probeTask);
        return 'the pricer answered';
      },
      timeoutMs,
      'the pricing workers',
    );
  }
  const ping = (s: { ping(): Promise<boolean>; kind: string }, name: string) => async () => {
    if (!(await s.ping())) throw new Error(`${name} (${s.kind}) is unreachable`);
    return `${name} (${s.kind}) answers`;
  };
  if (store) pending.quoteStore = check(ping(store, 'quote store'), timeoutMs, 'the quote store');
  if (keys) pending.apiKeyStore = check(ping(keys, 'API key store'), timeoutMs, 'the API key store');
  return settled(pending);
}

async function settled(pending: Record<string, Promise<CheckResult>>): Promise<Record<string, CheckResult>> {
  const results: Record<string, CheckResult> = {};
  for (const [name, result] of Object.entries(pending)) results[name] = await result;
  return results;
}

/** A check read from this process's memory: cheap, so computed at every answer and never reused. */
function local(run: () => string): CheckResult {
  try {
    return { ok: true, detail: run() };
  } catch (error) {
    return failed(error);
  }
}

/**
 * Runs every readiness check: the probes in parallel (or takes `probes`, answers reused from an earlier call), the
 * catalogue, warm-up and followed chains' age as of now.
 */
export async function checkReadiness(
  deps: ReadinessDeps,
  probes: Promise<Record<string, CheckResult>> = probeChecks(deps, deps.timeoutMs ?? 2000),
): Promise<Readiness> {
  const checks: Record<string, CheckResult> = {};
  checks.catalog = local(() => {
    const chains = deps.catalog.chains.length;
    const snapshots = deps.graph().chainIds().length;
    if (chains === 0) throw new Error('the catalogue has no chain');
    const quotable = deps.catalog.chains.some((c) => c.ecosystem === 'evm' && c.dexes.length > 0);
    if (quotable && snapshots === 0) throw new Error(`${chains} chains loaded but no pool snapshot`);
    return `${chains} chains, ${snapshots} pool snapshots`;
  });
  Object.assign(checks, await probes);
  const { warmedUp } = deps;
  if (warmedUp) {
    checks.warmUp = local(() => {
      if (!warmedUp()) throw new Error('warming up: the first requests have not answered yet');
      return 'the warm-up requests answered';
    });
  }
  const live = deps.liveState;
  if (live) {
    checks.liveState = local(() => {
      const now = Date.now();
      const chains = live.chains().map(({ status: s }) => ({ s, age: stateAgeSeconds(s, now) }));
      const line = ({ s, age }: (typeof chains)[number]): string =>
        `chain ${s.chainId}: block ${s.appliedBlock} of ${s.headBlock} (${s.headBlock - s.appliedBlock} behind), current as of ${Number.isFinite(age) ? `${age.toFixed(1)} s ago` : 'never'}`;
      const stale = chains.filter((c) => !(c.age <= live.maxAgeSeconds));
      if (stale.length > 0) throw new Error(`${stale.map(line).join(', ')}: older than MAX_STATE_AGE_SECONDS=${live.maxAgeSeconds}`);
      return chains.length > 0 ? chains.map(line).join(', ') : 'no chain followed';
    });
  }
  const ready = Object.values(checks).every((c) => c.ok);
  return { status: ready ? 'ready' : 'not ready', checks };
}

/**
 * GET /healthz (liveness: the process answers) and GET /readyz (readiness: catalogue and snapshots
 * loaded, a pricing worker answers, the quote and API-key stores answer). /readyz is 200 with every
 * check's detail, or a 503 envelope whose message names each failing check.
 */
export function healthRouter(deps?: ReadinessDeps): Router {
  const router = new Router();
  router.get('/healthz', (ctx) => sendData(ctx, 'ok', { status: 'ok' }));
  if (!deps) return router;
  const cacheMs = deps.cacheMs ?? 1000;
  const timeoutMs = deps.timeoutMs ?? 2000;
  // Only the probes are reused: the age of a followed chain's state is read fresh at every answer, or a probe just
  // after a catch-up would be told the age measured before it (up to cacheMs earlier).
  let last: { at: number; probes: Promise<Record<string, CheckResult>> } | undefined;
  router.get('/readyz', async (ctx) => {
    const now = Date.now();
    if (!last || now - last.at >= cacheMs) last = { at: now, probes: probeChecks(deps, timeoutMs) };
    const readiness = await checkReadiness(deps, last.probes);
    if (readiness.status !== 'ready') {
      const failing = Object.entries(readiness.checks)
        .filter(([, c]) => !c.ok)
        .map(([name, c]) => `${name}: ${c.detail}`);
      throw new ServiceUnavailableError(`not ready: ${failing.join('; ')}`);
    }
    sendData(ctx, 'ready', readiness);
  });
  return router;
}
