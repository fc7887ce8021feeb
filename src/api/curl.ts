/**
 * Copy as cURL: a request as a shell command, ready to paste. The token is
 * never written: the command reads it from `$TOKEN`, and the shell's own
 * printf hands the header to curl on standard input (`-H @-`), so the token is
 * on no process's command line (which every local user can read with `ps`).
 * Requests are taken from
 * the client itself (a client whose HTTP function records instead of
 * sending), so the command is exactly what the extension would send.
 */
import { OmsClient } from './client';
import type { Http, RequestOptions } from './http';

/**
 * POSIX shell single quotes: safe for any text, including quotes and `$`.
 * @internal Exported for its unit test.
 */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** One request as one shell command (see the top of this file for the token). */
export function curlCommand(baseUrl: string, req: Pick<RequestOptions, 'method' | 'path' | 'query' | 'json' | 'anonymous'>): string {
  const base = new URL(baseUrl);
  const url = new URL(base.origin + base.pathname.replace(/\/+$/, '') + req.path);
  for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  const parts = ['curl', '-sS', '--fail-with-body'];
  if (req.method !== 'GET' || req.json !== undefined) parts.push('-X', req.method);
  parts.push(shellQuote(url.toString()));
  if (req.json !== undefined) parts.push('-H', shellQuote('Content-Type: application/json'), '--data-raw', shellQuote(JSON.stringify(req.json)));
  if (req.anonymous) return parts.join(' ');
  // printf is built into sh, bash, zsh and fish; double quotes: the shell puts the token in, it is never part of the text.
  parts.push('-H', '@-');
  return `printf 'Authorization: Bearer %s\\n' "$TOKEN" | ${parts.join(' ')}`;
}

/**
 * The requests a client call would send, without sending anything.
 * @internal Exported for its unit test.
 */
export async function requestsOf(call: (client: OmsClient) => Promise<unknown>): Promise<RequestOptions[]> {
  const seen: RequestOptions[] = [];
  const recorder = ((req: RequestOptions) => {
    seen.push(req);
    return Promise.resolve(req.method === 'GET' ? [] : undefined);
  }) as Http;
  await call(new OmsClient(recorder)).catch(() => undefined);
  return seen;
}

/** The cURL commands of a client call, one a line. */
export async function curlOf(baseUrl: string, call: (client: OmsClient) => Promise<unknown>): Promise<string> {
  return (await requestsOf(call)).map((r) => curlCommand(baseUrl, r)).join('\n');
}
