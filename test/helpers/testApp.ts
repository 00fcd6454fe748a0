import { fileURLToPath } from 'node:url';
import type Koa from 'koa';
import { inject } from 'light-my-request';
import { pino } from 'pino';
import { type AppDeps, createApp } from '../../src/app.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { loadConfig } from '../../src/config.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { loadSnapshots } from '../../src/graph/snapshot.ts';
import type { Envelope } from '../../src/http/envelope.ts';

export const fixtureCatalogDir = fileURLToPath(new URL('../fixtures/catalog', import.meta.url));
export const fixtureSnapshotDir = fileURLToPath(new URL('../fixtures/snapshots', import.meta.url));

/** The SPEC envelope of an answer with data (success), as a test expects it. */
export type Answer<T> = Required<Envelope<T>>;

/** A response as the tests read it; `B` is the JSON body's type as the caller expects it (the SPEC envelope, mostly). */
export interface TestResponse<B = unknown> {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  /** Parsed JSON body (undefined when the body is empty or not JSON). */
  body: B;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Raw payload sent as is (overrides body). */
  payload?: string;
  headers?: Record<string, string>;
}

/** Sends one request into a Koa app's callback, without a socket. */
export async function request<B = unknown>(app: Koa, method: string, url: string, options: RequestOptions = {}): Promise<TestResponse<B>> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  let payload = options.payload;
  if (payload === undefined && options.body !== undefined) {
    payload = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await inject(app.callback(), { method: method as 'GET', url, payload, headers });
  let body: unknown;
  try {
    body = res.body ? JSON.parse(res.body) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.statusCode, headers: res.headers, body: body as B, text: res.body };
}

/** Builds the app over the fixture catalogue and snapshots (or the given folders), with a silent logger. */
export function buildTestApp(
  options: { catalogDir?: string; snapshotDir?: string; env?: NodeJS.ProcessEnv; deps?: Partial<AppDeps> } = {},
) {
  const catalogDir = options.catalogDir ?? fixtureCatalogDir;
  const snapshotDir = options.snapshotDir ?? fixtureSnapshotDir;
  const config = loadConfig({
    CATALOG_DIR: catalogDir,
    SNAPSHOT_DIR: snapshotDir,
    SHIPPED_SNAPSHOT_DIR: 'none',
    LOG_LEVEL: 'silent',
    ...(options.env ?? {}),
  });
  const catalog = loadCatalog(config.catalogDir);
  const graph = new PoolGraph(loadSnapshots(config.snapshotDir).snapshots, catalog);
  const logger = pino({ level: 'silent' });
  const deps: AppDeps = { config, catalog, graph: () => graph, logger, ...(options.deps ?? {}) };
  const app = createApp(deps);
  return {
    app,
    deps,
    catalog,
    graph,
    request: <B = unknown>(method: string, url: string, o?: RequestOptions) => request<B>(app, method, url, o),
  };
}
