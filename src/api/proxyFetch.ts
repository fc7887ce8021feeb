/**
 * The two proxy settings VS Code's own network support does not apply to extensions. The client
 * sends with `fetch`, which VS Code patches in the extension host (@vscode/proxy-agent's
 * createFetchPatch, set up by src/vs/workbench/api/node/proxyResolver.ts): the proxy of `http.proxy`
 * (or the system's), the certificates VS Code trusts, credentials written in `http.proxy` or asked
 * for by VS Code. It never sends `http.proxyAuthorization` and always checks an HTTPS proxy's
 * certificate, whatever `http.proxyStrictSSL` says; only VS Code's own requests (its RequestService)
 * honour them. With either one set, a request that goes through the configured proxy is sent by
 * undici's fetch (undici.ts) through a ProxyAgent that applies them. Everything else keeps VS Code's
 * fetch, but plain HTTP to this machine (loopbackFetch.ts).
 */
import type { Dispatcher } from 'undici';
import { undici } from './undici';

export interface ProxySettings {
  /** `http.proxy` (else the environment's, see proxyOf). */
  proxy?: string;
  /** `http.proxyAuthorization`: the whole Proxy-Authorization header value. */
  authorization?: string;
  /** `http.proxyStrictSSL` (default true): check the certificate of an HTTPS proxy. */
  strictSSL: boolean;
  /** `http.noProxy`: hosts reached directly (the environment's NO_PROXY only while it is empty). */
  noProxy: readonly string[];
  /** `http.proxySupport`: `off` sends nothing through a proxy. */
  support: string;
}

export type Fetch = (input: URL, init: RequestInit) => Promise<Response>;

/**
 * Whether `host:port` is reached without the proxy, by VS Code's rule (@vscode/proxy-agent's
 * shouldBypassProxy): `*` is every host; `name` or `.name` is that host and its subdomains, on any port,
 * or only on the one given as `name:port`. Nothing else: no `*.name`, no address ranges (CIDR), which VS
 * Code's own requests do not honour either (a request this says goes to the proxy would otherwise reach
 * VS Code's fetch, and the proxy without its credentials).
 * @internal Exported for its unit test.
 */
export function bypassesProxy(host: string, port: string, noProxy: readonly string[]): boolean {
  const entries = noProxy.map((e) => e.trim().toLowerCase());
  if (entries.includes('*')) return true;
  const h = `.${host.toLowerCase().replace(/^\[|\]$/g, '')}`;
  return entries.some((entry) => {
    const [name, only] = entry.split(':', 2);
    return !!name && h.endsWith(name.startsWith('.') ? name : `.${name}`) && (!only || only === port);
  });
}

/** The hosts reached directly: `http.noProxy`, or the environment's no_proxy / NO_PROXY when the setting is empty (VS Code's rule). */
const noProxyOf = (settings: ProxySettings, env: NodeJS.ProcessEnv): readonly string[] =>
  settings.noProxy.length ? settings.noProxy : (env.no_proxy || env.NO_PROXY || '').trim().split(',');

/** Whether the URL names this machine: VS Code never sends it through a proxy. */
export const isLoopback = (url: URL): boolean => ['localhost', '127.0.0.1', '[::1]', '[::ffff:7f00:1]'].includes(url.hostname);

/**
 * The proxy a URL goes through, as VS Code's resolver picks it: loopback never; the hosts of noProxyOf
 * directly; else `http.proxy`, else the environment's (https_proxy, HTTPS_PROXY, http_proxy, HTTP_PROXY,
 * the first set, whatever the URL's scheme).
 */
function proxyOf(url: URL, settings: ProxySettings, env: NodeJS.ProcessEnv): string | undefined {
  if (settings.support === 'off' || isLoopback(url)) return undefined;
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  if (bypassesProxy(url.hostname, port, noProxyOf(settings, env))) return undefined;
  return settings.proxy || env.https_proxy || env.HTTPS_PROXY || env.http_proxy || env.HTTP_PROXY || undefined;
}

/**
 * The fetch for `url`: undefined (VS Code's) unless it goes through a proxy and a setting VS Code
 * leaves out applies. One agent per proxy and settings, kept while they stay the same.
 */
export function proxyFetchFor(settings: ProxySettings, env: NodeJS.ProcessEnv = process.env): (url: URL) => Promise<Fetch> | undefined {
  if (!settings.authorization && settings.strictSSL) return () => undefined;
  const agents = new Map<string, Promise<Fetch>>();
  return (url) => {
    const proxy = proxyOf(url, settings, env);
    if (!proxy) return undefined;
    let made = agents.get(proxy);
    if (!made) {
      made = undici().then(({ ProxyAgent, fetch }) => {
        const dispatcher: Dispatcher = new ProxyAgent({
          uri: proxy,
          ...(settings.authorization ? { token: settings.authorization } : {}),
          proxyTls: { rejectUnauthorized: settings.strictSSL },
        });
        const proxyUrl = new URL(proxy);
        return (async (input, init) => {
          try {
            return await fetch(input, { ...(init as object), dispatcher });
          } catch (e) {
            // To a plain-http service, a certificate can only be the proxy's: say so (networkErrors.ts).
            if (proxyUrl.protocol === 'https:' && input.protocol === 'http:') Object.assign(e as object, { proxyHost: proxyUrl.host });
            throw e;
          }
        }) satisfies Fetch;
      });
      agents.set(proxy, made);
    }
    return made;
  };
}
