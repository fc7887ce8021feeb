/**
 * The HTTP function against faults the sandbox cannot produce: a tiny
 * node:http server on 127.0.0.1 that cuts bodies short, answers too much,
 * compresses a bomb or echoes the Authorization header.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { createHttp, HttpOptions } from '../../../src/api/http';
import { OmsClient } from '../../../src/api/client';
import { apiError } from './apiError';
import { kind } from '../../../src/model/kinds';

interface Seen {
  method?: string;
  url?: string;
  authorization?: string;
}

/** Runs `body` against a server answering with `handler`; returns what the server saw. */
async function withServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  body: (baseUrl: string, seen: Seen[]) => Promise<void>,
): Promise<Seen[]> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method, url: req.url, authorization: req.headers.authorization });
    req.resume();
    req.on('end', () => handler(req, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    await body(`http://127.0.0.1:${(server.address() as { port: number }).port}`, seen);
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
  return seen;
}

const options = (baseUrl: string, extra: Partial<HttpOptions> = {}): HttpOptions => ({
  baseUrl,
  token: () => 'secret-token-4711',
  backoffMs: 1,
  timeoutMs: 20_000,
  ...extra,
});

const cutShort = (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '1000' });
  res.write('[{"Key":"a"');
  setTimeout(() => res.socket?.destroy(), 20);
};

test('a body cut short inside its Content-Length is a network error at once, not a time-out; reads are retried', async () => {
  const seen = await withServer(cutShort, async (url) => {
    const http = createHttp(options(url, { maxAttempts: 3 }));
    const error = await apiError(http({ method: 'GET', path: '/api' }));
    assert.equal(error.kind, 'network', error.message);
    assert.match(error.message, /closed before the whole answer arrived/);
  });
  assert.equal(seen.length, 3, 'a read is tried again');
});

test('a write whose answer is cut short is not sent again', async () => {
  const seen = await withServer(cutShort, async (url) => {
    const http = createHttp(options(url, { maxAttempts: 3 }));
    const error = await apiError(http({ method: 'POST', path: '/api/f/f1/engagesites', json: {} }));
    assert.equal(error.kind, 'network');
  });
  assert.equal(seen.length, 1, 'a write goes out once');
});

test('an answer larger than the cap is a clear error and is not retried', async () => {
  const big = Buffer.alloc(3 * 1024 * 1024, 0x20);
  const seen = await withServer(
    (_req, res) => {
      // Chunked, so no Content-Length announces the size: the cap counts what arrives.
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(big);
    },
    async (url) => {
      const http = createHttp(options(url, { maxResponseBytes: 1024 * 1024, maxAttempts: 4 }));
      const error = await apiError(http({ method: 'GET', path: '/api' }));
      assert.equal(error.kind, 'tooLarge');
      assert.match(error.message, /larger than 1 MB \(setting oms\.maxResponseMegabytes\)/);
    },
  );
  assert.equal(seen.length, 1, 'never retried');
});

test('an answer that announces more than the cap is refused before it is read', async () => {
  const big = Buffer.alloc(3 * 1024 * 1024, 0x20);
  const seen = await withServer(
    (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(big.length) });
      res.end(big);
    },
    async (url) => {
      const error = await apiError(createHttp(options(url, { maxResponseBytes: 1024 * 1024 }))({ method: 'GET', path: '/api' }));
      assert.equal(error.kind, 'tooLarge');
    },
  );
  assert.equal(seen.length, 1, 'never retried');
});

test('a gzip bomb stops at the cap, counted after decompression', async () => {
  const bomb = gzipSync(Buffer.alloc(200 * 1024 * 1024, 0x20));
  assert.ok(bomb.length < 1024 * 1024, 'the compressed answer itself is under the cap');
  const heapBefore = process.memoryUsage().rss;
  const seen = await withServer(
    (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', 'Content-Length': String(bomb.length) });
      res.end(bomb);
    },
    async (url) => {
      const http = createHttp(options(url, { maxResponseBytes: 4 * 1024 * 1024 }));
      const error = await apiError(http({ method: 'GET', path: '/api' }));
      assert.equal(error.kind, 'tooLarge', error.message);
    },
  );
  assert.equal(seen.length, 1, 'never retried');
  assert.ok(process.memoryUsage().rss - heapBefore < 100 * 1024 * 1024, 'the 200 MB were never held');
});

