import { pino, type Logger } from 'pino';
import type { LogLevel } from './config.ts';

/**
 * The service's JSON logger (pino). Never given keys, RPC URLs or request headers. Lines go to stdout through an
 * asynchronous buffered destination: under load one write carries many request lines instead of a write call per
 * line, and pino flushes what is buffered when the process exits.
 */
export function createLogger(level: LogLevel): Logger {
  return pino({ level, base: { service: 'swap-quote-service' } }, pino.destination({ dest: 1, sync: false }));
}
