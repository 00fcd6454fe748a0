import { BaseError } from '../errors/BaseError.ts';

/**
 * Step-building parameters that the quote layer should never have produced (an unknown router kind, a missing
 * router address, a bad amount). A server fault (500): the request was validated before steps are built.
 */
export class StepBuildError extends BaseError {
  override readonly name = 'StepBuildError';
  readonly code = 'STEP_BUILD_FAILED';
  readonly status = 500;
}
