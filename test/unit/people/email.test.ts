import { test } from 'node:test';
import assert from 'node:assert/strict';

import { newObject } from '../../../src/model/templates';
import { kind } from '../../../src/model/kinds';
import { makeType } from '../../../src/model/typeName';
import { checkEmail } from '../../../src/people/email';
import { validate } from '../../../src/validation/validator';

const addresses = [
  'ada@example.com',
  'first.last+tag@sub.example.co.uk',
  "o'brien@example.ie",
  'x@a-b.example',
  'a@b..c',
  'a@b.c.',
  'a@.b.c',
  'a@b',
  'two@@example.com',
  'a b@c.com',
  '.a@b.com',
  'a@-b.com',
  'not-an-address',
  '',
];

function schemaAccepts(mailTo: string): boolean {
  const person = {
    ...newObject(kind('person'), 'P'),
    Addresses: [{ $type: makeType('EmailAddressInfo'), Key: null, Href: null, IsPrivate: false, Type: 'Work', MailTo: mailTo }],
  };
  return !validate('person.schema.json', person).some((e) => e.pointer === '/Addresses/0/MailTo');
}

test('one rule: the schema\'s format "email" and the check as typed agree on every address', () => {
  for (const a of addresses) assert.equal(checkEmail(a) === undefined, schemaAccepts(a), a);
});

test('addresses the two old rules disagreed on are refused, with the reason', () => {
  assert.match(checkEmail('a@b..c')!, /not a full domain/);
  assert.match(checkEmail('a@b.c.')!, /not a full domain/);
  assert.equal(checkEmail(' ada@example.com '), undefined);
});
