/**
 * Company networks in the real host: the extension's requests go through VS Code's
 * own network support (its patched fetch), so the proxy in `http.proxy` and the certificates VS Code
 * trusts apply with nothing of ours to configure. Sign in, browse and save once through a forwarding
 * proxy that counts what passes, once against the HTTPS sandbox with a private CA the system trusts
 * (the host is started with it: test/integration/host/run.ts); an untrusted certificate is one message.
 */
import * as assert from 'assert';
import { ChildProcess, spawn } from 'child_process';
import * as http from 'http';
import * as https from 'https';
import * as net from 'net';
import * as path from 'path';
import * as vscode from 'vscode';
import type { TestApi } from '../../src/testApi';
import type { ObjectNode } from '../../src/tree/nodes/objectNode';
import { makeCertificates } from '../unit/sandbox/certificates';
import { acceptTunnels } from '../unit/api/tunnel';
import { asShown, childrenOf, closeAllEditors, folderWith, label, nodeAt, sandboxUrl, services, setText, waitFor } from './helpers';

let s: TestApi;
const password = process.env.OMS_SANDBOX_PASSWORD ?? 'admin';

/**
 * Forwards every request it gets (plain, or in a CONNECT tunnel) to `target`, whatever host was asked
 * for; counts them. With `credentials` (user:password) it asks for them first (407), as a company proxy does.
 */