test('the token is masked in any message built from the answer', async () => {
  await withServer(
    (req, res) => {
      res.writeHead(400, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          Message: `Header not accepted: ${req.headers.authorization}`,
          Errors: [{ pointer: '/x', message: `saw ${req.headers.authorization}` }],
        }),
      );
    },
    async (url) => {
      const error = await apiError(createHttp(options(url))({ method: 'GET', path: '/api' }));
      assert.equal(error.kind, 'validation');
      assert.ok(!error.message.includes('secret-token-4711'), error.message);
      assert.match(error.message, /Bearer \*\*\*/);
      assert.ok(!JSON.stringify(error.details).includes('secret-token-4711'));
    },
  );
  await withServer(
    (req, res) => {
      res.writeHead(502, { 'Content-Type': 'text/plain' });
      res.end(`proxy error for request with Authorization: ${req.headers.authorization}`);
    },
    async (url) => {
      const error = await apiError(createHttp(options(url, { maxAttempts: 1 }))({ method: 'GET', path: '/api' }));
      assert.ok(!error.message.includes('secret-token-4711'), error.message);
    },
  );
});

test('a refresh token or password echoed by the token endpoint is masked too', async () => {
  await withServer(
    (req, res) => {
      res.writeHead(400, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error_description: 'refresh_token=rt-9876543 and password=hunter22 refused' }));
    },
    async (url) => {
      const http = createHttp(options(url));
      const error = await apiError(
        http({ method: 'POST', path: '/token', anonymous: true, form: { grant_type: 'refresh_token', refresh_token: 'rt-9876543', password: 'hunter22' } }),
      );
      assert.ok(!/rt-9876543|hunter22/.test(error.message), error.message);
    },
  );
});

test('keys that are . or .. or hold a slash are refused before anything is sent', async () => {
  const seen = await withServer(
    (_req, res) => res.end('{}'),
    async (url) => {
      const client = new OmsClient(createHttp(options(url)));
      const site = kind('engageSite');
      for (const attempt of [
        () => client.delete(site, 'f1', '..'),
        () => client.get(site, 'f1', '.'),
        () => client.get(site, 'f1', 'a/b'),
        () => client.list(site, '..'),
        () => client.folder('x/..'),
        () => client.notes(site, 'f1', '..'),
        () => client.deleteNote(site, 'f1', 'k1', '..'),
        () => client.invite('..', 'k1', 'a@example.com'),
      ]) {
        let promise: Promise<unknown> | undefined;
        assert.doesNotThrow(() => {
          promise = attempt();
        }, 'a rejected promise, not a synchronous throw');
        const error = await apiError(promise!);
        assert.equal(error.kind, 'validation');
        assert.match(error.message, /Not a valid (folder |note )?key: ".*": refused before sending/);
      }
    },
  );
  assert.deepEqual(seen, [], 'no request reached the server');
});

test('each request reads its base URL and token together, once, whatever the retries', async () => {
  let calls = 0;
  let answered = 0;
  await withServer(
    (_req, res) => {
      answered++;
      res.writeHead(answered < 3 ? 503 : 200, { 'Content-Type': 'application/json' });
      res.end('{}');
    },
    async (url) => {
      const http = createHttp({ endpoint: () => ({ baseUrl: url, token: `token-${++calls}` }), backoffMs: 1 });
      await http({ method: 'GET', path: '/api' });
    },
  ).then((seen) => {
    assert.equal(calls, 1);
    assert.deepEqual(
      seen.map((s) => s.authorization),
      ['Bearer token-1', 'Bearer token-1', 'Bearer token-1'],
    );
  });
});

test('a web page where the service was expected (a 404 page, a portal) is one short line naming the address', async () => {
  const page =
    `<!DOCTYPE html><html><head><title>404 Not Found</title><style>${'body{color:red}'.repeat(200)}</style></head>` +
    '<body><h1>Not Found</h1><p>The requested URL was not found on this server.</p></body></html>';
  for (const [status, type] of [
    [404, 'text/html; charset=utf-8'],
    [200, 'text/html'],
    [500, 'text/plain'],
  ] as const) {
    await withServer(
      (_req, res) => {
        res.writeHead(status, { 'Content-Type': type });
        res.end(page);
      },
      async (url) => {
        const error = await apiError(createHttp(options(`${url}/oms/`, { maxAttempts: 1 }))({ method: 'GET', path: '/api' }));
        assert.equal(error.message, `${url}/oms answered with a web page (${status}), not the service: check the connection's URL`);
        assert.equal(error.kind, 'server', 'not "not found": the object is not what is missing');
      },
    );
  }
});
