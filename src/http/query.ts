import { ValidationError } from '../errors/BaseError.ts';
import { CHAIN_ID_SCHEMA } from './formats.ts';

/** The first value of a query parameter (Koa gives an array when it is repeated). */
export function queryValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Parses an optional `chainId` query value: absent is undefined; otherwise 1 to 16 digits without a sign, exponent or
 * leading zero, within CHAIN_ID_SCHEMA (what the OpenAPI document says), or a 400 naming the field. An empty value is
 * not absent: `?chainId=` is a 400, not "every chain".
 */
export function parseChainIdQuery(value: string | string[] | undefined): number | undefined {
  const raw = queryValue(value);
  if (raw === undefined) return undefined;
  if (!/^[1-9]\d{0,15}$/.test(raw) || Number(raw) > CHAIN_ID_SCHEMA.maximum) {
    throw new ValidationError('chainId: must be a positive integer');
  }
  return Number(raw);
}
