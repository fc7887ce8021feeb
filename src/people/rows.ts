/**
 * People read from a file, one row per person, each with the line it starts
 * on and the problems found before anything is sent. Plain TypeScript.
 */
import { kind } from '../model/kinds';
import { newObject } from '../model/templates';
import { makeType, TypeNaming } from '../model/typeName';
import type { AddressInfo, MailingAddressInfo, PersonInfo } from '../model/types';
import { validate } from '../validation/validator';
import { checkEmail } from './email';
import { l10n } from '../l10n';

export interface PersonRow {
  /** 1-based line of the file where the row (CSV record or JSON array item) starts. */
  line: number;
  /** 0-based position among the people of the file. */
  index: number;
  /** Where the row is, as messages name it: `line 12` (CSV), `item 3 (line 12)` or `item 3` (JSON, several on a line). */
  place: string;
  /** The person as it would be sent (also for invalid rows, so they can be written out and fixed). */
  person: PersonInfo;
  /** Why the row cannot be sent; empty when it is valid. */
  errors: string[];
}

export interface PeopleFile {
  format: 'csv' | 'json';
  rows: PersonRow[];
  /** Notes about the file as a whole (ignored columns, blank rows skipped...). */
  notes: string[];
  /** Lines skipped because they hold nobody (empty, or only commas). */
  blankLines: number[];
}

/** Thrown when the file as a whole cannot be read (not JSON, no header, not an array...). */
export class PeopleFileError extends Error {
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super(line ? l10n.t('line {0}: {1}', line, message) : message);
    this.name = 'PeopleFileError';
  }
}

export function validRows(file: PeopleFile): PersonRow[] {
  return file.rows.filter((r) => r.errors.length === 0);
}

export function invalidRows(file: PeopleFile): PersonRow[] {
  return file.rows.filter((r) => r.errors.length > 0);
}

/** `line 12: e-mail: ...; surname ...` (or `item 3: ...`), at most `max` rows, then a count. */
export function describeInvalid(rows: readonly PersonRow[], max = 10): string {
  const lines = rows.slice(0, max).map((r) => `${r.place}: ${r.errors.join('; ')}`);
  if (rows.length > max) lines.push(l10n.t('... and {0} more', rows.length - max));
  return lines.join('\n');
}

/** The fields a CSV row can carry. */
export interface PersonFields {
  commonName?: string;
  givenName?: string;
  surname?: string;
  email?: string;
  phone?: string;
  street?: string;
  city?: string;
  province?: string;
  country?: string;
  postalCode?: string;
  /** Separated by `;`. */
  tags?: string;
}

const blank = (v: string | undefined) => (v ?? '').trim();

/**
 * Makes people from CSV fields: PersonInfo holding what the row says, and of
 * the create sample only what has a value (`$type`, `IsGlobal`). Keys, hrefs
 * and empty lists are the server's to fill in, and an empty column is left
 * out rather than sent as null (the same to the service): a batch body is a
 * third smaller, which a batch add of 10,000 people feels at both ends.
 * The e-mail and phone are `Work` addresses, the mailing address a `Home` one
 * (free labels). What all people of a file share (the template, the type
 * names) is made once: a batch add builds ten thousand before its first request.
 */
export function personMaker(naming?: TypeNaming): (fields: PersonFields) => PersonInfo {
  const template = withValues(newObject(kind('person'), '', naming)) as PersonInfo;
  const address = (typeName: string, Type: string) => ({ $type: makeType(typeName, naming), IsPrivate: false, Type });
  const email = address('EmailAddressInfo', 'Work'),
    phone = address('PhoneInfo', 'Work'),
    mailing = address('MailingAddressInfo', 'Home');
  return (f) => {
    const given = blank(f.givenName),
      surname = blank(f.surname),
      mailTo = blank(f.email),
      number = blank(f.phone);
    const person = { ...template };
    person.CommonName = blank(f.commonName) || (given && surname ? `${given} ${surname}` : given || surname);
    const tags = blank(f.tags);
    if (tags)
      person.Tags = tags.includes(';')
        ? [
            ...new Set(
              tags
                .split(';')
                .map((t) => t.trim())
                .filter(Boolean),
            ),
          ]
        : [tags];
    if (given) person.GivenName = given;
    if (surname) person.Surname = surname;
    const addresses: AddressInfo[] = [];
    if (mailTo) addresses.push({ ...email, MailTo: mailTo });
    if (number) addresses.push({ ...phone, Number: number });
    const place: MailingAddressInfo = { ...mailing };
    let placed = false;
    for (const [field, name] of placeParts) {
      const value = blank(f[field]);
      if (value) {
        place[name] = value;
        placed = true;
      }
    }
    if (placed) addresses.push(place);
    if (addresses.length) person.Addresses = addresses;
    return person;
  };
}

