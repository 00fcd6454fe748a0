import { Ajv } from 'ajv';

/**
 * The one place the service's JSON-schema validators get their ajv options (catalogue, token lists, snapshots,
 * quote requests). `code.optimize: false` skips ajv's optimisation pass over the generated source: the validator
 * makes the same checks in the same order and reports the same error objects, and compiling costs about a third
 * less CPU, paid by every process that starts (server, workers, seeding, follower, each test file).
 * `allErrors`: report every error (request and catalogue messages list them all) or stop at the first.
 */
export function newAjv(allErrors: boolean): Ajv {
  return new Ajv({ allErrors, strict: false, code: { optimize: false } });
}
