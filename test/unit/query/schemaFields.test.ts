/** The fields queries know come from schemas/ through the kinds registry: every kind's, nested fields and enum values included. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { kind, kinds } from '../../../src/model/kinds';
import { columnChoices, fieldsOfKinds, schemaKnown } from '../../../src/query/schemaFields';

test("every kind of the registry has its schema's fields (a new kind's schema must be added to schemaFields.ts)", () => {
  for (const k of kinds.values()) {
    assert.ok(schemaKnown(k), `${k.id}: ${k.schema} is not in src/query/schemaFields.ts`);
    assert.ok(fieldsOfKinds([k]).fields?.has('CommonName'), `${k.id} has the base fields`);
  }
});

test("a scanner's reporting priorities have their nested fields, and the status code its enum values with their labels", () => {
  const rows = fieldsOfKinds([kind('inputScanner')]).fields?.get('InputScannerReportingPriorities');
  assert.ok(rows?.types.includes('array'));
  if (!rows) return;
  const status = rows.fields?.get('StatusCode');
  assert.deepEqual(
    status?.enum?.map((e) => e.value),
    [0, 1, 2, 3, 4, 5, 6],
  );
  assert.equal(status?.enum?.[4].description, 'Supervisory fault, open circuit');
  assert.ok(rows.fields?.has('MinResistanceCode'));
});

test("several kinds' fields together: a person's addresses beside a scanner's rows", () => {
  const f = fieldsOfKinds([kind('person'), kind('inputScanner')]).fields ?? new Map();
  assert.ok(f.has('Addresses') && f.has('InputScannerReportingPriorities') && f.has('Surname'));
  assert.ok(f.get('Addresses')?.fields?.has('MailTo'), 'the address variants (anyOf) are merged');
});

test("the results' column choices: top-level fields and those one level inside, as expressions that read them", () => {
  const choices = columnChoices([kind('inputScanner')]);
  assert.ok(choices.includes('InputScannerReportingPriorities') && choices.includes('InputScannerReportingPriorities[*].StatusCode'));
  assert.ok(!choices.includes('CommonName') && !choices.includes('Key'), 'Name and Key are columns already');
  const person = columnChoices([kind('person')]);
  assert.ok(person.includes('Addresses[*].MailTo'), person.filter((c) => c.startsWith('Addresses')).join(', '));
});
