/**
 * Open connections of the sandbox, bounded twice: in all (`max`) and per peer
 * address (`perAddress`, below `max`), so that one peer holding many idle
 * connections cannot lock others out. When a bound is reached, the oldest
 * idle connection under it (no request in progress) is closed to make room;
 * when none is idle, the newcomer gets a 503 and is closed.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionLimits {
  max: number;
  perAddress: number;
}

/** A connection by its peer's address and port: the same for a TLS socket and the TCP socket under it. */
const id = (socket: Socket) => `${socket.remoteAddress}|${socket.remotePort}`;

export class Connections {
  /** In the order they were accepted: the first idle one is the oldest. */
  private readonly open = new Set<Socket>();
  private readonly byAddress = new Map<string, Set<Socket>>();
  /** Requests in progress per connection id. */
  private readonly busy = new Map<string, number>();

  constructor(
    private readonly limits: ConnectionLimits,
    private readonly tls: boolean,
  ) {}

  attach(server: Server): void {
    server.on('connection', (socket: Socket) => this.accept(socket));
    server.on('request', (req, res) => {
      const key = id(req.socket);
      this.busy.set(key, (this.busy.get(key) ?? 0) + 1);
      res.once('close', () => {
        const n = (this.busy.get(key) ?? 1) - 1;
        if (n > 0) this.busy.set(key, n);
        else this.busy.delete(key);
      });
    });
  }

  /** Open connections in all and from the busiest address. */
  get counts(): { open: number; mostFromOneAddress: number } {
    let most = 0;
    for (const set of this.byAddress.values()) most = Math.max(most, set.size);
    return { open: this.open.size, mostFromOneAddress: most };
  }

  private accept(socket: Socket): void {
    const address = socket.remoteAddress ?? '';
    const mine = this.byAddress.get(address) ?? new Set<Socket>();
    if (mine.size >= this.limits.perAddress && !this.closeIdle(mine)) {
      return this.refuse(socket, `The sandbox has too many open connections from your address (${this.limits.perAddress}); try again`);
    }
    if (this.open.size >= this.limits.max && !this.closeIdle(this.open)) {
      return this.refuse(socket, `The sandbox has too many open connections (${this.limits.max}); try again`);
    }
    this.open.add(socket);
    mine.add(socket);
    this.byAddress.set(address, mine);
    socket.once('close', () => this.forget(socket, address));
  }

  private forget(socket: Socket, address: string): void {
    this.open.delete(socket);
    const set = this.byAddress.get(address);
    set?.delete(socket);
    if (set?.size === 0) this.byAddress.delete(address);
  }

  /** Closes the oldest connection of `among` with no request in progress; false when every one is busy. */
  private closeIdle(among: ReadonlySet<Socket>): boolean {
    for (const socket of among) {
      if (this.busy.has(id(socket))) continue;
      this.forget(socket, socket.remoteAddress ?? '');
      socket.destroy();
      return true;
    }
    return false;
  }

  private refuse(socket: Socket, message: string): void {
    if (this.tls) {
      // No HTTP can be spoken before the TLS handshake: just close.
      socket.destroy();
      return;
    }
    const body = JSON.stringify({ Message: message });
    socket.end(
      'HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\nRetry-After: 1\r\nConnection: close\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    socket.destroySoon();
  }
}
