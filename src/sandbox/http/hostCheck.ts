/**
 * Which hosts the sandbox listens on and answers to: loopback only, unless
 * other machines are allowed explicitly. The Host header must name this
 * machine, so a web page that rebinds a DNS name to 127.0.0.1 cannot reach it.
 */
import { isIP } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';

/** Host names a local server answers to besides its bound address (and `*.localhost`, `127.*`). */
const loopbackNames = ['localhost', '127.0.0.1', '[::1]'];

/** True for `localhost` and loopback addresses (127.0.0.0/8, ::1): the only hosts served without `allowRemote`. */
export function isLoopback(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  return h === '::1' || h === '0:0:0:0:0:0:0:1' || /^::ffff:127\./.test(h);
}

/** With `allowRemote`: the names other machines reach this one by (its host name and interface addresses). */
function machineNames(): string[] {
  const names = [hostname().toLowerCase()];
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) names.push(a.family === 'IPv6' ? `[${a.address.toLowerCase()}]` : a.address);
  }
  return names;
}

/**
 * True when the Host header names this machine: a loopback name or the bound
 * address. Anything else (a DNS name pointing here from a web page) is 421.
 */
export function isLocalHost(hostHeader: string | undefined, names: ReadonlySet<string>): boolean {
  if (hostHeader === undefined) return true;
  // Clients send the same Host on every request: the last answer is kept per set of names.
  const last = lastAnswer.get(names);
  if (last?.host === hostHeader) return last.local;
  const local = hostNamesThisMachine(hostHeader, names);
  lastAnswer.set(names, { host: hostHeader, local });
  return local;
}

const lastAnswer = new WeakMap<ReadonlySet<string>, { host: string; local: boolean }>();

function hostNamesThisMachine(hostHeader: string, names: ReadonlySet<string>): boolean {
  const m = /^(\[[^\]]*\]|[^:]*)(?::\d+)?$/.exec(hostHeader.trim().toLowerCase());
  if (!m) return false;
  const name = m[1].replace(/\.$/, '');
  return names.has(name) || name.endsWith('.localhost') || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

/** Names the Host header may hold (the bound address is added once listening). */
export function localNamesFor(allowRemote: boolean): Set<string> {
  const names = new Set(loopbackNames);
  if (allowRemote) for (const name of machineNames()) names.add(name);
  return names;
}
