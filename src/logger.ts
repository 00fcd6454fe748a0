import { type Logger, pino } from 'pino';
import type { LogLevel } from './config.ts';

/** Longest time (ms) a log line waits in the buffer before it is written. */
export const LOG_FLUSH_MS = 100;

/**
 * The service's JSON logger (pino), on stdout. Never given keys, RPC URLs or request headers.
 * Lines are written in batches: a write carries whole lines, at most 4 KB (so lines of processes sharing a pipe never
 * interleave), once about 4 KB are waiting or LOG_FLUSH_MS after the first one, and at exit; under load that is one
 * write per ~15 request lines instead of one per line. A process killed with SIGKILL loses what it had not written.
 */
export function createLogger(level: LogLevel): Logger {
  const destination = pino.destination({ dest: 1, sync: true, minLength: 4000, maxWrite: 4096, periodicFlush: LOG_FLUSH_MS });
  process.once('exit', () => destination.flushSync());
  return pino({ level, base: { service: 'swap-quote-service', pid: process.pid } }, destination);
}
