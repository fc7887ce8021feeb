/** A query file read as its editor and its CodeLens read it: queries, their scopes, their problems and completion. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseQueryFile, queryAt } from '../../../src/query/queryFile';
import { queryFileCompletions, queryFileProblems } from '../../../src/query/queryFileAssist';
import { demoQueryFile } from '../../../scripts/demoQueries';
import { newQueryFileText } from '../../../src/query/queryFileTemplate';
import { kind } from '../../../src/model/kinds';

const file = [
  '# Our queries',
  '# folder: Head Office',
  '# subfolders: no',
  '',
  '### Scanners with a fault at priority 1',
  '# kinds: inputScanner',
  'InputScannerReportingPriorities[?Priority == `1`',
  '  && StatusCode == `4`]',
  '',
  '# kinds: person',
  '!Addresses[?MailTo]',
  '',
  '### Anything named Door',
  "contains(CommonName, 'Door')",
  '# connection: Staging',
  '# folder: /',
  "contains(CommonName, 'Dock')",
].join('\n');

const kindIds = (k?: Array<{ id: string }>) => k?.map((x) => x.id);

test('queries are split at blank lines and comments; a query may span lines', () => {
  const { queries } = parseQueryFile(file);
  assert.deepEqual(
    queries.map((q) => q.text),
    [
      'InputScannerReportingPriorities[?Priority == `1`\n  && StatusCode == `4`]',
      '!Addresses[?MailTo]',
      "contains(CommonName, 'Door')",
      "contains(CommonName, 'Dock')",
    ],
  );
  assert.deepEqual(
    queries.map((q) => q.line),
    [6, 10, 13, 16],
  );
  for (const q of queries) assert.equal(file.slice(q.start, q.end), q.text);
  // A heading names the query under it; scope lines are not titles.
  assert.deepEqual(
    queries.map((q) => q.title),
    ['Scanners with a fault at priority 1', undefined, 'Anything named Door', undefined],
  );
});

test("scope lines hold below them up to the next heading; the file's, above the first heading, hold for every section", () => {
  const { queries, problems } = parseQueryFile(file);
  assert.deepEqual(problems, []);
  assert.deepEqual(kindIds(queries[0].scope.kinds), ['inputScanner']);
  assert.deepEqual(kindIds(queries[1].scope.kinds), ['person']);
  // A new heading: back to the file's scope (no kinds: every kind).
  assert.equal(queries[2].scope.kinds, undefined);
  for (const q of queries.slice(0, 3)) {
    assert.equal(q.scope.folder, 'Head Office');
    assert.equal(q.scope.subfolders, false);
    assert.equal(q.scope.connection, undefined);
  }
  assert.deepEqual(queries[3].scope, { folder: '', subfolders: false, connection: 'Staging' });
});

test('a bad scope line is an error at its value, with the nearest kind; a misspelt key is a warning', () => {
  const text = '# kinds: inputScaner, person\n# subfolders: maybe\n# kind: person\n# Note: plain prose\nCommonName';
  const { problems, queries } = parseQueryFile(text);
  assert.deepEqual(
    problems.map((p) => [p.severity, text.slice(p.start, p.start + p.length), p.message]),
    [
      ['error', 'inputScaner', 'inputScaner is not a kind a query can read; nearest: inputScanner'],
      ['error', 'maybe', 'subfolders is yes or no'],
      ['warning', 'kind', '"kind" is not a scope line and is read as a comment; did you mean "kinds:"?'],
    ],
  );
  assert.deepEqual(queries[0].scope, {});
});

test("each query's problems at their place in the file, compiled for its scope's kinds", () => {
  const text = '# kinds: inputScanner\nInputScannerReportingPriorities[?Priority == `1`\n  && StatusCod == `4`]\n\n# kinds: person\nCommonName ==';
  const problems = queryFileProblems(text);
  assert.deepEqual(
    problems.map((p) => [p.severity, text.slice(p.start, p.start + p.length)]),
    [
      ['warning', 'StatusCod'],
      ['error', ''],
    ],
  );
  assert.match(problems[0].message, /nearest: StatusCode/);
  // A query that ends too early: at its end.
  assert.equal(problems[1].start, text.length);
  assert.match(problems[1].message, /ends too early/);
  // The same field is a person's: no warning under `kinds: person`.
  assert.deepEqual(queryFileProblems('# kinds: person\nAddresses[?MailTo]'), []);
  assert.match(queryFileProblems('# kinds: engageSite\nAddresses[?MailTo]')[0].message, /Addresses is not a field of engage site/);
});

test('completion: scope keys after #, kind ids and yes/no in scope lines, fields of the kinds in scope in a query', () => {
  const at = (text: string) => {
    const c = queryFileCompletions(text, text.length);
    return { from: c.from, labels: c.items.map((i) => i.label) };
  };
  assert.deepEqual(at('# su'), { from: 2, labels: ['subfolders:'] });
  assert.deepEqual(at('# kinds: inputScanner, per'), { from: 23, labels: ['engageSite', 'serviceContainer', 'serviceContainerModule', 'person'] });
  assert.equal(queryFileCompletions('# kinds: inputScanner, per', 26).items.find((i) => i.label === 'person')?.detail, 'Person');
  assert.deepEqual(at('# subfolders: '), { from: 14, labels: ['yes', 'no'] });
  assert.deepEqual(at('# a comment'), { from: 11, labels: [] });
  const nested = at('# kinds: inputScanner\n\nInputScannerReportingPriorities[?Stat');
  assert.deepEqual(nested.labels, ['StatusCode']);
  assert.equal(nested.from, '# kinds: inputScanner\n\nInputScannerReportingPriorities[?'.length);
  // An enum value, with its label, after a comparison on the second line of a query.
  const text = '# kinds: inputScanner\nInputScannerReportingPriorities[?Priority == `1`\n && StatusCode == ';
  const values = queryFileCompletions(text, text.length).items;
  assert.equal(values.find((i) => i.detail === 'Supervisory fault, open circuit')?.insert, '`4`');
  // A blank line under `kinds: person`: the person's fields.
  const blank = '# kinds: person\n\n';
  assert.ok(queryFileCompletions(blank, blank.length).items.some((i) => i.label === 'Addresses'));
  assert.ok(!queryFileCompletions(blank, blank.length).items.some((i) => i.label === 'InputScannerReportingPriorities'));
});

test('the query at the cursor: the one it is on, else the next below', () => {
  const parsed = parseQueryFile(file);
  assert.equal(queryAt(parsed, file.indexOf('StatusCode'))?.line, 6);
  assert.equal(queryAt(parsed, 0)?.line, 6);
  assert.equal(queryAt(parsed, file.indexOf('# kinds: person'))?.line, 10);
  assert.equal(queryAt(parsed, file.length), parsed.queries[3]);
});

test("the demo's query file holds its four queries, each with its kinds and no problem", () => {
  const parsed = parseQueryFile(demoQueryFile);
  assert.deepEqual(
    parsed.queries.map((q) => kindIds(q.scope.kinds)),
    [['inputScanner'], ['inputScanner'], ['engageSite'], ['person']],
  );
  assert.deepEqual(queryFileProblems(demoQueryFile), []);
});

test("New Query File's text: the folder's scope and an example query, with no problem, for a group's kind too", () => {
  const text = newQueryFileText({ folder: 'Head Office/Floor 1' });
  const { queries } = parseQueryFile(text);
  assert.equal(queries.length, 1);
  assert.deepEqual(
    { ...queries[0].scope, kinds: kindIds(queries[0].scope.kinds) },
    { folder: 'Head Office/Floor 1', subfolders: true, kinds: ['inputScanner'] },
  );
  assert.deepEqual(queryFileProblems(text), []);
  const people = newQueryFileText({ folder: '', kind: kind('person'), connection: 'Staging' });
  assert.deepEqual(parseQueryFile(people).queries[0].scope, { folder: '', subfolders: true, connection: 'Staging', kinds: [kind('person')] });
  assert.deepEqual(queryFileProblems(people), []);
});
