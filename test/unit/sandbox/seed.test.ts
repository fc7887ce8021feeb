import { test } from 'node:test';
import assert from 'node:assert/strict';
import { kind, objectKinds } from '../../../src/model/kinds';
import { sampleRanges } from '../../../src/model/statusCodes';
import { demoPlan, FolderPlan, modulesPerContainer } from '../../../src/sandbox/store/seed';
import { validate } from '../../../src/validation/validator';
import { start, withSandbox, Api } from './harness';

/** Walks the demo plan and the live folders side by side. */
async function walk(api: Api, plan: FolderPlan, folderKey: string, visit: (plan: FolderPlan, folderKey: string) => Promise<void>): Promise<void> {
  await visit(plan, folderKey);
  const children = (await api.get(`/api/f/${folderKey}/folders`)).body;
  assert.deepEqual(
    children.map((f: { CommonName: string }) => f.CommonName),
    (plan.folders ?? []).map((f) => f.name),
  );
  for (const [i, child] of (plan.folders ?? []).entries()) await walk(api, child, children[i].Key, visit);
}

test('demo seed: the planned folders and counts, every object valid against its schema', async () => {
  await withSandbox({}, async (api) => {
    const inst = (await api.get('/api')).body;
    assert.equal(inst.CommonName, demoPlan.name);
    assert.deepEqual(validate('instance.schema.json', inst), []);
    let people = 0;
    await walk(api, demoPlan, api.instanceKey, async (plan, folderKey) => {
      const expected: Record<string, number> = {
        engagesites: plan.engageSites ?? 0,
        inputscanners: plan.inputScanners ?? 0,
        servicecontainers: plan.serviceContainers ?? 0,
        servicecontainermodules: (plan.serviceContainers ?? 0) * modulesPerContainer,
        people: plan.people ?? 0,
      };
      for (const k of objectKinds) {
        const objects = await api.listAll(folderKey, k.collection);
        assert.equal(objects.length, expected[k.collection] ?? 0, `${plan.name} ${k.collection}`);
        for (const o of objects) assert.deepEqual(validate(k.schema, o), [], `${k.collection} ${o.CommonName}`);
        if (k.id === 'person') people += objects.length;
      }
      for (const f of (await api.get(`/api/f/${folderKey}/folders`)).body) assert.deepEqual(validate(kind('folder').schema, f), []);
    });
    assert.ok(people >= 260);
  });
});

test('demo seed: realistic fields for each kind', async () => {
  await withSandbox({}, async (api) => {
    const site = (await api.get(`/api/f/${api.instanceKey}/engagesites`)).body[0];
    assert.match(site.SiteReference, /^[0-9a-f-]{36}$/);
    assert.equal(Buffer.from(site.SiteKeyBase64, 'base64').length, 32);

    const floor1 = await api.folder('Floor 1', (await api.folder('Head Office')).Key);
    const scanner = (await api.get(`/api/f/${floor1.Key}/inputscanners`)).body[0];
    assert.deepEqual(
      scanner.InputScannerReportingPriorities.map((p: Record<string, unknown>) => [
        p.CommonName,
        p.MinResistanceCode,
        p.MaxResistanceCode,
        p.Priority,
        p.StatusCode,
      ]),
      sampleRanges.map((r) => [...r]),
    );
    assert.equal(scanner.NonSettlingErrorStatus, 6);

    const container = (await api.get(`/api/f/${api.instanceKey}/servicecontainers`)).body[0];
    assert.match(container.MacAddress, /^([0-9A-F]{2}:){5}[0-9A-F]{2}$/);
    const module = (await api.get(`/api/f/${api.instanceKey}/servicecontainermodules`)).body[0];
    for (const field of ['ProductName', 'VersionString', 'EntryPointDll', 'EntryPointName']) assert.equal(typeof module[field], 'string', field);

    const office = await api.folder('Head Office');
    const everyone = await api.listAll(office.Key, 'people');
    const types = new Set(everyone.flatMap((p) => (p.Addresses as Array<{ $type: string }>).map((a) => a.$type.replace(/^.*\.(\w+),.*$/, '$1'))));
    assert.deepEqual([...types].sort(), ['EmailAddressInfo', 'MailingAddressInfo', 'PhoneInfo']);
    const mails = everyone.flatMap((p) => (p.Addresses as Array<{ MailTo?: string }>).filter((a) => a.MailTo).map((a) => a.MailTo));
    assert.equal(new Set(mails).size, everyone.length, 'one distinct e-mail per person');
  });
});

test('seeds are deterministic; empty holds just the instance', async () => {
  const a = await start();
  const b = await start();
  try {
    assert.equal(a.instanceKey, b.instanceKey);
    const office = await a.folder('Head Office');
    assert.deepEqual(await a.listAll(office.Key, 'people'), await b.listAll(office.Key, 'people'));
  } finally {
    await a.sb.close();
    await b.sb.close();
  }
  const empty = await start({ seed: 'empty', instanceName: 'Bare' });
  try {
    assert.equal((await empty.get('/api')).body.CommonName, 'Bare');
    for (const k of ['folders', ...objectKinds.map((k) => k.collection)]) {
      assert.deepEqual((await empty.get(`/api/f/${empty.instanceKey}/${k}`)).body, [], k);
    }
  } finally {
    await empty.sb.close();
  }
});
