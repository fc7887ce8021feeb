import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withSandbox, sample } from './harness';

const pushType = 'Feenics.Keep.WebApi.Model.PushNotificationRequest, Feenics.Keep.WebApi.Model';

test('invite: a JSON string e-mail address is recorded in the outbox; anything else is 400', async () => {
  await withSandbox({ seed: 'empty' }, async (api) => {
    const site = (await api.post(`/api/f/${api.instanceKey}/engagesites`, sample('engageSite'))).body;
    const ok = await api.post(`${site.Href}/invite`, 'new.user@example.com');
    assert.equal(ok.status, 204, ok.text);
    assert.equal(ok.text, '');
    const outbox = (await api.get('/sandbox/outbox')).body;
    assert.equal(outbox.length, 1);
    assert.deepEqual({ ...outbox[0], at: 'x' }, { kind: 'invite', at: 'x', folderKey: api.instanceKey, objectKey: site.Key, body: 'new.user@example.com' });
    assert.ok(!Number.isNaN(Date.parse(outbox[0].at)));

    for (const bad of ['not an address', { email: 'a@example.com' }, 42, '']) {
      const res = await api.post(`${site.Href}/invite`, bad);
      assert.equal(res.status, 400, JSON.stringify(bad));
      assert.equal(typeof res.body.Message, 'string');
    }
    assert.equal((await api.post(`/api/f/${api.instanceKey}/engagesites/0123456789abcdef01234567/invite`, 'a@example.com')).status, 404);
    const scanner = (await api.post(`/api/f/${api.instanceKey}/inputscanners`, sample('inputScanner'))).body;
    assert.equal((await api.post(`${scanner.Href}/invite`, 'a@example.com')).status, 404, 'only kinds with the invite action');
    assert.equal((await api.get(`${site.Href}/invite`)).status, 405);
    assert.equal((await api.get('/sandbox/outbox')).body.length, 1);
  });
});

test('push notification: DELETE with a valid request body is recorded; invalid bodies are 400', async () => {
  await withSandbox({ seed: 'empty' }, async (api) => {
    const path = `/api/f/${api.instanceKey}/pushnotifications`;
    const request = {
      $type: pushType,
      Message: 'Fire drill at 10:00',
      MessageTemplateKey: null,
      PushNotificationType: 0,
      RecipientKeys: null,
      EventRecipientKeys: null,
      Subject: null,
    };
    const ok = await api.call('DELETE', path, { json: request });
    assert.equal(ok.status, 204, ok.text);
    const outbox = (await api.get('/sandbox/outbox')).body;
    assert.equal(outbox.length, 1);
    assert.equal(outbox[0].kind, 'push');
    assert.equal(outbox[0].folderKey, api.instanceKey);
    assert.deepEqual(outbox[0].body, request);

    const noMessage = await api.call('DELETE', path, { json: { ...request, Message: null } });
    assert.equal(noMessage.status, 400);
    assert.ok(Array.isArray(noMessage.body.Errors));
    const noType = await api.call('DELETE', path, { json: { ...request, PushNotificationType: undefined } });
    assert.equal(noType.status, 400);
    assert.ok(noType.body.Errors.some((e: { message: string }) => /PushNotificationType/.test(e.message)));
    assert.equal((await api.call('DELETE', path)).status, 400, 'a body is required');
    assert.equal((await api.call('DELETE', `/api/f/0123456789abcdef01234567/pushnotifications`, { json: request })).status, 404);

    assert.equal((await api.delete('/sandbox/outbox')).status, 204);
    assert.deepEqual((await api.get('/sandbox/outbox')).body, []);
    assert.equal((await api.get('/sandbox/outbox', { token: null })).status, 401);
    assert.equal((await api.call('PUT', '/sandbox/outbox', { json: [] })).status, 405);
  });
});
