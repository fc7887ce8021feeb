/** Completion of a query from the kinds' schemas: what a user typing in the query box or a query file is offered. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { kind } from '../../../src/model/kinds';
import { completeAt } from '../../../src/query/complete';

const scanners = [kind('inputScanner')];
const at = (text: string, kinds = scanners) => completeAt(text, text.length, kinds);
const fields = (text: string, kinds = scanners) =>
  at(text, kinds)
    .items.filter((i) => i.kind === 'field')
    .map((i) => i.insert);

test('a field of the kind, by its first letters, replacing the word typed', () => {
  const c = at('length(Tags) > `0` && Inp');
  assert.deepEqual(
    c.items.filter((i) => i.kind === 'field').map((i) => i.insert),
    ['InputScannerReportingPriorities'],
  );
  assert.equal(c.from, 22);
  assert.match(c.items[0].detail ?? '', /^array: Eight groups/);
});

test("inside a filter or projection of the reporting priorities: the rows' own fields, not the scanner's", () => {
  assert.deepEqual(fields('InputScannerReportingPriorities[?'), ['$type', 'CommonName', 'Priority', 'StatusCode', 'MinResistanceCode', 'MaxResistanceCode']);
  assert.deepEqual(fields('InputScannerReportingPriorities[?Priority == `1` && Max'), ['MaxResistanceCode']);
  assert.deepEqual(fields('sort_by(InputScannerReportingPriorities, &Min'), ['MinResistanceCode']);
  assert.deepEqual(fields('InputScannerReportingPriorities[0].Stat'), ['StatusCode']);
  assert.deepEqual(fields('Addresses[?Mai', [kind('person')]), ['MailTo']);
});

test('after a comparison with an enum field: its values as JMESPath literals, with their labels', () => {
  const c = at('InputScannerReportingPriorities[?StatusCode == ');
  assert.deepEqual(
    c.items.map((i) => i.insert),
    ['`0`', '`1`', '`2`', '`3`', '`4`', '`5`', '`6`'],
  );
  assert.equal(c.items[4].detail, 'Supervisory fault, open circuit');
  assert.deepEqual(at('InputScannerReportingPriorities[?StatusCode == `').items.map((i) => i.insert)[4], '4`', 'an opened backtick is not typed twice');
  assert.deepEqual(at('NonSettlingErrorStatus != ').items.length, 7);
});

test('no field where JMESPath wants an operator; functions where an expression starts', () => {
  assert.deepEqual(fields('CommonName '), []);
  assert.ok(at('len').items.some((i) => i.insert === 'length('));
  assert.ok(!at('InputScannerReportingPriorities[0].len').items.some((i) => i.kind === 'function'));
});
