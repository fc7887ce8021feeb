/**
 * A company proxy's CONNECT, for the proxy tests of the unit suite (proxyFetch.test.ts) and the host
 * (test/integration/network.test.ts): each tunnel is recorded; without the wanted Proxy-Authorization
 * it is answered 407, else its bytes go to `inner`, a server of the test's own behind the proxy.
 */
import type * as http from 'node:http';
import type * as net from 'node:net';

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
