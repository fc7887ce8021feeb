/**
 * People from CSV: a header row, then one person per record. Header names are
 * matched case-insensitively, ignoring spaces, dashes, dots and underscores,
 * with the usual spellings (First Name, Given name, E-mail, Zip...). A BOM and
 * CRLF are handled; quoting by csv-parse. Plain TypeScript.
 */
import { parse } from 'csv-parse/sync';
import type { TypeNaming } from '../model/typeName';
import type { PersonInfo } from '../model/types';
import { decodePeople } from './encoding';
import { blankNote, PeopleFile, PeopleFileError, PersonFields, personErrors, personMaker, PersonRow } from './rows';
import { l10n } from '../l10n';

type Field = keyof PersonFields;

/** Accepted header spellings, normalized (lower case, letters and digits only). */
const headerAliases: Readonly<Record<Field, readonly string[]>> = {
  commonName: ['commonname', 'name', 'fullname', 'displayname'],
  givenName: ['givenname', 'firstname', 'first', 'given', 'forename', 'prenom', 'prénom'],
  surname: ['surname', 'lastname', 'last', 'familyname', 'family', 'nom'],
  email: ['email', 'emailaddress', 'mail', 'mailto', 'courriel'],
  phone: ['phone', 'phonenumber', 'telephone', 'telephonenumber', 'tel', 'mobile', 'mobilephone', 'cell', 'cellphone'],
  street: ['street', 'streetaddress', 'address', 'addressline1', 'address1', 'mailingstreet'],
  city: ['city', 'town', 'locality', 'mailingcity'],
  province: ['province', 'state', 'region', 'provincestate', 'stateprovince', 'county', 'mailingprovince', 'mailingstate'],
  country: ['country', 'countryregion', 'nation', 'mailingcountry'],
  postalCode: ['postalcode', 'postcode', 'zip', 'zipcode', 'postal', 'mailingpostalcode', 'mailingzip'],
  tags: ['tags', 'tag', 'groups', 'labels'],
};

/** Names used in messages about a row. */
const fieldLabels: Readonly<Record<Field, string>> = {
  commonName: 'common name',
  givenName: 'given name',
  surname: 'surname',
  email: 'e-mail',
  phone: 'phone',
  street: 'street',
  city: 'city',
  province: 'province',
  country: 'country',
  postalCode: 'postal code',
  tags: 'tags',
};

