import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ask } from '../security/net';
import { runCli, startCli } from '../security/child';
import { withSandbox } from './harness';
import { makeCertificates } from './certificates';

test(
  'https: the CLI serves HTTPS with --cert and --key; a client trusting the private CA gets in, ' +
    'one that does not is refused; the Host check still applies',
  async () => {
    const certs = makeCertificates();
    const sb = await startCli(['--seed', 'empty', '--cert', certs.certFile, '--key', certs.keyFile]);
    try {
      assert.match(sb.url, /^https:\/\/127\.0\.0\.1:\d+$/);
      const ok = await ask(sb.url, { path: '/api', token: sb.token, ca: certs.ca });
      assert.equal(ok.status, 200);
      const byName = await ask(sb.url.replace('127.0.0.1', 'localhost'), { path: '/api/sysinfo', ca: certs.ca });
      assert.equal(byName.status, 200, 'the certificate names localhost too');
      await assert.rejects(
        ask(sb.url, { path: '/api/sysinfo' }),
        (e: NodeJS.ErrnoException) => /UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED|unable to verify/i.test(`${e.code} ${e.message}`),
        'a CA the client does not trust',
      );
      const rebound = await ask(sb.url, { path: '/api/sysinfo', ca: certs.ca, servername: 'localhost', headers: { Host: 'evil.example' } });
      assert.equal(rebound.status, 421);
      const http = await fetch(sb.url.replace('https:', 'http:') + '/api/sysinfo').then(
        () => 'answered',
        () => 'refused',
      );
      assert.equal(http, 'refused', 'no plain HTTP on the HTTPS port');
    } finally {
      await sb.stop();
      certs.remove();
    }
    for (const args of [
      ['--cert', certs.certFile],
      ['--key', certs.keyFile],
    ]) {
      const half = await runCli(['--port', '0', ...args]);
      assert.equal(half.code, 2);
      assert.match(half.stderr, /--cert and --key go together/);
    }
  },
);

test('https: startSandbox with tls answers over HTTPS on its https:// URL', async () => {
  const certs = makeCertificates();
  try {
    await withSandbox({ seed: 'empty', tls: { cert: certs.cert, key: certs.key } }, async (api) => {
      assert.match(api.sb.url, /^https:/);
      assert.equal((await ask(api.sb.url, { path: '/api', token: api.sb.token, ca: certs.ca })).status, 200);
    });
  } finally {
    certs.remove();
  }
});
