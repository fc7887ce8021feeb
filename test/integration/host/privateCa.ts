// A private certificate authority and a server certificate it signed, made with the openssl command
// (as a company's CA would be): for the HTTPS sandbox in the integration host and the unit tests.
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

export interface PrivateCa {
  /** PEM files. */
  caFile: string;
  certFile: string;
  keyFile: string;
}

/** A CA named `name` in `dir`, and a certificate for `names` (IP addresses or DNS names) signed by it. */
export function makePrivateCa(dir: string, name: string, names: string[] = ['127.0.0.1', 'localhost']): PrivateCa {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = (f: string) => path.join(dir, `${name}-${f}`);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl('req', '-x509', ...ec, '-keyout', file('ca.key'), '-out', file('ca.pem'), '-days', '3', '-subj', `/CN=${name} test CA`,
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  openssl('req', ...ec, '-keyout', file('server.key'), '-out', file('server.csr'), '-subj', `/CN=${names[0]}`);
  const alt = names.map((n) => (/^[\d.]+$|:/.test(n) ? `IP:${n}` : `DNS:${n}`)).join(',');
  fs.writeFileSync(file('ext.cnf'), `subjectAltName=${alt}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`);
  openssl('x509', '-req', '-in', file('server.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key'), '-CAcreateserial',
    '-out', file('server.pem'), '-days', '2', '-extfile', file('ext.cnf'));
  return { caFile: file('ca.pem'), certFile: file('server.pem'), keyFile: file('server.key') };
}

/** Where Debian and its kin keep the system's trusted certificates, as one file. */
const systemBundles = ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt', '/etc/ssl/cert.pem'];

/**
 * A private CA added to the system's certificates for one process tree, as an administrator adds a
 * company's CA: `SSL_CERT_FILE` names a bundle of the system's certificates plus it (OpenSSL, and
 * so Node.js's system store that VS Code reads, take it from there). Returns the environment to set,
 * with the CA's server certificate for 127.0.0.1 in OMS_TEST_TLS_CERT/KEY.
 */
export function trustPrivateCa(dir: string): Record<string, string> {
  const ca = makePrivateCa(dir, 'OMS Company');
  const system = systemBundles.find((f) => fs.existsSync(f));
  const bundle = path.join(dir, 'trusted.pem');
  fs.writeFileSync(bundle, (system ? fs.readFileSync(system, 'utf8') + '\n' : '') + fs.readFileSync(ca.caFile, 'utf8'));
  return { SSL_CERT_FILE: bundle, OMS_TEST_TLS_CERT: ca.certFile, OMS_TEST_TLS_KEY: ca.keyFile };
}