function normalizeHeader(header: string): string {
  return header
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** @internal Exported for its unit test. */
export function fieldOfHeader(header: string): Field | undefined {
  const n = normalizeHeader(header);
  return (Object.keys(headerAliases) as Field[]).find((f) => headerAliases[f].includes(n));
}

export interface CsvColumns {
  /** Column index of each recognized field. */
  columns: Partial<Record<Field, number>>;
  ignored: string[];
}

/** Maps a header row to fields; a field named twice is an error (which column would win?). */
function mapHeader(header: readonly string[]): CsvColumns {
  const columns: Partial<Record<Field, number>> = {};
  const ignored: string[] = [];
  header.forEach((h, i) => {
    const field = fieldOfHeader(h);
    if (!field) {
      if (h.trim()) ignored.push(h.trim());
      return;
    }
    if (columns[field] !== undefined) {
      throw new PeopleFileError(l10n.t('columns "{0}" and "{1}" both give the {2}', header[columns[field]], h, fieldLabels[field]), 1);
    }
    columns[field] = i;
  });
  if (columns.givenName === undefined && columns.surname === undefined && columns.commonName === undefined) {
    const known = 'Given Name, Surname (or First Name, Last Name), E-mail, Phone, Street, City, Province, Country, Postal Code, Tags';
    throw new PeopleFileError(
      l10n.t(
        'the header row has no given name, surname or name column (found: {0}; known columns: {1})',
        header.map((h) => `"${h}"`).join(', ') || l10n.t('nothing'),
        known,
      ),
      1,
    );
  }
  return { columns, ignored };
}

/** Where a pointer of a CSV-built person came from, as a column name. */
function columnOf(person: PersonInfo, pointer: string): string {
  const top: Record<string, Field> = { '/GivenName': 'givenName', '/Surname': 'surname', '/CommonName': 'commonName' };
  if (top[pointer]) return fieldLabels[top[pointer]];
  if (pointer.startsWith('/Tags')) return fieldLabels.tags;
  const m = /^\/Addresses\/(\d+)(\/(\w+))?/.exec(pointer);
  if (m) {
    const sub: Record<string, Field> = {
      MailTo: 'email',
      Number: 'phone',
      Street: 'street',
      City: 'city',
      Province: 'province',
      Country: 'country',
      PostalCode: 'postalCode',
    };
    if (m[3] && sub[m[3]]) return fieldLabels[sub[m[3]]];
    const type = String(person.Addresses?.[Number(m[1])]?.$type ?? '');
    return type.includes('Email') ? fieldLabels.email : type.includes('Phone') ? fieldLabels.phone : 'mailing address';
  }
  return pointer || 'row';
}

/** Reads CSV text (or UTF-8 bytes) into rows; every row is checked, none is dropped, blank lines are counted. */
export function readPeopleCsv(input: string | Uint8Array, naming?: TypeNaming): PeopleFile {
  const bytes = new TextEncoder().encode(typeof input === 'string' ? input.replace(/^\uFEFF/, '') : decodePeople(input));
  const records = csvRecords(bytes);
  // Empty lines and lines of only commas hold nobody: skipped, and said so.
  const holds = ({ record }: CsvRecord) => record.some((f) => f.trim() !== '');
  const kept = records.filter(holds);
  if (kept.length === 0) throw new PeopleFileError(l10n.t('the file is empty (a header row is expected)'));
  const blankLines = records.filter((r) => !holds(r) && r.line > kept[0].line).map((r) => r.line);
  const header = kept[0].record;
  const { columns, ignored } = mapHeader(header);
  const notes = [
    ...(ignored.length ? [ignored.length > 1 ? l10n.t('Ignored columns: {0}', ignored.join(', ')) : l10n.t('Ignored column: {0}', ignored[0])] : []),
    ...blankNote(blankLines),
  ];

  const fieldColumns = Object.entries(columns) as Array<[Field, number]>;
  const personFromFields = personMaker(naming);
  const rows: PersonRow[] = kept.slice(1).map(({ record, line }, index) => {
    const fields: PersonFields = {};
    for (const [field, col] of fieldColumns) fields[field] = record[col] ?? '';
    const person = personFromFields(fields);
    const errors = personErrors(person, (p) => columnOf(person, p));
    if (record.length !== header.length)
      errors.unshift(
        record.length === 1
          ? l10n.t('has 1 field, the header has {0}', header.length)
          : l10n.t('has {0} fields, the header has {1}', record.length, header.length),
      );
    return { line, index, place: l10n.t('line {0}', line), person, errors };
  });
  return { format: 'csv', rows, notes, blankLines };
}

interface CsvRecord {
  record: string[];
  /** 1-based line where the record starts. */
  line: number;
}

const quote = 0x22;

/**
 * The records of a CSV file with the lines they start on. Without a quote no
 * field can hold a comma or a line break, so lines and commas are the whole
 * grammar: such a file, as most exports are, is split at once (10,000 rows:
 * 8 ms, against 55 ms through csv-parse). Any other goes through csv-parse.
 */
function csvRecords(bytes: Uint8Array): CsvRecord[] {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!buffer.includes(quote)) {
    const lines = buffer.toString('utf8').split(/\r\n|\n|\r/);
    if (lines[lines.length - 1] === '') lines.pop(); // the end of the last line, not a line
    return lines.map((text, i) => ({ record: text.split(','), line: i + 1 }));
  }
  let records: Array<{ record: string[]; info: { bytes: number } }>;
  try {
    records = parse(buffer, { bom: true, info: true, relax_column_count: true, skip_empty_lines: false, trim: false }) as unknown as typeof records;
  } catch (e) {
    const err = e as { message: string; lines?: number };
    throw new PeopleFileError(l10n.t('not readable as CSV: {0}', err.message.replace(/^Invalid \w+:\s*/, '')), err.lines);
  }
  // Lines from byte offsets: csv-parse's own line count drifts on CRLF inside quoted fields.
  const lineOf = lineCounter(bytes);
  let end = 0;
  return records.map(({ record, info }) => {
    const line = lineOf(end, record.length > 1 || record[0] !== '');
    end = info.bytes;
    return { record, line };
  });
}

/**
 * The 1-based line of the first content at or after a byte offset (skipping the
 * line breaks of empty lines, unless the record there is one). Offsets must not decrease between calls.
 */
function lineCounter(bytes: Uint8Array): (offset: number, skipBlank?: boolean) => number {
  let pos = 0;
  let line = 1;
  const CR = 13,
    LF = 10;
  const advance = (to: number) => {
    for (; pos < to && pos < bytes.length; pos++) {
      const b = bytes[pos];
      if (b === LF || (b === CR && bytes[pos + 1] !== LF)) line++;
    }
  };
  return (offset, skipBlank = true) => {
    advance(offset);
    if (!skipBlank) return line;
    let skip = pos;
    while (skip < bytes.length && (bytes[skip] === CR || bytes[skip] === LF)) skip++;
    advance(skip);
    return line;
  };
}
