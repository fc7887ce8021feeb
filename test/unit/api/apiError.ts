/** The ApiError a call is refused with; fails the test when it resolves or throws anything else. */
import assert from 'node:assert/strict';
import { ApiError } from '../../../src/api/errors';

export async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (e) {
    assert.ok(e instanceof ApiError, `expected ApiError, got ${String(e)}`);
    return e;
  }
  return assert.fail('expected a rejection');
}
