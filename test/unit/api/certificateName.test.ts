/**
 * A certificate from a CA the system trusts, but for other names than the connection's URL: over a real
 * TLS socket, the message says the name does not match and which names the certificate holds, not
 * that its CA should be trusted (it is). The CA is trusted the way VS Code's fetch trusts one: by the
 * connection's certificates (undici's Agent with the CA, as NODE_EXTRA_CA_CERTS would add it).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Agent, fetch } from 'undici';
import { createHttp } from '../../../src/api/http';
import type { Fetch } from '../../../src/api/proxyFetch';
import { ApiError } from '../../../src/api/errors';
import { makeCertificates } from '../sandbox/certificates';

const ca = makeCertificates();
after(() => ca.remove());

/** A server with the CA's certificate (for localhost, 127.0.0.1 and ::1) on `address`, and a client that trusts the CA. */
async function serve(address: string) {
  let requests = 0;
  const server = createServer({ cert: ca.cert, key: ca.key }, (_req, res) => {
    requests++;
    res.end('{}');
  });
  let connections = 0;
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server.listen(0, address, r));
  const agent = new Agent({ connect: { ca: ca.ca } });
  const trusting: Fetch = (input, init) => fetch(input, { ...(init as object), dispatcher: agent });
  const port = (server.address() as AddressInfo).port;
  return {
    requests: () => requests,
    connections: () => connections,
    get: (host: string) =>
      createHttp({ baseUrl: `https://${host}:${port}`, fetchFor: () => Promise.resolve(trusting), maxAttempts: 3 })({
        method: 'GET',
        path: '/api',
        anonymous: true,
      }),
    close: async () => {
      server.closeAllConnections();
      await agent.close();
      await new Promise((r) => server.close(r));
    },
    port,
  };
}

test('the trusted certificate at its own name: answered (the CA is trusted)', async () => {
  const srv = await serve('127.0.0.1');
  try {
    assert.deepEqual(await srv.get('127.0.0.1'), {});
  } finally {
    await srv.close();
  }
});

test('the trusted certificate at another name: the message says the name does not match and the names it holds; not sent, not retried', async () => {
  const srv = await serve('127.0.0.2');
  try {
    const e = await srv.get('127.0.0.2').then(
      () => undefined,
      (x: unknown) => x,
    );
    assert.ok(e instanceof ApiError, `expected ApiError, got ${String(e)}`);
    assert.equal(e.kind, 'network');
    assert.equal(
      e.message,
      `Not connected to 127.0.0.2:${srv.port}: its certificate is for localhost, 127.0.0.1, 0:0:0:0:0:0:0:1, not the name in the ` +
        "connection's URL (ERR_TLS_CERT_ALTNAME_INVALID), so nothing was sent",
    );
    assert.doesNotMatch(e.message, /trust/, 'no advice to trust a CA that is trusted');
    assert.equal(srv.requests(), 0);
    assert.equal(srv.connections(), 1, 'not retried: the name does not change by waiting');
  } finally {
    await srv.close();
  }
});
