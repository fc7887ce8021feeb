/** The save operation against a real sandbox: outcomes, what it sends, and how many requests it costs. */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, Sandbox } from '../../../src/sandbox/server';
import { createHttp, RequestLog } from '../../../src/api/http';
import { OmsClient } from '../../../src/api/client';
import { kind } from '../../../src/model/kinds';
import { newObject } from '../../../src/model/templates';
import type { BaseInfo } from '../../../src/model/types';
import { documentText } from '../../../src/save/documentForm';
import { saveObject } from '../../../src/save/saveObject';
import { Connection } from '../../../src/connection/connection';

let sb: Sandbox;
let client: OmsClient;
let requests: RequestLog[] = [];
const site = kind('engageSite');

before(async () => {
  sb = await startSandbox({ port: 0, seed: 'demo' });
  client = new OmsClient(createHttp({ baseUrl: sb.url, token: () => sb.token, log: (e) => requests.push(e) }));
});
after(() => sb.close());

async function firstSite(): Promise<{ folderKey: string; object: BaseInfo & { Key: string } }> {
  const folderKey = sb.instanceKey;
  const [object] = (await client.list(site, folderKey)).items;
  return { folderKey, object: object as BaseInfo & { Key: string } };
}

const methods = () => requests.map((r) => r.method).join(' ');

test('saved: one GET before, the PUT, one GET after; the outcome holds the server object and the one it replaced', async () => {
  const { folderKey, object } = await firstSite();
  requests = [];
  const text = documentText({ ...object, Tags: ['saved-by-test'] });
  const outcome = await saveObject(client, { kind: site, folderKey, key: object.Key }, text, object.ConcurrencyVersion ?? null);
  assert.equal(outcome.status, 'saved');
  assert.equal(methods(), 'GET PUT GET');
  if (outcome.status !== 'saved') return;
  assert.deepEqual(outcome.object.Tags, ['saved-by-test']);
  assert.equal(outcome.object.ConcurrencyVersion, (object.ConcurrencyVersion ?? 0) + 1);
  assert.deepEqual(outcome.replaced, object);
  assert.equal(documentText(outcome.object), text, 'the text the user saved is what the server now holds');
});

test('conflict: the server moved on since the base version; nothing is written; overwrite sends it', async () => {
  const { folderKey, object } = await firstSite();
  const stale = (object.ConcurrencyVersion ?? 0) - 1;
  requests = [];
  const outcome = await saveObject(client, { kind: site, folderKey, key: object.Key }, { ...object, CommonName: 'mine' }, stale);
  assert.equal(outcome.status, 'conflict');
  assert.equal(methods(), 'GET');
  if (outcome.status === 'conflict') assert.equal(outcome.server.ConcurrencyVersion, object.ConcurrencyVersion);
  const forced = await saveObject(client, { kind: site, folderKey, key: object.Key }, { ...object, CommonName: 'mine' }, stale, { overwrite: true });
  assert.equal(forced.status, 'saved');
});

test('unchanged: an edit equal to the server copy sends nothing', async () => {
  const { folderKey, object } = await firstSite();
  requests = [];
  const outcome = await saveObject(client, { kind: site, folderKey, key: object.Key }, documentText(object), object.ConcurrencyVersion ?? null);
  assert.equal(outcome.status, 'unchanged');
  assert.equal(methods(), 'GET');
});

test('refused, typed: Notes, Key, schema and JSON problems; nothing is written', async () => {
  const { folderKey, object } = await firstSite();
  const at = { kind: site, folderKey, key: object.Key };
  const base = object.ConcurrencyVersion ?? null;
  requests = [];
  const notes = await saveObject(client, at, { ...object, Notes: [{ NoteText: 'typed' }] as never }, base);
  assert.equal(notes.status === 'refused' && notes.refusal.kind, 'notStored');
  assert.match(notes.status === 'refused' ? notes.refusal.message : '', /Add Note/);
  const key = await saveObject(client, at, { ...object, Key: '0123456789abcdef01234567' }, base);
  assert.equal(key.status === 'refused' && key.refusal.kind, 'identity');
  const schema = await saveObject(client, at, { ...object, Tags: 'not a list' as never }, base);
  assert.equal(schema.status === 'refused' && schema.refusal.kind, 'invalid');
  const json = await saveObject(client, at, '{ "CommonName": ', base);
  assert.equal(json.status === 'refused' && json.refusal.kind, 'invalid');
  assert.ok(!requests.some((r) => r.method !== 'GET'), `no write: ${methods()}`);
});