async function forwardingProxy(target: URL, credentials?: string): Promise<{ url: string; seen: string[]; tunnels: string[]; close: () => Promise<void> }> {
  const seen: string[] = [];
  const tunnels: string[] = [];
  const forward = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url!, `http://${req.headers.host}`);
    seen.push(`${req.method} ${url.host}${url.pathname}`);
    const out = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: url.pathname + url.search, headers: { ...req.headers, host: target.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  };
  // A tunnel's plain HTTP is read by a server of the proxy's own, so each request in it is counted too.
  const inner = http.createServer(forward);
  const proxy = http.createServer(forward);
  acceptTunnels(proxy, inner, credentials && `Basic ${Buffer.from(credentials).toString('base64')}`, (req) => tunnels.push(req.url!));
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(proxy.address() as net.AddressInfo).port}`,
    seen,
    tunnels,
    close: async () => {
      inner.closeAllConnections();
      proxy.closeAllConnections();
      await new Promise((r) => proxy.close(r));
    },
  };
}

/** Adds a connection, signs in with the password grant, opens the first input scanner from the tree, edits and saves it. */
async function signInBrowseSave(name: string, baseUrl: string, instanceName: string, sandboxPassword: string): Promise<{ id: string; put: ObjectNode }> {
  const id: string = await vscode.commands.executeCommand('oms.addConnection', { label: name, baseUrl, token: 'not-signed-in-yet' });
  assert.strictEqual(
    await vscode.commands.executeCommand('oms.signIn', id, { instance: instanceName, user: 'admin', password: sandboxPassword }),
    true,
    'signed in',
  );
  const folder = await folderWith('inputscanners');
  const node = (await childrenOf(await nodeAt(s, name, ...folder.names, 'Input scanners')))[0] as ObjectNode;
  const connection = s.connections.get(id)!;
  const before = await connection.client.get(node.kind, node.folderKey, node.object.Key!);
  await vscode.commands.executeCommand('oms.openObject', node);
  const doc = await waitFor('the document', () => vscode.workspace.textDocuments.find((d) => d.uri.toString() === node.uri.toString()));
  await vscode.window.showTextDocument(doc);
  const tag = `saved-via-${name.toLowerCase().replace(/\W+/g, '-')}`;
  await setText(doc, JSON.stringify({ ...asShown(before), Tags: [tag] }, null, 2) + '\n');
  assert.strictEqual(await vscode.commands.executeCommand('oms.save', doc.uri), true, 'saved');
  const after = await connection.client.get(node.kind, node.folderKey, node.object.Key!);
  assert.deepStrictEqual(after.Tags, [tag]);
  assert.strictEqual(after.ConcurrencyVersion, before.ConcurrencyVersion! + 1, 'one PUT');
  return { id, put: node };
}

async function setHttp(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('http').update(key, value, vscode.ConfigurationTarget.Global);
}

/** The project's sandbox command line, serving HTTPS with the given certificate; resolves with its URL. */
async function httpsSandbox(certFile: string, keyFile: string, token: string, sandboxPassword: string): Promise<{ url: string; child: ChildProcess }> {
  // The repository's build of the command line: the tests are bundled to out/integration/run-<pid>/ (host/run.ts).
  const entry = path.resolve(__dirname, '..', '..', '..', 'dist', 'sandbox.cjs');
  const child = spawn(process.execPath, [entry, '--port', '0', '--seed', 'demo', '--cert', certFile, '--key', keyFile], {
    env: { ...process.env, OMS_SANDBOX_TOKEN: token, OMS_SANDBOX_PASSWORD: sandboxPassword, ELECTRON_RUN_AS_NODE: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  child.stderr.on('data', (d) => (errors += d));
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(out.split('\n')[0]);
    });
    child.on('exit', (code) => reject(new Error(`the sandbox exited (${code}): ${errors}`)));
  });
  const url = /https:\/\/[^\s"']+/.exec(line)?.[0];
  assert.ok(url, `an https URL in "${line}"`);
  return { url: url.replace(/\/+$/, ''), child };
}

suite('network: proxy and private CA', () => {
  const cleanups: Array<() => unknown> = [];
  suiteSetup(async () => {
    s = await services();
  });
  teardown(async () => {
    await closeAllEditors();
    while (cleanups.length) await cleanups.pop()!();
  });

  test('through the proxy in http.proxy: sign in, browse and save; every request passes the proxy', async () => {
    const sandbox = new URL(sandboxUrl);
    const proxy = await forwardingProxy(sandbox);
    cleanups.push(proxy.close);
    await setHttp('proxy', proxy.url);
    cleanups.push(() => setHttp('proxy', undefined));
    // A name only the proxy knows (RFC 2606 .test): without the proxy nothing could reach it.
    const host = `sandbox.oms.test:${sandbox.port}`;
    const instance = (await (await fetch(`${sandboxUrl}/api`, { headers: { Authorization: `Bearer ${process.env.OMS_SANDBOX_TOKEN}` } })).json()) as {
      CommonName: string;
    };
    const { id, put } = await signInBrowseSave('Via proxy', `http://${host}`, instance.CommonName, password);
    cleanups.push(() => s.connections.remove(id));
    assert.ok(proxy.seen.includes(`POST ${host}/token`), `sign-in through the proxy: ${proxy.seen.join(', ')}`);
    assert.ok(
      proxy.seen.some((r) => r.startsWith(`GET ${host}/api/f/`)),
      'browsing through the proxy',
    );
    assert.ok(
      proxy.seen.includes(`PUT ${host}/api/f/${put.folderKey}/inputscanners/${put.object.Key}`),
      `the save through the proxy: ${proxy.seen.join(', ')}`,
    );
    assert.ok(
      proxy.seen.every((r) => r.includes(host)),
      'only that host',
    );
  });

  test('a proxy that asks for credentials: those in http.proxy are used; without them, one message saying where they go', async () => {
    const sandbox = new URL(sandboxUrl);
    const proxy = await forwardingProxy(sandbox, 'staff:proxy-pass-42');
    cleanups.push(proxy.close);
    cleanups.push(() => setHttp('proxy', undefined));
    const host = `sandbox.oms.test:${sandbox.port}`;
    const id: string = await vscode.commands.executeCommand('oms.addConnection', {
      label: 'Proxy with credentials',
      baseUrl: `http://${host}`,
      token: process.env.OMS_SANDBOX_TOKEN,
    });
    cleanups.push(() => s.connections.remove(id));
    const client = s.connections.get(id)!.client;
    await setHttp('proxy', proxy.url.replace('http://', 'http://staff:proxy-pass-42@'));
    assert.ok((await client.instance()).Key, 'through the proxy with the credentials of http.proxy');
    assert.ok(proxy.seen.includes(`GET ${host}/api`), proxy.seen.join(', '));
    await setHttp('proxy', proxy.url);
    const error = await client.instance().then(
      () => undefined,
      (e: Error) => e,
    );
    assert.strictEqual(
      error?.message,
      `Cannot reach ${host}: the proxy (setting http.proxy) answered 407: it asks for credentials ` +
        '(give them in the setting http.proxy, as http://user:password@host:port, or in http.proxyAuthorization)',
    );
  });

  test(
    'a proxy that asks for credentials, given in http.proxyAuthorization (which VS Code does not apply for extensions): ' +
      'sign in, browse and save through it',
    async () => {
      const sandbox = new URL(sandboxUrl);
      // Asked before the proxy is set: VS Code's fetch (this test's own) would get the proxy's 407.
      const instance = (await (await fetch(`${sandboxUrl}/api`, { headers: { Authorization: `Bearer ${process.env.OMS_SANDBOX_TOKEN}` } })).json()) as {
        CommonName: string;
      };
      const proxy = await forwardingProxy(sandbox, 'staff:proxy-pass-42');
      cleanups.push(proxy.close);
      await setHttp('proxy', proxy.url);
      cleanups.push(() => setHttp('proxy', undefined));
      await setHttp('proxyAuthorization', `Basic ${Buffer.from('staff:proxy-pass-42').toString('base64')}`);
      cleanups.push(() => setHttp('proxyAuthorization', undefined));
      const host = `sandbox.oms.test:${sandbox.port}`;
      const { id, put } = await signInBrowseSave('Via proxy with authorization', `http://${host}`, instance.CommonName, password);
      cleanups.push(() => s.connections.remove(id));
      assert.ok(proxy.tunnels.length > 0 && proxy.tunnels.every((t) => t === host), `tunnels to ${host}: ${proxy.tunnels.join(', ')}`);
      assert.ok(proxy.seen.includes(`POST ${host}/token`), `sign-in through the proxy: ${proxy.seen.join(', ')}`);
      assert.ok(
        proxy.seen.includes(`PUT ${host}/api/f/${put.folderKey}/inputscanners/${put.object.Key}`),
        `the save through the proxy: ${proxy.seen.join(', ')}`,
      );
    },
  );

  test('the HTTPS sandbox with a private CA the system trusts: sign in, browse and save', async function () {
    const cert = process.env.OMS_TEST_TLS_CERT,
      key = process.env.OMS_TEST_TLS_KEY;
    if (!cert || !key) this.skip();
    const { url, child } = await httpsSandbox(cert, key, 'https-token-0123456789', 'https-password-0123');
    cleanups.push(() => child.kill());
    const { id } = await signInBrowseSave('Over HTTPS', url, 'Demo Instance', 'https-password-0123');
    cleanups.push(() => s.connections.remove(id));
    assert.match(s.connections.get(id)!.info.baseUrl, /^https:\/\/127\.0\.0\.1:\d+$/);
  });

  test('a certificate nobody trusted: one clear message naming the host and why, in the error and the tree', async () => {
    const ca = makeCertificates();
    cleanups.push(() => ca.remove());
    let requests = 0;
    const server = https.createServer({ cert: ca.cert, key: ca.key }, (_req, res) => {
      requests++;
      res.end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanups.push(
      () =>
        new Promise((r) => {
          server.closeAllConnections();
          server.close(r);
        }),
    );
    const host = `127.0.0.1:${(server.address() as net.AddressInfo).port}`;
    const id: string = await vscode.commands.executeCommand('oms.addConnection', {
      label: 'Untrusted',
      baseUrl: `https://${host}`,
      token: 'untrusted-token-0123456789',
    });
    cleanups.push(() => s.connections.remove(id));
    const expected =
      `Not connected to ${host}: its certificate is signed by an authority this system does not trust (UNABLE_TO_VERIFY_LEAF_SIGNATURE), ` +
      'so nothing was sent.';
    const error = await s.connections
      .get(id)!
      .client.instance()
      .then(
        () => undefined,
        (e: Error) => e,
      );
    assert.ok(error?.message.startsWith(expected), error?.message);
    const [node] = await childrenOf(await nodeAt(s, 'Untrusted'));
    assert.ok(label(node).startsWith(`Failed to load: ${expected}`), label(node));
    assert.strictEqual(requests, 0, 'no request, no token reached it');
  });
});
