/**
 * `oms plan --format markdown` is posted as a pull-request comment as it is: rendered by a CommonMark/GFM
 * renderer (markdown-it with raw HTML and linkify on, so that HTML or a link would show), hostile names,
 * file names, file contents, reasons and the manifest's label and URL add no element or attribute to
 * what a plan of benign names renders, and each shows as visible text; the counts and every delete come
 * before the first table; a plan too long for a comment leaves out whole rows and says how many.
 */
import { test, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import MarkdownIt from 'markdown-it';
import { fileForm } from '../../../src/changes/code/fileForm';
import type { Plan } from '../../../src/changes/code/plan';
import { kind } from '../../../src/model/kinds';
import type { BaseInfo } from '../../../src/model/types';
import { planMarkdown } from '../../../src/cli/planMarkdown';
import { shown } from '../../../src/cli/planValues';
import { Api, person, start } from '../sandbox/harness';
import { buildOms, oms, OmsRun } from './oms';

const token = 'cli-markdown-test-token-5e1b7d';
let api: Api;
let warehouse: string;
let root: string;
const env: Record<string, string> = { OMS_TOKEN: token };

before(async () => {
  buildOms();
  api = await start({ seed: 'demo', token });
  warehouse = (await api.folder('Warehouse')).Key;
  env.OMS_URL = api.sb.url;
});
after(() => api.sb.close());
beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'oms-plan-md-'));
});
afterEach(() => fs.rm(root, { recursive: true, force: true }));

const ok = (run: OmsRun, code = 0) => assert.equal(run.code, code, `exit ${run.code}\nstdout: ${run.out}\nstderr: ${run.err}`);

/** One value of each class that Markdown, GitHub or GitLab would otherwise turn into something else. */
const hostile = [
  'hide <!-- the rest',
  '<img src=x onerror=alert(1)>',
  '@org/team look',
  '[t](javascript:alert(1))',
  'https://evil.example/x and www.evil.example',
  'bidi \u202Egnp.exe\u202C \u2066x\u2069 \u200F\u061C',
  'lone\rCR and \u0007 bell \u001B[31m',
  'LS\u2028PS\u2029NEL\u0085',
  'tick ` two `` three ```',
  'pipe | cell \\| end',
  'back\\slash at the end \\',
  '& entity &lt;b&gt; <b>bold</b> **star** _u_',
  'quick action\n/close\n/merge',
];

const renderer = new MarkdownIt({ html: true, linkify: true });