test('created: a draft without a Key POSTs once and returns the object with its Key', async () => {
  requests = [];
  const draft = newObject(site, 'Created by the save test');
  const outcome = await saveObject(client, { kind: site, folderKey: sb.instanceKey }, documentText(draft), null);
  assert.equal(outcome.status, 'saved');
  assert.equal(methods(), 'POST');
  if (outcome.status === 'saved') {
    assert.ok(outcome.created && outcome.object.Key);
    assert.equal(outcome.object.CommonName, 'Created by the save test');
  }
});

test('refused with the service reason: a deleted object and an expired sign-in say what to do', async () => {
  const { folderKey } = await firstSite();
  const gone = await saveObject(client, { kind: site, folderKey, key: 'ffffffffffffffffffffffff' }, documentText(newObject(site, 'x')), 1);
  assert.equal(gone.status === 'refused' && gone.refusal.kind, 'notFound');
  const signedOut = new OmsClient(createHttp({ baseUrl: sb.url, token: () => 'expired' }));
  const { object } = await firstSite();
  const auth = await saveObject(signedOut, { kind: site, folderKey, key: object.Key }, documentText(object), object.ConcurrencyVersion ?? null);
  assert.equal(auth.status === 'refused' && auth.refusal.kind, 'auth');
  assert.match(auth.status === 'refused' ? auth.refusal.message : '', /sign in/);
});

test('the object just read can be passed: no second GET before the PUT, and its version still decides a conflict', async () => {
  const { folderKey, object } = await firstSite();
  requests = [];
  const outcome = await saveObject(client, { kind: site, folderKey, key: object.Key }, { ...object, Tags: ['read-once'] }, object.ConcurrencyVersion ?? null, {
    current: object,
  });
  assert.equal(outcome.status, 'saved');
  assert.equal(methods(), 'PUT GET');
  requests = [];
  const stale = await saveObject(client, { kind: site, folderKey, key: object.Key }, { ...object, Tags: ['stale'] }, object.ConcurrencyVersion ?? null, {
    current: outcome.status === 'saved' ? outcome.object : object,
  });
  assert.equal(stale.status, 'conflict');
  assert.equal(methods(), '', 'nothing sent, not even a read');
});

test("Notes of an older copy: refused from a user's text, set aside (the server keeps its own) for an edit built on that copy", async () => {
  const { folderKey, object } = await firstSite();
  const old = { ...object, Notes: [{ NoteText: 'a note the server does not have' }], Tags: ['restored'] } as BaseInfo;
  const refused = await saveObject(client, { kind: site, folderKey, key: object.Key }, old, object.ConcurrencyVersion ?? null);
  assert.equal(refused.status === 'refused' && refused.refusal.kind, 'notStored');
  const saved = await saveObject(client, { kind: site, folderKey, key: object.Key }, old, object.ConcurrencyVersion ?? null, { notStored: 'ignore' });
  assert.equal(saved.status, 'saved');
  if (saved.status === 'saved') {
    assert.deepEqual(saved.object.Tags, ['restored']);
    assert.deepEqual(saved.object.Notes ?? [], object.Notes ?? [], "the server's notes are kept");
  }
});

test('signed out, a save says so and that nothing was sent, not that the service refused the sign-in', async () => {
  const { folderKey, object } = await firstSite();
  const sent: RequestLog[] = [];
  const signedOut = new Connection(
    { id: 'c1', label: 'Sandbox', baseUrl: sb.url },
    {
      tokens: { get: () => Promise.resolve(undefined), set: () => Promise.resolve(), delete: () => Promise.resolve() },
      limits: () => ({}),
      askBeforeWrite: () => Promise.resolve(),
      log: (_label, e) => sent.push(e),
    },
  );
  const outcome = await saveObject(signedOut.client, { kind: site, folderKey, key: object.Key }, documentText(object), object.ConcurrencyVersion ?? null);
  assert.equal(outcome.status === 'refused' && outcome.refusal.kind, 'auth');
  const message = outcome.status === 'refused' ? outcome.refusal.message : '';
  assert.match(message, /^Not sent: you are signed out \(Not signed in to Sandbox\): sign in, then save again/);
  assert.doesNotMatch(message, /did not accept/);
  assert.equal(sent.length, 0, 'nothing reached the service');
});
