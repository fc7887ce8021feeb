import { test } from 'node:test';
import assert from 'node:assert/strict';

import { ApiError } from '../../../../src/api/errors';
import { describeFailure, Failure, failureTitle, failWith, resultOf } from '../../../../src/commands/framework/failure';

test('the title names the command as the palette shows it', () => {
  assert.equal(failureTitle('Invite User to Engage Site…'), '"Invite User to Engage Site" failed');
  assert.equal(failureTitle('Refresh'), '"Refresh" failed');
});

test('a refused token offers Sign In only when the connection is known', () => {
  const refused = new ApiError('auth', 'Not signed in to Prod', 401);
  assert.deepEqual(describeFailure('Could not open object', refused, true), {
    message: 'Could not open object: Not signed in to Prod',
    actions: ['Sign In', 'Show Log'],
  });
  assert.deepEqual(describeFailure('Could not open object', refused, false).actions, ['Show Log']);
});

test('an unreachable service offers Retry; other failures only the log', () => {
  assert.deepEqual(describeFailure('T', new ApiError('network', 'connect ECONNREFUSED'), true).actions, ['Retry', 'Show Log']);
  assert.deepEqual(describeFailure('T', new ApiError('timeout', 'no answer in 30 s'), false).actions, ['Retry', 'Show Log']);
  assert.deepEqual(describeFailure('T', new ApiError('server', 'boom', 500), true).actions, ['Show Log']);
  assert.deepEqual(describeFailure('T', new Error('plain'), true).actions, ['Show Log']);
});

test('a Failure wrapping an ApiError is reported by its cause, with the fields the service named', () => {
  const cause = new ApiError('validation', 'Bad request', 400, 'POST', '/x', [{ pointer: '/Subject', message: 'too long' }]);
  const failure = new Failure('Bad request', { ok: false }, { cause });
  assert.deepEqual(describeFailure('Could not send push notification', failure, true), {
    message: 'Could not send push notification: Bad request (/Subject too long)',
    actions: ['Show Log'],
  });
  const auth = new Failure('expired', { ok: false }, { cause: new ApiError('auth', 'expired', 401) });
  assert.deepEqual(describeFailure('T', auth, true).actions, ['Sign In', 'Show Log']);
});

test("a caller gets the Failure's result back, and nothing for any other error", async () => {
  const rejected = Promise.reject(new ApiError('server', 'Injected fault: status 500', 500));
  const thrown = await rejected
    .then(
      undefined,
      failWith((e) => ({ ok: false, status: (e as ApiError).status })),
    )
    .catch((e: unknown) => e);
  assert.ok(thrown instanceof Failure);
  assert.equal(thrown.message, 'Injected fault: status 500');
  assert.deepEqual(resultOf(thrown), { ok: false, status: 500 });
  assert.equal(resultOf(new Error('x')), undefined);
});
