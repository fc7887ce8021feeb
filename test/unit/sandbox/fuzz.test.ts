/**
 * Attacks the sandbox over a real socket: every kind and action with wrong
 * types per field, deep nesting, huge strings, odd percent-encodings and dot
 * segments, wrong methods and content types, prototype-pollution keys.
 * Asserts no 5xx, no hang, the server alive, and every stored object valid
 * (also after a restart from its data file). Deterministic (seeded), bounded.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { kinds, objectKinds } from '../../../src/model/kinds';
import { actionRoutes } from '../../../src/model/routes';
import { prng } from '../../../src/sandbox/store/seed';
import { validate } from '../../../src/validation/validator';
import { Api, sample, start } from './harness';

interface Answer {
  status: number;
  text: string;
}

/** One request exactly as given (path bytes untouched), answered within 5 s or the test fails. */
function send(api: Api, agent: Agent, method: string, rawPath: string, body?: string, headers: Record<string, string> = {}): Promise<Answer> {
  const { hostname, port } = new URL(api.sb.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: hostname,
        port,
        method,
        path: rawPath,
        agent,
        headers: { Authorization: `Bearer ${api.sb.token}`, ...(body !== undefined ? { 'Content-Length': String(Buffer.byteLength(body)) } : {}), ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => {
          if (text.length < 2000) text += d;
        });
        res.on('end', () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, text });
        });
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no answer within 5 s: ${method} ${rawPath.slice(0, 200)}`));
    }, 5000);
    req.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    req.end(body);
  });
}

const wrongValues: unknown[] = [null, 0, -1.5, 1e308, '', 'x', true, [], {}, [1, 'a'], { a: { b: [] } }, '\u0000\ud800', 'A'.repeat(70_000)];
const pollution = ['{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}', '{"prototype":{"polluted":1}}'];
const oddSegments = [
  '%',
  '%zz',
  '%00',
  '%2e%2e',
  '..',
  '.',
  '%2f',
  '%5c..%5c',
  '%C0%AE%C0%AE',
  '%F0%9F%98%80',
  '%ff',
  '\u00e9'.normalize(),
  '%252e',
  'a%2Fb',
  '~',
  '%20',
];
const methods = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'PROPFIND'];
const contentTypes = [
  'application/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=latin1',
  'application/merge-patch+json',
  '',
];

/** Deeply nested JSON text (4,000 levels) inside an otherwise valid object. */
function deep(base: unknown): string {
  const text = JSON.stringify(base);
  return `${text.slice(0, -1)},"Extra":${'{"a":['.repeat(2000)}1${']}'.repeat(2000)}}`;
}

test('fuzz: no 5xx, no hang, still serving, every stored object valid', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'oms-fuzz-'));
  const dataFile = path.join(dir, 'data.json');
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  const random = prng(0xf022);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  let api = await start({ dataFile });
  const seen = new Map<number, number>();
  const check = async (method: string, p: string, body?: string, headers?: Record<string, string>) => {
    const res = await send(api, agent, method, p, body, headers);
    seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
    assert.ok(res.status < 500, `${method} ${p.slice(0, 120)} ${body?.slice(0, 120) ?? ''} -> ${res.status} ${res.text.slice(0, 300)}`);
    return res;
  };
  try {
    const folder = api.instanceKey;
    const folders = [folder];
    for (let i = 0; i < folders.length; i++) folders.push(...(await api.listAll(folders[i], 'folders')).map((f) => f.Key as string));
    // One stored object of each kind to attack, wherever the demo data has one.
    const targets = new Map<string, { collection: string; item: string }>();
    for (const k of objectKinds) {
      for (const f of folders) {
        const existing = (await api.get(`/api/f/${f}/${k.collection}?pageSize=1`)).body[0];
        if (existing) {
          targets.set(k.id, { collection: `/api/f/${f}/${k.collection}`, item: existing.Href });
          break;
        }
      }
      // A kind the demo data does not seed (one added since): create one to attack.
      if (!targets.has(k.id) && k.operations.includes('create')) {
        const created = (await api.post(`/api/f/${folder}/${k.collection}`, sample(k.id, `Fuzz target ${k.label}`))).body;
        targets.set(k.id, { collection: `/api/f/${folder}/${k.collection}`, item: created.Href });
      }
    }
    assert.equal(targets.size, objectKinds.length);

    for (const k of objectKinds) {
      const t = targets.get(k.id)!;
      const valid = sample(k.id, `Fuzz ${k.label}`) as Record<string, unknown>;
      const current = (await api.get(t.item)).body as Record<string, unknown>;
      const fields = [...new Set([...Object.keys(valid), ...Object.keys(current), 'Tags', 'Notes', 'ObjectLinks', 'Addresses'])];
      // Wrong types per field, on create and update.
      for (const field of fields) {
        for (const value of wrongValues.filter(() => random() < 0.5)) {
          await check('POST', t.collection, JSON.stringify({ ...valid, [field]: value }), { 'Content-Type': 'application/json' });
          const latest = (await api.get(t.item)).body as Record<string, unknown>;
          await check('PUT', t.item, JSON.stringify({ ...latest, [field]: value }), { 'Content-Type': 'application/json' });
          // Inside arrays and objects of the field too.
          await check('POST', t.collection, JSON.stringify({ ...valid, [field]: [value, { [field]: value }] }), { 'Content-Type': 'application/json' });
        }
      }
      // Deep nesting, huge strings, pollution keys, non-objects.
      for (const body of [
        deep(valid),
        JSON.stringify({ ...valid, CommonName: 'x'.repeat(3_000_000) }),
        ...pollution,
        ...pollution.map((p) => `${JSON.stringify(valid).slice(0, -1)},${p.slice(1)}`),
        '[]',
        '"text"',
        '1',
        'null',
        '{',
        '',
      ]) {
        await check('POST', t.collection, body, { 'Content-Type': 'application/json' });
        await check('PUT', t.item, body, { 'Content-Type': 'application/json' });
      }
      // Notes with odd bodies.
      for (const body of ['""', '" "', '{"NoteText":7}', '{"__proto__":{"NoteText":"x"}}', deep({ NoteText: 'n' }), JSON.stringify('n'.repeat(2_000_000))]) {
        await check('POST', `${t.item}/notes`, body, { 'Content-Type': 'application/json' });
      }
      // Wrong methods and content types on every route of the kind.
      for (const p of [t.collection, t.item, `${t.item}/notes`, `${t.item}/notes/${'0'.repeat(24)}`, `${t.collection}/complex`, `${t.item}/invite`]) {
        for (const method of methods) {
          const type = pick(contentTypes);
          await check(method, p, method === 'GET' || method === 'HEAD' ? undefined : JSON.stringify(valid), type ? { 'Content-Type': type } : {});
        }
      }
    }

    // Actions: invite, batch, push notification with odd bodies.
    const site = targets.get('engageSite')!;
    const people = targets.get('person')!;
    for (const body of [
      '"a@b..c"',
      '"a@b.c."',
      '"@"',
      '"a@b.c"',
      JSON.stringify(`${'a'.repeat(5000)}@example.com`),
      '["a@b.c"]',
      '{"Email":"a@b.c"}',
      ...pollution,
      deep({ a: 1 }),
    ]) {
      await check(actionRoutes.invite.method, `${site.item}/${actionRoutes.invite.segment}`, body, { 'Content-Type': 'application/json' });
    }
    const person = sample('person', 'Batch Fuzz');
    for (const body of [
      JSON.stringify([person, { ...person, Addresses: [{ $type: 'x' }] }]),
      JSON.stringify(Array(20_000).fill({ Surname: [] })),
      JSON.stringify([{ ...person, Tags: ['Upper Case'] }]),
      `[${pollution.join(',')}]`,
      `[${deep(person)}]`,
      '{}',
      '[[]]',
      JSON.stringify([null, 1, 'x']),
    ]) {
      await check(actionRoutes.addPeople.method, `${people.collection}/${actionRoutes.addPeople.segment}`, body, { 'Content-Type': 'application/json' });
    }
    for (const body of ['{}', '{"Recipients":"x"}', ...pollution, deep({}), JSON.stringify({ Subject: 'x'.repeat(1_000_000) })]) {
      await check(actionRoutes.pushNotification.method, `/api/f/${folder}/${actionRoutes.pushNotification.segment}`, body, {
        'Content-Type': 'application/json',
      });
    }

    // Odd percent-encodings and dot segments anywhere in a path.
    const paths = [...targets.values()].flatMap((t) => [t.collection, t.item, `${t.item}/notes`]);
    for (let i = 0; i < 300; i++) {
      const parts = pick(paths).split('/');
      parts[1 + Math.floor(random() * (parts.length - 1))] = pick(oddSegments);
      if (random() < 0.3) parts.splice(1 + Math.floor(random() * (parts.length - 1)), 0, pick(oddSegments));
      const query = random() < 0.3 ? `?page=${pick(['-1', 'x', '1e3', '%', '99999999999', '0'])}&pageSize=${pick(['0', '1001', 'NaN', '%zz', '5'])}` : '';
      await check(pick(methods), parts.join('/') + query, random() < 0.5 ? JSON.stringify(sample('engageSite')) : undefined, {
        'Content-Type': 'application/json',
      });
    }
    // Token endpoint with odd forms.
    for (const body of [
      'grant_type=password&username=%zz&password=',
      '{"grant_type":{"a":[1]}}',
      deep({}),
      'grant_type=refresh_token&refresh_token=__proto__',
    ]) {
      const res = await check('POST', '/token', body, { 'Content-Type': pick(['application/json', 'application/x-www-form-urlencoded']) });
      assert.notEqual(res.status, 200);
    }

    assert.equal(({} as { polluted?: unknown }).polluted, undefined, 'no prototype was polluted');
    assert.equal((await api.get('/api')).status, 200, 'still serving');
    assert.ok((seen.get(400) ?? 0) > 100, `statuses seen: ${JSON.stringify([...seen])}`);

    const allValid = async (when: string) => {
      let count = 0;
      for (const f of folders) {
        for (const k of kinds.values()) {
          for (const obj of await api.listAll(f, k.collection)) {
            count++;
            assert.deepEqual(validate(k.schema, obj), [], `${when}: stored ${k.id} ${obj.Key} is valid`);
          }
        }
      }
      assert.ok(count > 250, `${count} objects checked`);
    };
    await allValid('after the fuzz');
    await api.sb.close();
    api = await start({ dataFile });
    await allValid('after a restart');
  } finally {
    agent.destroy();
    await api.sb.close();
    await rm(dir, { recursive: true, force: true });
  }
});
