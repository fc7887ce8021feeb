/**
 * Which hosts skip the proxy when the extension sends through it itself (http.proxyAuthorization set):
 * exactly the ones VS Code's own requests skip (@vscode/proxy-agent 0.45's createProxyResolver and
 * shouldBypassProxy, in the host VS Code 1.139 runs), since a request the extension does not take goes
 * to VS Code's fetch, which decides by those rules and sends no Proxy-Authorization.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHttp } from '../../../src/api/http';
import { bypassesProxy, proxyFetchFor, ProxySettings } from '../../../src/api/proxyFetch';
import { startSandbox, Sandbox } from '../../../src/sandbox/server';
import { authorization, proxyTo } from './tunnel';

let sb: Sandbox;
before(async () => {
  sb = await startSandbox({ port: 0, seed: 'demo' });
});
after(() => sb.close());

const settings = (over: Partial<ProxySettings>): ProxySettings => ({ strictSSL: true, noProxy: [], support: 'override', authorization, ...over });
const taken = (s: ProxySettings, env: NodeJS.ProcessEnv, url: string): boolean => proxyFetchFor(s, env)(new URL(url)) !== undefined;

test('NO_PROXY is ignored once http.noProxy is set: the request goes through the proxy, with its credentials, and arrives', async () => {
  const proxy = await proxyTo(new URL(sb.url));
  try {
    const port = new URL(sb.url).port;
    const fetchFor = proxyFetchFor(settings({ proxy: proxy.url, noProxy: ['elsewhere.test'] }), { NO_PROXY: 'oms.test' });
    const request = createHttp({ baseUrl: `http://sandbox.oms.test:${port}`, token: () => sb.token, fetchFor, maxAttempts: 1 });
    const instance = await request<{ Key: string }>({ method: 'GET', path: '/api' });
    assert.equal(instance.Key, sb.instanceKey);
    assert.deepEqual(proxy.tunnels, [{ to: `sandbox.oms.test:${port}`, authorization }]);
  } finally {
    await proxy.close();
  }
});

test("with http.noProxy empty, the environment's list applies, no_proxy before NO_PROXY", () => {
  const s = settings({ proxy: 'http://127.0.0.1:9' });
  assert.ok(!taken(s, { NO_PROXY: 'oms.test' }, 'http://sandbox.oms.test/api'));
  assert.ok(taken(s, { no_proxy: 'elsewhere.test', NO_PROXY: 'oms.test' }, 'http://sandbox.oms.test/api'));
  assert.ok(!taken(settings({ proxy: 'http://127.0.0.1:9', noProxy: ['oms.test'] }), { NO_PROXY: 'elsewhere.test' }, 'http://sandbox.oms.test/api'));
});

test("the environment's proxy: the first of https_proxy, HTTPS_PROXY, http_proxy, HTTP_PROXY, for http:// too", () => {
  assert.ok(taken(settings({}), { HTTPS_PROXY: 'http://127.0.0.1:9' }, 'http://sandbox.oms.test/api'));
  assert.ok(taken(settings({}), { HTTP_PROXY: 'http://127.0.0.1:9' }, 'https://sandbox.oms.test/api'));
  assert.ok(!taken(settings({}), {}, 'https://sandbox.oms.test/api'));
});

test('entries: a name covers its subdomains on every port, name:port that port only, * every host; nothing else matches', () => {
  assert.ok(bypassesProxy('api.example.com', '443', ['example.com']));
  assert.ok(bypassesProxy('example.com', '443', ['.example.com']));
  assert.ok(bypassesProxy('API.Example.com', '80', [' Example.COM ']));
  assert.ok(bypassesProxy('anything', '80', ['*']));
  assert.ok(bypassesProxy('api.example.com', '8443', ['example.com:8443']));
  assert.ok(!bypassesProxy('api.example.com', '443', ['example.com:8443']), 'another port');
  assert.ok(!bypassesProxy('badexample.com', '443', ['example.com']));
  assert.ok(!bypassesProxy('example.org', '443', ['example.com', '']));
  assert.ok(!bypassesProxy('api.example.com', '443', ['*.example.com']), 'VS Code takes no wildcard inside a name');
  assert.ok(!bypassesProxy('10.1.2.3', '443', ['10.0.0.0/8']), 'nor an address range: VS Code would send it to the proxy');
  assert.ok(bypassesProxy('10.1.2.3', '443', ['10.1.2.3']));
});

test("the address of a URL through the proxy's rules: the default port of its scheme counts for name:port", () => {
  const s = settings({ proxy: 'http://127.0.0.1:9', noProxy: ['oms.test:443'] });
  assert.ok(!taken(s, {}, 'https://sandbox.oms.test/api'));
  assert.ok(taken(s, {}, 'http://sandbox.oms.test/api'));
  assert.ok(taken(s, {}, 'https://sandbox.oms.test:8443/api'));
});
