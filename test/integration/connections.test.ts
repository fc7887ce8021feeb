/** Connections in the real host: the embedded sandbox, add/rename/remove, tokens bound to their origin. */
import * as assert from 'assert';
import * as http from 'http';
import * as vscode from 'vscode';
import type { TestApi } from '../../src/testApi';
import { childrenOf, label, rest, sandboxToken, sandboxUrl, services, waitFor } from './helpers';

let s: TestApi;

suite('connections', () => {
  suiteSetup(async () => {
    s = await services();
  });

  test('"Try the Local Sandbox" starts the embedded sandbox with demo data and connects to it', async () => {
    const id: string = await vscode.commands.executeCommand('oms.trySandbox');
    assert.strictEqual(id, 'local-sandbox');
    assert.strictEqual(s.connections.active?.id, id, 'it becomes the active connection');
    const node = (await s.tree.getChildren()).find((n) => label(n) === 'Local sandbox');
    assert.ok(node, 'a "Local sandbox" connection in the tree');
    const [root] = await childrenOf(node);
    assert.strictEqual(label(root), 'Demo Instance');
    const children = (await childrenOf(root)).map(label);
    assert.ok(children.includes('Head Office') && children.includes('Input scanners'), children.join(', '));
    const url = s.connections.get(id)!.info.baseUrl;
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.notStrictEqual(url, sandboxUrl, 'its own server, not the test sandbox');
    const data = vscode.Uri.joinPath(s.globalStorageUri, 'sandbox-data.json');
    // The data file is the sandbox's snapshot (one JSON document per line, see src/sandbox/store/journal.ts).
    const stored = Buffer.from(await vscode.workspace.fs.readFile(data)).toString('utf8');
    assert.ok(stored.includes('"CommonName":"Head Office"'), 'demo data persisted in global storage');
  });

  test('add, rename and remove a connection; the token is kept in SecretStorage only', async () => {
    const id: string = await vscode.commands.executeCommand('oms.addConnection', { label: 'Second', baseUrl: `${sandboxUrl}/`, token: sandboxToken });
    assert.ok(id);
    const info = s.connections.get(id)!.info;
    assert.strictEqual(info.baseUrl, sandboxUrl, 'trailing slash normalised');
    assert.ok(!JSON.stringify(s.connections.list()).includes(sandboxToken), 'token not in the connection definitions');
    const config = JSON.stringify(vscode.workspace.getConfiguration('oms'));
    assert.ok(!config.includes(sandboxToken), 'token not in settings');
    await vscode.commands.executeCommand('oms.renameConnection', id, 'Renamed');
    await waitFor('the renamed node', async () => (await s.tree.getChildren()).some((n) => label(n) === 'Renamed'));
    await vscode.commands.executeCommand('oms.removeConnection', id, true);
    assert.strictEqual(s.connections.get(id), undefined);
    assert.strictEqual(await s.storedTokens(id), undefined, 'its token is forgotten');
  });

  test('sign-in with user name and password; a refused access token is renewed with the refresh token', async () => {
    const id: string = await vscode.commands.executeCommand('oms.addConnection', { label: 'Password', baseUrl: sandboxUrl, token: 'placeholder-token' });
    try {
      const instance = (await rest('GET', '/api')).body;
      const ok = await vscode.commands.executeCommand('oms.signIn', id, {
        instance: instance.CommonName,
        user: 'admin',
        password: process.env.OMS_SANDBOX_PASSWORD,
      });
      assert.strictEqual(ok, true);
      const connection = s.connections.get(id)!;
      const tokens = await s.storedTokens(id);
      assert.ok(tokens?.refresh && tokens.expiresAt! > Date.now(), 'access and refresh token with an expiry');
      assert.strictEqual(s.connections.get(id)!.info.user, 'admin', 'user remembered for next time (never the password)');
      assert.ok(!JSON.stringify(s.connections.list()).includes('password'), 'no password in the definitions');
      // The server stops accepting the access token: the next call renews it and goes through.
      await s.revokeAccessToken(id);
      const revoked = await s.storedTokens(id);
      assert.strictEqual((await connection.client.instance()).Key, instance.Key);
      const renewed = await s.storedTokens(id);
      assert.notStrictEqual(renewed?.access, revoked?.access);
      assert.notStrictEqual(renewed?.refresh, tokens.refresh, 'the refresh token rotated');
      // A wrong password is refused with the server's reason, and the stored tokens stay as they were.
      assert.strictEqual(
        await vscode.commands.executeCommand('oms.signIn', id, { instance: instance.CommonName, user: 'admin', password: 'wrong' }),
        undefined,
      );
      assert.strictEqual((await s.storedTokens(id))?.access, renewed?.access);
    } finally {
      await s.connections.remove(id);
    }
  });

  test('a token is only sent to the origin it was entered for', async () => {
    const seen: Array<string | undefined> = [];
    const other = http.createServer((req, res) => {
      seen.push(req.headers.authorization);
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ Key: 'x', CommonName: 'Impostor' }));
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    const otherUrl = `http://127.0.0.1:${(other.address() as { port: number }).port}`;
    const id: string = await vscode.commands.executeCommand('oms.addConnection', { label: 'Moving', baseUrl: sandboxUrl, token: sandboxToken });
    try {
      const connection = s.connections.get(id)!;
      assert.strictEqual((await connection.client.instance()).Key, (await rest('GET', '/api')).body.Key);
      // The definition now points elsewhere (as an edited or forged definition would).
      await s.connections.update(id, { baseUrl: otherUrl });
      await assert.rejects(connection.client.instance(), /Not signed in/);
      assert.deepStrictEqual(seen, [], 'the other origin received no request carrying the token');
    } finally {
      await s.connections.remove(id);
      other.close();
    }
  });
});
