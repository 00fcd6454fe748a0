import type { ApiKeyIdentity } from '../store/apiKeyRecords.ts';

/** What this app's middleware puts on `ctx.state` for the rest of a request (Koa's DefaultState is this, below). */
export interface AppState {
  /** The request id (requestBoundary): echoed in X-Request-Id, on every log line of the request. */
  reqId?: string;
  /** The caller's key id and organization when a valid key was sent (auth.ts); never the key itself. */
  apiKey?: ApiKeyIdentity;
}

/** The state of a route behind requireApiKey: the key is there. */
export interface KeyedState extends AppState {
  apiKey: ApiKeyIdentity;
}

declare module 'koa' {
  /** Koa's state for every context of this app. */
  interface DefaultState extends AppState {}
}
