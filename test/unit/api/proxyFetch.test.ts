/**
 * The proxy settings VS Code leaves to extensions (src/api/proxyFetch.ts), over real sockets: the
 * sandbox behind a forwarding proxy that wants a Proxy-Authorization header (as `http.proxyAuthorization`
 * gives it), plain and over TLS with a certificate nobody trusts (`http.proxyStrictSSL`).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHttp } from '../../../src/api/http';
import { proxyFetchFor, ProxySettings } from '../../../src/api/proxyFetch';
import { startSandbox, Sandbox } from '../../../src/sandbox/server';
import { makeCertificates, TestCertificates } from '../sandbox/certificates';
import { authorization, proxyTo } from './tunnel';

let sb: Sandbox;
let certificates: TestCertificates;
before(async () => {
  sb = await startSandbox({ port: 0, seed: 'demo' });
  certificates = makeCertificates();
});
after(async () => {
  await sb.close();
  certificates.remove();
});

const settings = (over: Partial<ProxySettings>): ProxySettings => ({ strictSSL: true, noProxy: [], support: 'override', ...over });

/** The instance, asked for at a name only the proxy knows (RFC 2606 .test), through `fetchFor`. */
function instanceVia(fetchFor: ReturnType<typeof proxyFetchFor>, logged: string[] = []) {
  const port = new URL(sb.url).port;
  const request = createHttp({
    baseUrl: `http://sandbox.oms.test:${port}`,
    token: () => sb.token,
    fetchFor,
    maxAttempts: 1,
    log: (e) => logged.push(JSON.stringify(e)),
  });
  return request<{ Key: string }>({ method: 'GET', path: '/api' });
}

test('http.proxyAuthorization goes to the proxy with the tunnel, not to the service; the request arrives', async () => {
  const proxy = await proxyTo(new URL(sb.url));
  try {
    const logged: string[] = [];
    const instance = await instanceVia(proxyFetchFor(settings({ proxy: proxy.url, authorization }), {}), logged);
    assert.equal(instance.Key, sb.instanceKey);
    assert.deepEqual(proxy.tunnels, [{ to: `sandbox.oms.test:${new URL(sb.url).port}`, authorization }]);
    assert.equal(proxy.forwarded.length, 1);
    assert.equal(proxy.forwarded[0]['proxy-authorization'], undefined, 'the service never sees the proxy credentials');
    assert.equal(proxy.forwarded[0].authorization, `Bearer ${sb.token}`);
    assert.ok(!logged.join('\n').includes(authorization.split(' ')[1]), 'nothing of it in the log');
  } finally {
    await proxy.close();
  }
});

test('a proxy that refuses the credentials: one message naming the settings, without them; nothing reaches the service', async () => {
  const proxy = await proxyTo(new URL(sb.url));
  try {
    const wrong = 'Basic d3Jvbmc6d3Jvbmc=';
    const error = await instanceVia(proxyFetchFor(settings({ proxy: proxy.url, authorization: wrong }), {})).then(
      () => undefined,
      (e: Error) => e,
    );
    assert.equal(
      error?.message,
      `Cannot reach sandbox.oms.test:${new URL(sb.url).port}: the proxy (setting http.proxy) answered 407: it asks for credentials ` +
        '(give them in the setting http.proxy, as http://user:password@host:port, or in http.proxyAuthorization)',
    );
    assert.ok(!error.message.includes('d3Jvbmc6d3Jvbmc='));
    assert.equal(proxy.forwarded.length, 0);
  } finally {
    await proxy.close();
  }
});

test('an HTTPS proxy with a certificate nobody trusts: refused while http.proxyStrictSSL is on, used once it is off', async () => {
  const proxy = await proxyTo(new URL(sb.url), certificates);
  try {
    const strict = await instanceVia(proxyFetchFor(settings({ proxy: proxy.url, authorization }), {})).then(
      () => undefined,
      (e: Error) => e,
    );
    assert.match(
      strict?.message ?? '',
      new RegExp(
        String.raw`^Not connected to sandbox\.oms\.test:\d+ through the proxy 127\.0\.0\.1:\d+: ` +
          String.raw`its certificate is signed by an authority this system does not trust \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\), ` +
          String.raw`so nothing was sent\. .* http\.proxyStrictSSL$`,
      ),
      strict?.message,
    );
    assert.equal(proxy.tunnels.length, 0, 'no CONNECT, no credentials sent to it');
    const relaxed = await instanceVia(proxyFetchFor(settings({ proxy: proxy.url, authorization, strictSSL: false }), {}));
    assert.equal(relaxed.Key, sb.instanceKey);
    assert.equal(proxy.tunnels.length, 1);
  } finally {
    await proxy.close();
  }
});

test("VS Code's own fetch is kept where it applies the settings itself, for loopback and hosts in http.noProxy, and with http.proxySupport off", () => {
  const url = new URL('http://sandbox.oms.test:1/api');
  assert.equal(proxyFetchFor(settings({ proxy: 'http://127.0.0.1:9' }), {})(url), undefined, 'no setting VS Code leaves out');
  assert.equal(proxyFetchFor(settings({ proxy: 'http://127.0.0.1:9', authorization, noProxy: ['.oms.test'] }), {})(url), undefined);
  assert.equal(proxyFetchFor(settings({ proxy: 'http://127.0.0.1:9', authorization, support: 'off' }), {})(url), undefined);
  assert.equal(proxyFetchFor(settings({ authorization }), {})(url), undefined, 'no proxy at all');
  for (const local of ['http://localhost:1/api', 'http://127.0.0.1:1/api', 'http://[::1]:1/api']) {
    assert.equal(
      proxyFetchFor(settings({ proxy: 'http://127.0.0.1:9', authorization }), {})(new URL(local)),
      undefined,
      `${local}: loopback is reached directly`,
    );
  }
  assert.ok(proxyFetchFor(settings({ authorization }), { HTTP_PROXY: 'http://127.0.0.1:9' })(url), "the environment's proxy");
  assert.equal(proxyFetchFor(settings({ authorization }), { HTTP_PROXY: 'http://127.0.0.1:9', NO_PROXY: 'oms.test' })(url), undefined);
});
