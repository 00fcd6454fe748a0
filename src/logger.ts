import { pino, type Logger } from 'pino';
import type { LogLevel } from './config.ts';

/** The service's JSON logger (pino). Never given keys, RPC URLs or request headers. */
export function createLogger(level: LogLevel): Logger {
  return pino({ level, base: { service: 'swap-quote-service', pid: process.pid } });
}
