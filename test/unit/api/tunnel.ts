/**
 * A company proxy's CONNECT, for the proxy tests of the unit suite (proxyFetch.test.ts) and the host
 * (test/integration/network.test.ts): each tunnel is recorded; without the wanted Proxy-Authorization
 * it is answered 407, else its bytes go to `inner`, a server of the test's own behind the proxy.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import type * as net from 'node:net';
import type { TestCertificates } from '../sandbox/certificates';

export function acceptTunnels(proxy: http.Server, inner: http.Server, authorization: string | undefined, record: (req: http.IncomingMessage) => void): void {
  proxy.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    record(req);
    if (authorization !== undefined && req.headers['proxy-authorization'] !== authorization) {
      socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="company"\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length) socket.unshift(head);
    inner.emit('connection', socket);
  });
}

export const authorization = 'Basic c3RhZmY6cHJveHktcGFzcy00Mg=='; // staff:proxy-pass-42

export interface Proxy {
  url: string;
  /** Each CONNECT: its target and the Proxy-Authorization it carried. */
  tunnels: Array<{ to: string; authorization?: string }>;
  /** Headers of the requests that reached the far side of a tunnel. */
  forwarded: http.IncomingHttpHeaders[];
  close: () => Promise<void>;
}

/** Tunnels every CONNECT to the sandbox, whatever host was asked for, once the right Proxy-Authorization came. */
export async function proxyTo(sandbox: URL, tls?: TestCertificates): Promise<Proxy> {
  const tunnels: Proxy['tunnels'] = [];
  const forwarded: Proxy['forwarded'] = [];
  const inner = http.createServer((req, res) => {
    forwarded.push(req.headers);
    const target = { host: sandbox.hostname, port: sandbox.port, method: req.method, path: req.url, headers: { ...req.headers, host: sandbox.host } };
    const out = http.request(target, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(out);
  });
  const proxy = tls ? https.createServer({ cert: tls.cert, key: tls.key }) : http.createServer();
  acceptTunnels(proxy, inner, authorization, (req) => tunnels.push({ to: req.url!, authorization: req.headers['proxy-authorization'] }));
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  const port = (proxy.address() as net.AddressInfo).port;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    tunnels,
    forwarded,
    close: async () => {
      inner.closeAllConnections();
      proxy.closeAllConnections();
      await new Promise((r) => proxy.close(r));
    },
  };
}
