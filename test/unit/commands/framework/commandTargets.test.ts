/**
 * How a command's target is resolved (commandTargets.ts), against a real sandbox: args that name an
 * object ask nothing; from the palette the pickers ask for the connection, kind, folder and object in
 * turn; a failure names the connection the command settled on, so its report offers Sign In for it.
 */
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
// First: the modules below import `vscode` at run time.
import { answers, executed, shown } from '../../fs/vscodeShim';
import { startSandbox, Sandbox } from '../../../../src/sandbox/server';
import { createHttp } from '../../../../src/api/http';
import { OmsClient } from '../../../../src/api/client';
import { kind } from '../../../../src/model/kinds';
import type { Connection } from '../../../../src/connection/connection';
import type { Services } from '../../../../src/commands/framework/command';
import { folderTarget, objectTarget, targeted } from '../../../../src/commands/framework/commandTargets';
import { runCommand } from '../../../../src/commands/framework/runCommand';

let sb: Sandbox;
let s: Services;
let good: Connection;
let refused: Connection;

/** A connection to the sandbox; `token` decides whether the service takes its requests. */
function connection(id: string, label: string, token: () => string): Connection {
  const client = new OmsClient(createHttp({ baseUrl: sb.url, token }));
  return { id, info: { label, baseUrl: sb.url }, client, rootFolderKey: () => Promise.resolve(sb.instanceKey) } as unknown as Connection;
}

before(async () => {
  sb = await startSandbox({ port: 0, seed: 'demo' });
  good = connection('good', 'Sandbox', () => sb.token);
  refused = connection('refused', 'Expired token', () => 'not-the-token');
  const all = [good, refused];
  const byId = (id: string) => all.find((c) => c.id === id);
  s = {
    connections: {
      all: () => all,
      get: byId,
      active: undefined,
      require: (id: string) =>
        byId(id) ??
        (() => {
          throw new Error(`no connection ${id}`);
        })(),
    },
    context: { extension: { packageJSON: { contributes: { commands: [{ command: 'oms.test', title: 'Test Command' }] } } } },
  } as unknown as Services;
});
after(() => sb.close());
beforeEach(() => {
  shown.length = 0;
  executed.length = 0;
  answers.picks = [];
  answers.errorAction = undefined;
});

const scanners = kind('inputScanner');

test('args that name an object resolve without a question; an object of another kind is refused', async () => {
  const args = { connectionId: 'good', folderKey: sb.instanceKey, kind: 'inputScanner', key: 'k1', name: 'Door 1' };
  const t = await objectTarget(s, 'inputScanner', args);
  assert.equal(t.connection, good);
  assert.deepEqual(
    { folderKey: t.folderKey, kind: t.kind.id, key: t.key, name: t.name },
    { folderKey: sb.instanceKey, kind: 'inputScanner', key: 'k1', name: 'Door 1' },
  );
  await assert.rejects(objectTarget(s, 'engageSite', args), /works on engage sites/);
  assert.deepEqual(shown, []);
});

test('from the palette the connection, kind, folder and object are asked in turn', async () => {
  const warehouse = (await good.client.listAll(kind('folder'), sb.instanceKey)).find((f) => f.CommonName === 'Warehouse');
  const [scanner] = await good.client.listAll(scanners, warehouse?.Key ?? '');
  answers.picks = [/^Sandbox$/, /^Input scanners$/, /Warehouse/, new RegExp(`^${scanner.CommonName}$`)];
  const t = await objectTarget(s, undefined, undefined);
  assert.equal(t.connection, good);
  assert.deepEqual({ folderKey: t.folderKey, kind: t.kind.id, key: t.key }, { folderKey: warehouse?.Key, kind: 'inputScanner', key: scanner.Key });
  assert.deepEqual(
    shown.map((m) => m.text),
    ['Connection', 'Kind of object', 'Folder (in root folder)', 'Input scanner'],
  );
});

test('a failure while the folder is asked, after the connection was picked, offers Sign In for that connection', async () => {
  answers.picks = [/^Expired token$/];
  answers.errorAction = 'Sign In';
  const command = targeted({ id: 'oms.test', target: folderTarget, run: () => assert.fail('ran without a target') });
  await runCommand(s, command, []);
  const report = shown.find((m) => m.kind === 'error');
  assert.ok(report?.text.startsWith('"Test Command" failed'), JSON.stringify(shown));
  assert.ok(report?.actions.includes('Sign In'), JSON.stringify(report));
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(executed, [{ id: 'oms.signIn', args: ['refused'] }]);
});

test('a failure while the command runs names the connection of its target (picked, not named by the arguments)', async () => {
  answers.picks = [/^Sandbox$/, /Use root folder/];
  answers.errorAction = 'Sign In';
  // The service refuses the token only once the target is resolved, as when a token expires mid-command.
  const command = targeted({ id: 'oms.test', target: folderTarget, run: (_s, { folderKey }) => refused.client.listAll(scanners, folderKey) });
  await runCommand(s, command, []);
  const report = shown.find((m) => m.kind === 'error');
  assert.ok(report?.actions.includes('Sign In'), JSON.stringify(shown));
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(executed, [{ id: 'oms.signIn', args: ['good'] }]);
});
