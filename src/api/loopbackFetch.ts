/**
 * Plain HTTP to this machine (the embedded sandbox, a local test server) goes out through undici's
 * own fetch, not VS Code's. VS Code's fetch in the extension host (@vscode/proxy-agent's
 * createFetchPatch) adds a proxy and certificates: a loopback address never goes through a proxy
 * (proxyFetch.ts's proxyOf, VS Code's rule) and plain HTTP has no certificates, so for these requests
 * it adds only its cost. It reads four settings per request, and VS Code's getConfiguration copies
 * them each time (microsoft/vscode#39329): a Bulk Edit of 10,000 scanners against the sandbox spent
 * a fifth of the extension host's CPU there, and ran at 294 objects/s through it against 395 without.
 * Until undici is loaded, a request goes through VS Code's fetch: none waits for the load.
 */
import { type Fetch, isLoopback } from './proxyFetch';
import { undici } from './undici';

let direct: Fetch | undefined;
let loading = false;

/** undici's fetch for a plain-HTTP URL of this machine once it is loaded; else undefined (VS Code's fetch). */
export function loopbackFetch(url: URL): Promise<Fetch> | undefined {
  if (url.protocol !== 'http:' || !isLoopback(url)) return undefined;
  if (!loading) {
    loading = true;
    void undici().then(
      ({ fetch }) => (direct = fetch as unknown as Fetch),
      () => undefined,
    ); // not loaded: VS Code's fetch it stays
  }
  return direct && Promise.resolve(direct);
}
