// A company's private CA for the integration host: added to the system's certificates for the VS Code
// server's process tree, its server certificate served by the HTTPS sandbox in network.test.ts.
import * as fs from 'fs';
import * as path from 'path';
import { makeCertificates } from '../../unit/sandbox/certificates';

/** Where Debian and its kin keep the system's trusted certificates, as one file. */
const systemBundles = ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt', '/etc/ssl/cert.pem'];

/**
 * A private CA added to the system's certificates for one process tree, as an administrator adds a
 * company's CA: `SSL_CERT_FILE` names a bundle of the system's certificates plus it (OpenSSL, and so
 * Node.js's system store that VS Code reads, take it from there; Node.js alone does not). Returns the
 * environment to set, with the CA's server certificate for 127.0.0.1 in OMS_TEST_TLS_CERT/KEY.
 */
export function trustPrivateCa(dir: string): Record<string, string> {
  const ca = makeCertificates();
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const f of [ca.caFile, ca.certFile, ca.keyFile]) fs.copyFileSync(f, path.join(dir, path.basename(f)));
  ca.remove();
  const system = systemBundles.find((f) => fs.existsSync(f));
  const bundle = path.join(dir, 'trusted.pem');
  fs.writeFileSync(bundle, (system ? fs.readFileSync(system, 'utf8') + '\n' : '') + ca.ca);
  return { SSL_CERT_FILE: bundle, OMS_TEST_TLS_CERT: path.join(dir, 'server.pem'), OMS_TEST_TLS_KEY: path.join(dir, 'server.key') };
}