/** The fields of a mailing address, each after the CSV field that fills it. */
const placeParts = [
  ['street', 'Street'],
  ['city', 'City'],
  ['province', 'Province'],
  ['country', 'Country'],
  ['postalCode', 'PostalCode'],
] as const;

/** The fields of `object` that hold something (not null, '' or an empty list). */
function withValues<T extends object>(object: T): Partial<T> {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== null && v !== '' && !(Array.isArray(v) && v.length === 0))) as Partial<T>;
}

/**
 * Problems of one person before sending: the person schema, a name, and every
 * e-mail address's syntax. `where` turns a JSON pointer into a column name
 * (CSV) or keeps the pointer (JSON).
 */
export function personErrors(person: unknown, where: (pointer: string) => string = (p) => p || '(item)'): string[] {
  const schemaErrors = validate('person.schema.json', person);
  if (!person || typeof person !== 'object' || Array.isArray(person)) return schemaErrors.map((e) => `${where(e.pointer)} ${e.message}`);
  const p = person as Partial<PersonInfo>;
  const named = isNamed(p.CommonName) || isNamed(p.GivenName) || isNamed(p.Surname);
  // A valid person, as nearly every row is: nothing more to look at.
  if (schemaErrors.length === 0) return named ? [] : [noName()];
  // The schema's `format: "email"` and checkEmail are one rule; checkEmail says why, so it speaks for
  // the addresses the schema refused (it refuses no other: a valid row costs no second look).
  const mailErrors = new Map<string, string>();
  for (const { pointer } of schemaErrors) {
    const at = /^\/Addresses\/(\d+)\/MailTo$/.exec(pointer);
    const mailTo = at && Array.isArray(p.Addresses) ? (p.Addresses[Number(at[1])] as { MailTo?: unknown } | null)?.MailTo : undefined;
    const problem = typeof mailTo === 'string' ? checkEmail(mailTo) : undefined;
    if (problem) mailErrors.set(pointer, `${where(pointer)} ${JSON.stringify(mailTo)}: ${problem.charAt(0).toLowerCase()}${problem.slice(1)}`);
  }
  const errors = schemaErrors.filter((e) => !mailErrors.has(e.pointer)).map((e) => `${where(e.pointer)} ${e.message}`);
  if (!named && !errors.some((e) => e.includes('CommonName'))) errors.push(noName());
  return [...errors, ...mailErrors.values()];
}

const noName = () => l10n.t('has no name (given name, surname or common name)');
const isNamed = (v: unknown) => typeof v === 'string' && v.trim() !== '';

/**
 * A person whose e-mail address an earlier row already has is flagged, not sent: three identical rows
 * would make three identical people. Addresses are compared trimmed and in lower case.
 */
export function flagDuplicates(rows: readonly PersonRow[]): void {
  const first = new Map<string, PersonRow>();
  for (const row of rows) {
    const addresses = Array.isArray(row.person?.Addresses) ? row.person.Addresses : [];
    for (const a of addresses) {
      const mail = (a as { MailTo?: unknown } | null)?.MailTo;
      if (typeof mail !== 'string' || !mail.trim()) continue;
      const key = mail.trim().toLowerCase();
      const earlier = first.get(key);
      if (!earlier) first.set(key, row);
      else if (earlier !== row) row.errors.push(l10n.t('same e-mail address as {0} ({1}): one person per address', earlier.place, mail.trim()));
    }
  }
}

/** A note on the blank lines skipped, or none. */
export function blankNote(lines: readonly number[]): string[] {
  if (!lines.length) return [];
  const shown = lines.slice(0, 5).join(', ') + (lines.length > 5 ? ', …' : '');
  return [lines.length > 1 ? l10n.t('{0} blank rows skipped (lines {1})', lines.length, shown) : l10n.t('1 blank row skipped (line {0})', shown)];
}
