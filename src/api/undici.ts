/**
 * undici, the fetch Node's own is made of, as a package: for the requests the extension sends itself
 * rather than through VS Code's fetch (proxyFetch.ts, loopbackFetch.ts). Loaded on first use, once:
 * evaluating it takes about 80 ms, which an extension that never needs it should not pay.
 */
import type * as Undici from 'undici';

let loading: Promise<typeof Undici> | undefined;

export function undici(): Promise<typeof Undici> {
  // CommonJS: in the extension's split build (esbuild.js) its exports arrive as `default`.
  return (loading ??= import('undici').then((loaded) => ('fetch' in loaded ? loaded : (loaded as unknown as { default: typeof Undici }).default)));
}