/** Every element and attribute name in rendered HTML (markdown-it escapes text, so every `<` left is markup). */
function markupOf(html: string): Set<string> {
  const found = new Set<string>();
  for (const [, name, attrs] of html.matchAll(/<\/?([a-zA-Z][\w:-]*)([^>]*)>/g)) {
    found.add(name.toLowerCase());
    for (const [, attr] of attrs.matchAll(/([^\s=/"']+)\s*(?:=|(?=\s|$))/g)) found.add(`${name.toLowerCase()}[${attr.toLowerCase()}]`);
  }
  if (/<!--/.test(html)) found.add('<!--');
  return found;
}

/** What a reader sees of rendered HTML: its text, entities decoded, without the zero-width spaces the escaping adds. */
function seen(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\u200B/g, '');
}

/** A value as the comment must show it: each invisible, bidi, control or line-breaking character written out. */
function visibleForm(text: string): string {
  return text.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu, (c) => `<U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}>`);
}

/** The same plan with every text from others replaced by a plain word: what the template alone renders. */
function benign(plan: Plan): Plan {
  let n = 0;
  const word = () => `plain${n++}`;
  const value = (v: unknown): unknown => (typeof v === 'string' ? word() : v);
  return {
    ...plan,
    connection: { ...plan.connection, label: word(), url: 'https://service.example' },
    entries: plan.entries.map((e) => ({
      ...e,
      label: word(),
      path: word(),
      ...(e.reason ? { reason: word() } : {}),
      changes: e.changes.map((c) => ({ pointer: c.pointer && `/${word()}`, from: value(c.from), to: value(c.to) })),
    })),
  };
}

async function manifestOf(): Promise<{ connection: { label: string }; folders: Record<string, string>; objects: Record<string, { path: string }> }> {
  return JSON.parse(await fs.readFile(path.join(root, 'oms.manifest.json'), 'utf8'));
}

async function pullPeople(): Promise<void> {
  ok(await oms(['pull', root, '--url', api.sb.url, '--folder', warehouse, '--kinds', 'person'], { env }));
}

async function peopleDir(): Promise<string> {
  return path.join(root, (await manifestOf()).folders[warehouse], 'people');
}

async function newOnService(name: string): Promise<string> {
  const res = await api.post(`/api/f/${warehouse}/people`, { ...person('Given', 'Surname'), CommonName: name });
  assert.ok(res.status < 300, res.text);
  return (res.body as BaseInfo).Key!;
}

const personFile = (name: string, surname = 'Surname') =>
  JSON.stringify(fileForm(kind('person'), { ...person('New', surname), CommonName: name }), null, 2) + '\n';

/** In a file name, a slash would make a folder: the same value with slashes as backslashes. */
const asFileName = (text: string, i: number) => `${i} ${text.replace(/\//g, '\\')}.json`;

test(
  "hostile names, file names, file contents, reasons and the manifest's label and URL render as visible text, no markup, every entry shown; " +
    'counts and deletes first; the terminal plan shows them with no control character',
  async () => {
    // On the service: objects named with each hostile value, some to update, some to delete.
    const updated = await Promise.all(hostile.map((h) => newOnService(`upd ${h}`)));
    const deleted = await Promise.all(hostile.map((h) => newOnService(`del ${h}`)));
    await pullPeople();
    const manifest = await manifestOf();
    for (const [i, key] of updated.entries()) {
      const file = path.join(root, manifest.objects[key].path);
      const o = JSON.parse(await fs.readFile(file, 'utf8')) as BaseInfo & { Surname: string };
      o.Surname = hostile[i];
      await fs.writeFile(file, JSON.stringify(o, null, 2) + '\n');
    }
    for (const key of deleted) await fs.rm(path.join(root, manifest.objects[key].path));
    const dir = await peopleDir();
    for (const [i, h] of hostile.entries()) {
      // New files named with each value, and broken files whose name and quoted content hold it.
      await fs.writeFile(path.join(dir, asFileName(`new ${h}`, i)), personFile(`new ${h}`, h));
      await fs.writeFile(path.join(dir, asFileName(`broken ${h}`, i)), `${h} {"CommonName": "${h}"`);
    }
    // Manifest entries that point out of their folder: refused, the refusal quoting their Key and path.
    const pulled = manifest.objects[updated[0]];
    for (const [i, h] of hostile.entries()) manifest.objects[`key ${i} ${h}`] = { ...pulled, path: `elsewhere/${h}.json` };
    manifest.connection.label = `label ${hostile.join(' ')}`;
    await fs.writeFile(path.join(root, 'oms.manifest.json'), JSON.stringify(manifest, null, 2) + '\n');

    const planFile = path.join(root, 'plan.json');
    const run = await oms(['plan', root, '--format', 'markdown', '--out', planFile], { env });
    ok(run, 1); // the broken files and refused manifest entries are invalid
    const plan = JSON.parse(await fs.readFile(planFile, 'utf8')) as Plan;
    const actions = (a: string) => plan.entries.filter((e) => e.action === a).length;
    assert.deepEqual(
      [actions('update'), actions('delete'), actions('create'), actions('invalid')],
      [hostile.length, hostile.length, hostile.length, 2 * hostile.length],
      run.out,
    );
    assert.equal(plan.connection.label, manifest.connection.label, "the manifest's label reaches the comment");
    const url = `https://evil.example/${hostile.join('/')}`;
    const comments = {
      'oms plan --format markdown': run.out,
      'a manifest URL of hostile text': planMarkdown({ ...plan, connection: { ...plan.connection, url } }),
    };

    // The same plan in a terminal or a CI log: no character that drives the terminal, hides or breaks a line.
    const log = await oms(['plan', root, '--format', 'text'], { env });
    ok(log, 1);
    const driving = [...log.out.matchAll(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu)].map(([c]) => visibleForm(c)).filter((c) => c !== '<U+000A>');
    assert.deepEqual(driving, [], 'a control, bidi or line-breaking character in the terminal plan');
    for (const e of plan.entries) assert.ok(log.out.includes(visibleForm(e.label)), `${visibleForm(e.label)} in the terminal plan\n${log.out}`);

    const template = markupOf(renderer.render(planMarkdown(benign(plan))));
    for (const [what, markdown] of Object.entries(comments)) {
      const html = renderer.render(markdown);
      const quickActions = markdown.split('\n').filter((line) => line.startsWith('/'));
      assert.deepEqual(quickActions, [], `${what}: a line GitLab would run as a quick action`);
      const extra = [...markupOf(html)].filter((m) => !template.has(m));
      assert.deepEqual(extra, [], `${what}: markup that is not the template's\n${html}`);
      const text = seen(html);
      const missing = [
        plan.connection.label,
        ...plan.entries.flatMap((e) => [e.label, e.path, e.reason ?? '', ...e.changes.slice(0, 10).flatMap((c) => [c.pointer, shown(c.from), shown(c.to)])]),
      ].filter((t) => !text.includes(visibleForm(t))); // a row shows 10 fields, then their count
      assert.deepEqual(missing.map(visibleForm), [], `${what}: not shown as text\n${text}`);
      const firstTable = html.indexOf('<table');
      assert.ok(firstTable > 0, html);
      const before = seen(html.slice(0, firstTable));
      assert.ok(before.includes(`0 to create · ${hostile.length} to update`.replace('0', String(hostile.length))), `counts before the first table\n${before}`);
      for (const e of plan.entries.filter((x) => x.action === 'delete')) {
        assert.ok(
          before.includes(visibleForm(e.label)) && before.includes(visibleForm(e.path)),
          `delete ${visibleForm(e.label)} before the first table\n${before}`,
        );
      }
    }
    assert.ok(text(comments['a manifest URL of hostile text']).includes(visibleForm(url)));
  },
);

const text = (markdown: string) => seen(renderer.render(markdown));

test(
  'a plan longer than a comment holds: under 65,536 characters, whole rows left out (creates first), ' +
    'counts per action of what was left out, every delete listed',
  async () => {
    const named = await Promise.all(Array.from({ length: 45 }, (_, i) => newOnService(`Leaving person ${String(i).padStart(2, '0')} ${'x'.repeat(40)}`)));
    await pullPeople();
    const manifest = await manifestOf();
    for (const key of named.slice(0, 40)) await fs.rm(path.join(root, manifest.objects[key].path));
    for (const key of named.slice(40)) {
      const file = path.join(root, manifest.objects[key].path);
      await fs.writeFile(file, (await fs.readFile(file, 'utf8')).replace('"Surname": "Surname"', '"Surname": "Edited"'));
    }
    const dir = await peopleDir();
    for (let i = 0; i < 600; i++) {
      const name = `Arriving person ${String(i).padStart(3, '0')} | ${'y'.repeat(60)}`;
      await fs.writeFile(path.join(dir, `arriving-${i}.json`), personFile(name));
    }
    for (let i = 0; i < 3; i++) await fs.writeFile(path.join(dir, `zz-broken-${i}.json`), '{"CommonName": ');
    const planFile = path.join(root, 'plan.json');
    const run = await oms(['plan', root, '--format', 'markdown', '--out', planFile], { env });
    ok(run, 1); // the broken files
    const plan = JSON.parse(await fs.readFile(planFile, 'utf8')) as Plan;
    assert.equal(plan.entries.length, 648, '--out holds the whole plan');
    const md = run.out;
    assert.ok(md.length < 65_536, `${md.length} UTF-16 code units`);

    // Whole rows only: each table line is one entry's row, its four cells closed; invalid and updates all shown.
    const rows = md.split('\n').filter((l) => /^\| (create|update|delete|invalid|stale|behind|deleteSkipped) /.test(l));
    for (const r of rows)
      assert.match(r, /^\| (create \| `?Arriving person \d{3} \\\| y{60}|update \| `?Leaving person 4\d x{40}|invalid \| `?zz-broken-\d\.json)`? \| .+ \|$/);
    const count = (action: string) => rows.filter((r) => r.startsWith(`| ${action} `)).length;
    assert.deepEqual([count('invalid'), count('update')], [3, 5], 'what needs a reviewer most is never left out before a create');
    const creates = count('create');
    assert.ok(creates > 50 && creates < 600, `${creates} creates shown`);
    assert.equal(new Set(rows).size, rows.length);
    const leftOut = 600 - creates;

    const html = renderer.render(md);
    const firstTable = html.indexOf('<table');
    const top = seen(html.slice(0, firstTable));
    assert.ok(top.includes('600 to create · 5 to update · 40 to delete · 3 invalid'), top);
    assert.ok(top.includes(`${leftOut} entries are left out to fit one comment (${leftOut} to create).`), top);
    assert.ok(top.includes('plan.json'), `names where the whole plan is\n${top}`);
    for (const e of plan.entries.filter((x) => x.action === 'delete'))
      assert.ok(top.includes(e.label) && top.includes(e.path), `${e.label} before the first table`);
    assert.equal(html.match(/<tr>/g)!.length, rows.length + 1, 'the table holds exactly the whole rows');

    // Deletes alone past the limit: the counts stay, the comment stays under it and counts the deletes it could not list.
    const oneDelete = plan.entries.find((e) => e.action === 'delete')!;
    const many = { ...plan, entries: Array.from({ length: 2000 }, (_, i) => ({ ...oneDelete, label: `${oneDelete.label} ${i}` })) };
    const crowded = planMarkdown(many, { fullPlan: 'plan.json' });
    assert.ok(crowded.length < 65_536, `${crowded.length}`);
    const listed = crowded.split('\n').filter((l) => l.startsWith('- Person ')).length;
    assert.ok(listed > 100 && listed < 2000, `${listed}`);
    assert.ok(text(crowded).includes(`0 to create · 0 to update · 2000 to delete`), crowded.slice(0, 500));
    assert.ok(text(crowded).includes(`${2000 - listed} entries are left out to fit one comment (${2000 - listed} to delete).`), crowded.slice(0, 500));
  },
);
