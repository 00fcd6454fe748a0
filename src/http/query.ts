import { ValidationError } from '../errors/BaseError.ts';

/** The first value of a query parameter (Koa gives an array when it is repeated). */
export function queryValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Parses an optional `chainId` query value: a positive safe integer, or a 400 naming the field. */
export function parseChainIdQuery(value: string | string[] | undefined): number | undefined {
  const raw = queryValue(value);
  if (raw === undefined || raw === '') return undefined;
  if (!/^[1-9]\d{0,15}$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    throw new ValidationError('chainId: must be a positive integer');
  }
  return Number(raw);
}
