/**
 * The value formats the API accepts and returns, written once: request validation (quoteRequest.ts, query.ts,
 * the quote-id route) and the OpenAPI document (openApiDocument.ts) both read them, so they cannot disagree.
 * Patterns are JSON Schema / ECMAScript regular expressions, anchored.
 */

import { checksumAddress } from '../tx/checksumAddress.ts';

/**
 * An EVM address in any letter case (what viem's non-strict isAddress accepts). A request's address must also pass
 * hasValidChecksum, which a pattern cannot express.
 */
export const EVM_ADDRESS_PATTERN = '^0x[0-9a-fA-F]{40}$';

/** A token symbol as a request may send it instead of the address: 1 to 32 characters, no whitespace, no leading 0x. */
export const TOKEN_SYMBOL_PATTERN = '^(?!0[xX])\\S{1,32}$';

/** A request's token field: an EVM address or a token symbol. */
export const TOKEN_PATTERN = `^(${unanchored(EVM_ADDRESS_PATTERN)}|${unanchored(TOKEN_SYMBOL_PATTERN)})$`;

/**
 * Whether an address (EVM_ADDRESS_PATTERN) passes EIP-55: all-lowercase and all-uppercase hex carry no checksum and
 * pass; mixed case must be exactly the checksummed form, so a typo in a checksummed address is caught. (viem's strict
 * isAddress refuses all-uppercase hex, which EIP-55 leaves unchecksummed.)
 */
export function hasValidChecksum(address: string): boolean {
  const hex = address.slice(2);
  return hex === hex.toLowerCase() || hex === hex.toUpperCase() || checksumAddress(address) === address;
}

/** A non-negative integer in decimal, no sign, exponent or leading zero: token amounts in smallest units, wei. */
export const INTEGER_STRING_PATTERN = '^(0|[1-9][0-9]*)$';

/** A non-negative decimal in display units ("1.5"): no sign, exponent, spaces or leading zero. */
export const DECIMAL_AMOUNT_PATTERN = '^(0|[1-9][0-9]*)(\\.[0-9]+)?$';

/** A UUID in any letter case (saved quotes' ids are version 4, lower case). No groups: it is embedded in a route. */
export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/** Chain ids are positive integers up to 2^53 − 1 (JSON numbers that stay exact). */
export const CHAIN_ID_SCHEMA = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;

/** A pattern without its anchors, to embed in a larger expression. */
export function unanchored(pattern: string): string {
  return pattern.replace(/^\^/, '').replace(/\$$/, '');
}
