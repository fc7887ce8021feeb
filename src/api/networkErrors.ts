/**
 * What went wrong below HTTP, in words: a refused or cut connection, a certificate the system does
 * not trust, a proxy that said no. `fetch` wraps the socket's error in `cause`. VS Code's own
 * network support (proxy settings, the certificates it trusts) works inside `fetch` in the
 * extension host, so its refusals arrive here too.
 */
import { l10n } from '../l10n';

export interface NetworkReason {
  text: string;
  /** Worth trying again (a connection cut short); a certificate or a proxy's refusal is not. */
  transient: boolean;
}

const untrusted = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
]);

/** The certificate problem, where there is one. */
function certificate(code: string): string | undefined {
  if (untrusted.has(code)) return l10n.t('its certificate is signed by an authority this system does not trust');
  if (code === 'CERT_HAS_EXPIRED') return l10n.t('its certificate has expired');
  if (code === 'CERT_NOT_YET_VALID') return l10n.t('its certificate is not valid yet');
  if (code === 'INVALID_PURPOSE') return l10n.t('its certificate is not one for a server');
  if (code === 'CERT_REVOKED') return l10n.t('its certificate was revoked');
  return undefined;
}

/** The names a certificate is for (its subjectAltName, as Node gives it: "DNS:localhost, IP Address:127.0.0.1"). */
const certificateNames = (altNames: string | undefined): string | undefined =>
  altNames
    ?.split(',')
    .map((n) => n.trim().replace(/^[^:]*?(Address)?:/, ''))
    .filter(Boolean)
    .join(', ') || undefined;

/** A trusted certificate for other names: the address is wrong, not the trust (adding a CA would not help). */
function otherName(host: string, altNames: string | undefined, proxyHost: string | undefined): string {
  const names = certificateNames(altNames) ?? l10n.t('other names');
  return proxyHost
    ? l10n.t(
        "Not connected to {0} through the proxy {1}: the proxy's certificate is for {2}, not its name in http.proxy ({3}), so nothing was sent",
        host,
        proxyHost,
        names,
        'ERR_TLS_CERT_ALTNAME_INVALID',
      )
    : l10n.t(
        "Not connected to {0}: its certificate is for {1}, not the name in the connection's URL ({2}), so nothing was sent",
        host,
        names,
        'ERR_TLS_CERT_ALTNAME_INVALID',
      );
}

export function networkReason(e: unknown, host: string): NetworkReason {
  type Cause = { code?: string; message?: string; cert?: { subjectaltname?: string } };
  const error = e as { message?: string; proxyHost?: string; cause?: Cause & { cause?: Cause } };
  const cause = error.cause?.cause?.code ? error.cause.cause : error.cause;
  const code = cause?.code ?? '';
  const message = cause?.message ?? error.message ?? String(e);
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return { text: otherName(host, cause?.cert?.subjectaltname, error.proxyHost), transient: false };
  const cert = certificate(code);
  if (cert && error.proxyHost) {
    return {
      text: l10n.t(
        "Not connected to {0} through the proxy {1}: {2} ({3}), so nothing was sent. If it is your company's, add its CA to the certificates this system trusts, or turn off the setting http.proxyStrictSSL",
        host,
        error.proxyHost,
        cert,
        code,
      ),
      transient: false,
    };
  }
  if (cert) {
    return {
      text: l10n.t(
        "Not connected to {0}: {1} ({2}), so nothing was sent. If it is yours or your company's, add its CA to the certificates this system trusts (VS Code uses them: setting http.systemCertificates)",
        host,
        cert,
        code,
      ),
      transient: false,
    };
  }
  const proxy = /Proxy response \((\d+)\)/i.exec(message);
  if (proxy) {
    const text =
      proxy[1] === '407'
        ? l10n.t(
            'Cannot reach {0}: the proxy (setting http.proxy) answered 407: it asks for credentials (give them in the setting http.proxy, as http://user:password@host:port, or in http.proxyAuthorization)',
            host,
          )
        : l10n.t('Cannot reach {0}: the proxy (setting http.proxy) answered {1}', host, proxy[1]);
    return { text, transient: false };
  }
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || /wrong version number/i.test(message)) {
    return { text: l10n.t('Cannot reach {0}: it does not answer HTTPS on that port (is the address http://?)', host), transient: false };
  }
  if (code === 'UND_ERR_SOCKET' || error.message === 'terminated')
    return { text: l10n.t('Cannot reach {0}: the connection closed before the whole answer arrived', host), transient: true };
  return { text: l10n.t('Cannot reach {0}: {1}', host, code || message), transient: true };
}
