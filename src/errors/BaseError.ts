/** Options shared by every error of the service. */
export interface BaseErrorOptions {
  /** Extra structured detail, logged; sent to the client only when the error is exposed. */
  readonly details?: Readonly<Record<string, unknown>>;
  readonly cause?: unknown;
}

/**
 * Root of the service's error tree. Each subclass fixes its `name`, a stable `code` and its HTTP
 * `status`; `expose` says whether `message` may be shown to the client (4xx) or must be replaced
 * by a generic text (5xx). Domain code throws these; only the error middleware turns them into
 * responses.
 */
export abstract class BaseError extends Error {
  abstract override readonly name: string;
  abstract readonly code: string;
  abstract readonly status: number;
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(message: string, options: BaseErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.details = options.details;
  }

  /** Client errors carry their message to the client; server errors do not. */
  get expose(): boolean {
    return this.status < 500;
  }
}

/** The request is malformed or names something the service does not have (400). */
export class ValidationError extends BaseError {
  override readonly name = 'ValidationError';
  readonly code = 'INVALID_REQUEST';
  readonly status = 400;
}

/** The request is valid but no acceptable quote exists for it (400, SPEC: quote unavailable). */
export class QuoteUnavailableError extends BaseError {
  override readonly name = 'QuoteUnavailableError';
  readonly status = 400;
  constructor(
    readonly code: 'NO_POOL' | 'INSUFFICIENT_LIQUIDITY' | 'NO_ROUTE' | 'AMOUNT_TOO_SMALL' | 'AMOUNT_OUT_OF_RANGE' | 'PRICE_IMPACT_TOO_HIGH',
    message: string,
    options?: BaseErrorOptions,
  ) {
    super(message, options);
  }
}

/** Missing or invalid API key (401). */
export class UnauthorizedError extends BaseError {
  override readonly name = 'UnauthorizedError';
  readonly code = 'UNAUTHORIZED';
  readonly status = 401;
}

/** The resource does not exist, or not for this caller (404). */
export class NotFoundError extends BaseError {
  override readonly name = 'NotFoundError';
  readonly code = 'NOT_FOUND';
  readonly status = 404;
}

/** The request body is larger than the configured limit (413). */
export class PayloadTooLargeError extends BaseError {
  override readonly name = 'PayloadTooLargeError';
  readonly code = 'PAYLOAD_TOO_LARGE';
  readonly status = 413;
}

/** The client exceeded its rate limit, or the pricing queue is full (429). */
export class RateLimitedError extends BaseError {
  override readonly name = 'RateLimitedError';
  readonly code = 'RATE_LIMITED';
  readonly status = 429;
  constructor(
    message: string,
    /** Seconds after which a retry may succeed (Retry-After header). */
    readonly retryAfterSeconds: number,
    options?: BaseErrorOptions,
  ) {
    super(message, options);
  }
}

/** A dependency (store, workers) cannot serve right now; the client may retry (503). */
export class ServiceUnavailableError extends BaseError {
  override readonly name = 'ServiceUnavailableError';
  readonly code = 'SERVICE_UNAVAILABLE';
  readonly status = 503;
  override get expose(): boolean {
    return true;
  }
}

/** Anything unexpected (500). The message is logged, never sent. */
export class InternalError extends BaseError {
  override readonly name = 'InternalError';
  readonly code = 'INTERNAL';
  readonly status = 500;
}
