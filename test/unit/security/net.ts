/** Raw HTTP(S) calls for the security suite: a chosen local address, headers only, chunked bodies, a CA. */
import { request as httpRequest, IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface Asked {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

export interface AskOptions {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** A form body (application/x-www-form-urlencoded). */
  form?: Record<string, string>;
  /** Send the body chunked (no Content-Length). */
  chunked?: boolean;
  /** Send the headers and wait for the answer without sending a body. */
  headersOnly?: boolean;
  /** Connect from this loopback address (127.0.0.2 is another peer). */
  localAddress?: string;
  /** HTTPS: the CA to trust, and the name the certificate must hold (default: the Host header, else the URL's host). */
  ca?: string | Buffer;
  servername?: string;
  token?: string;
}

export function tokenForm(user: string, password: string): Record<string, string> {
  return { grant_type: 'password', username: user, password };
}

/** One request to `base` (http or https); resolves with the answer, rejects on a connection error. */
export function ask(base: string, o: AskOptions): Promise<Asked> {
  const url = new URL(o.path, base);
  const headers: Record<string, string> = { ...o.headers };
  let body = o.body;
  if (o.form) {
    body = new URLSearchParams(o.form).toString();
    headers['Content-Type'] ??= 'application/x-www-form-urlencoded';
  }
  if (o.token) headers.Authorization = `Bearer ${o.token}`;
  if (body !== undefined && !o.chunked) headers['Content-Length'] ??= String(Buffer.byteLength(body));
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(url, { method: o.method ?? 'GET', headers, localAddress: o.localAddress, ca: o.ca, servername: o.servername, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        text += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (o.headersOnly) {
      req.flushHeaders();
      return;
    }
    if (body !== undefined && o.chunked) {
      // Several writes: the body goes out in chunks.
      for (let i = 0; i < body.length; i += 1000) req.write(body.slice(i, i + 1000));
    } else if (body !== undefined) req.write(body);
    req.end();
  });
}
