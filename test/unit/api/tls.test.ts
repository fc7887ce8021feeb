/**
 * HTTPS refusals below HTTP, over real sockets: a certificate this system does not trust is one clear
 * message naming the host and why, sent once and never retried; a plain-HTTP port says so.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHttp } from '../../../src/api/http';
import { ApiError } from '../../../src/api/errors';
import { makeCertificates } from '../sandbox/certificates';

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'oms-tls-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

async function listen(server: Server): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
  let connections = 0;
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as { port: number }).port,
    connections: () => connections,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  assert.ok(e instanceof ApiError, `expected ApiError, got ${String(e)}`);
  return e;
}

test('a certificate signed by a CA this system does not trust: one message naming the host and why; sent once, no request reached the server', async () => {
  const ca = makeCertificates();
  after(() => ca.remove());
  let requests = 0;
  const srv = await listen(
    createHttpsServer({ cert: ca.cert, key: ca.key }, (_req, res) => {
      requests++;
      res.end('{}');
    }),
  );
  try {
    const http = createHttp({ baseUrl: `https://127.0.0.1:${srv.port}`, token: () => 'tls-token-1234', backoffMs: 1, maxAttempts: 4 });
    const e = await refusal(http({ method: 'GET', path: '/api' }));
    assert.equal(e.kind, 'network');
    assert.match(
      e.message,
      new RegExp(
        `^Not connected to 127\\.0\\.0\\.1:${srv.port}: ` +
          'its certificate is signed by an authority this system does not trust \\(UNABLE_TO_VERIFY_LEAF_SIGNATURE\\), ' +
          "so nothing was sent\\. If it is yours or your company's, add its CA to the certificates this system trusts",
      ),
    );
    assert.equal(requests, 0, 'no request (and no token) reached it');
    assert.equal(srv.connections(), 1, 'not retried: a certificate does not change by waiting');
  } finally {
    await srv.close();
  }
});

test('a self-signed certificate: the same one message', async () => {
  const [cert, key] = [join(dir, 'self.pem'), join(dir, 'self.key')];
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  const srv = await listen(createHttpsServer({ cert: readFileSync(cert), key: readFileSync(key) }, (_req, res) => res.end('{}')));
  try {
    const e = await refusal(createHttp({ baseUrl: `https://127.0.0.1:${srv.port}` })({ method: 'GET', path: '/api', anonymous: true }));
    const codes = ['DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'].join('|');
    assert.match(e.message, new RegExp(String.raw`its certificate is signed by an authority this system does not trust \((${codes})\)`));
  } finally {
    await srv.close();
  }
});

test('https:// to a plain HTTP port says so', async () => {
  const srv = await listen(createHttpServer((_req, res) => res.end('{}')));
  try {
    const e = await refusal(createHttp({ baseUrl: `https://127.0.0.1:${srv.port}`, maxAttempts: 1 })({ method: 'GET', path: '/api', anonymous: true }));
    assert.equal(e.message, `Cannot reach 127.0.0.1:${srv.port}: it does not answer HTTPS on that port (is the address http://?)`);
  } finally {
    await srv.close();
  }
});
