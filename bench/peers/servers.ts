/**
 * The three servers of `sandbox.bench.ts`, each run in its own process (so the
 * load generator does not share its core):
 *   sandbox <dataFile|-> — the sandbox (durable with a data file, else memory)
 *   json-server <db.json> — json-server 0.17, the mock server people reach for
 *   bare <objects.json> [cached] — a bare node:http server holding the same objects in a
 *     Map: paging and replacement only, no checks, the sandbox's headers: the limit.
 *     `cached`: each page serialised once (the bytes are the same), so a GET is a lookup and a write
 * Prints `listening <url> <token> <folderKey>` once ready.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { startSandbox } from '../../src/sandbox/server';

async function sandbox(dataFile: string): Promise<void> {
  const sb = await startSandbox({ port: 0, seed: 'empty', dataFile: dataFile === '-' ? undefined : dataFile, token: 'bench' });
  process.stdout.write(`listening ${sb.url} ${sb.token} ${sb.instanceKey}\n`);
}

function jsonServer(db: string): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const js = require('json-server') as {
    create(): { use(m: unknown): void; listen(port: number, host: string, cb: () => void): { address(): AddressInfo } };
    router(file: string): unknown;
    defaults(o: object): unknown;
  };
  const app = js.create();
  app.use(js.defaults({ logger: false }));
  app.use(js.router(db));
  const server = app.listen(0, '127.0.0.1', () => {
    process.stdout.write(`listening http://127.0.0.1:${server.address().port} - -\n`);
  });
}

function bare(file: string, cached: boolean): void {
  const objects = new Map<string, unknown>((JSON.parse(readFileSync(file, 'utf8')) as Array<{ Key: string }>).map((o) => [o.Key, o]));
  const pages = new Map<string, Buffer>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const key = url.pathname.split('/')[2];
    if (req.method === 'GET' && !key) {
      const page = Number(url.searchParams.get('page') ?? 0);
      const size = Number(url.searchParams.get('pageSize') ?? 100);
      const id = `${page}/${size}`;
      let bytes = cached ? pages.get(id) : undefined;
      if (!bytes) bytes = Buffer.from(JSON.stringify([...objects.values()].slice(page * size, (page + 1) * size)));
      if (cached) pages.set(id, bytes);
      // The sandbox's headers, so that the same bytes go out.
      res.writeHead(200, { 'Cache-Control': 'no-store', 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': bytes.length }).end(bytes);
      return;
    }
    if (cached) pages.clear();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'PUT' && key && objects.has(key)) {
        objects.set(key, JSON.parse(Buffer.concat(chunks).toString('utf8')));
        res.writeHead(204).end();
      } else res.writeHead(404).end();
    });
  });
  server.keepAliveTimeout = 5000;
  server.listen(0, '127.0.0.1', () => process.stdout.write(`listening http://127.0.0.1:${(server.address() as AddressInfo).port} - -\n`));
}

const [which, arg, mode] = process.argv.slice(2);
if (which === 'sandbox') void sandbox(arg);
else if (which === 'json-server') jsonServer(arg);
else bare(arg, mode === 'cached');
