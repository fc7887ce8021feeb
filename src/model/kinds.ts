/**
 * The kinds registry: every object kind the service holds, described once.
 * The tree, the file system, the commands, validation and the sandbox all read
 * this table; `KindId` and new-object templates derive from it, and a unit test
 * (test/unit/model/kinds.test.ts) keeps package.json's `jsonValidation` in step.
 * Adding a kind is one entry here and one schema in schemas/.
 */
import { samplePriorities } from './statusCodes';
import type { TypeNaming } from './typeName';
import { l10n } from '../l10n';

/** Operations on a collection, as the service offers them. */
export type Operation = 'list' | 'get' | 'create' | 'update' | 'delete';

/** Actions beyond CRUD that a kind supports (each is a command). */
export type Action = 'invite' | 'editPriorities' | 'addPeople';

/**
 * How a three-way merge (src/changes/merge3.ts) matches the items of an array field:
 * `key`: by the named fields (an item without them is matched by its whole value);
 * `position`: row by row while the three lengths agree; `set`: as a set of values;
 * an array the registry does not name is one value.
 */
export type ArrayIdentity = { readonly by: 'key'; readonly fields: readonly string[] } | { readonly by: 'position' } | { readonly by: 'set' };

/** Array fields every object has (BaseInfo), and how their items are told apart. */
const baseArrays: Readonly<Record<string, ArrayIdentity>> = {
  ObjectLinks: { by: 'key', fields: ['Relation', 'LinkedObjectKey'] },
  Monikers: { by: 'key', fields: ['Namespace', 'Nickname'] },
  Metadata: { by: 'key', fields: ['Application'] },
  Tags: { by: 'set' },
};

/**
 * Fields only the server sets (identity, version, notes added by POST, links): a merge takes
 * them from the server's copy, whatever the edit says.
 */
export const serverOwnedFields: readonly string[] = ['$type', 'Key', 'Href', 'InFolderKey', 'InFolderHref', 'ConcurrencyVersion', 'Notes', 'Links'];

/** What a kind's registry entry says; `Kind` is an entry with its id narrowed to `KindId`. */
interface KindEntry {
  readonly id: string;
  /** `TypeName` in `$type` = `<namespace>.<TypeName>, <assembly>`. */
  readonly typeName: string;
  /** Path segment under `/api/f/{folder}/`. */
  readonly collection: string;
  readonly label: string;
  readonly pluralLabel: string;
  /** Codicon id for the tree. */
  readonly icon: string;
  /** File name under `schemas/`: validation, the editor's `jsonValidation` and the sandbox use it. */
  readonly schema: string;
  /**
   * Operations the service offers for this kind (the tree's menus and the
   * sandbox's routes follow them). Where the interface does not show one the
   * entry says so; clients degrade gracefully when a server refuses it.
   */
  readonly operations: readonly Operation[];
  readonly actions: readonly Action[];
  /** Shown in the tree as the object's description (a field name), unless the name already says it (`descriptionOf`). */
  readonly describedBy?: string;
  /** Secrets: pulled as files only as a placeholder that is never sent (src/changes/code/fileForm.ts). */
  readonly sensitiveFields?: readonly string[];
  /** The kind's own fields of a new object, beside the base fields (see `templates.ts`). */
  readonly template: (naming?: TypeNaming) => Readonly<Record<string, unknown>>;
  /** The kind's own array fields whose items a merge matches one by one (beside `baseArrays`). */
  readonly arrays?: Readonly<Record<string, ArrayIdentity>>;
}

const kindList = [
  {
    // list and get are not in the interface; browsing assumes them.
    id: 'folder',
    typeName: 'FolderInfo',
    collection: 'folders',
    label: 'Folder',
    pluralLabel: 'Folders',
    icon: 'folder',
    schema: 'folder.schema.json',
    operations: ['list', 'get'],
    actions: [],
    template: () => ({}),
  },
  {
    // get is not in the interface.
    id: 'engageSite',
    typeName: 'EngageSiteInfo',
    collection: 'engagesites',
    label: 'Engage site',
    pluralLabel: 'Engage sites',
    icon: 'globe',
    schema: 'engageSite.schema.json',
    operations: ['list', 'get', 'create', 'update', 'delete'],
    actions: ['invite'],
    describedBy: 'SiteReference',
    sensitiveFields: ['SiteKeyBase64'],
    template: () => ({ SiteKeyBase64: null, SiteReference: null }),
  },
  {
    // get is not in the interface.
    id: 'inputScanner',
    typeName: 'InputScannerInfo',
    collection: 'inputscanners',
    label: 'Input scanner',
    pluralLabel: 'Input scanners',
    icon: 'pulse',
    schema: 'inputScanner.schema.json',
    operations: ['list', 'get', 'create', 'update', 'delete'],
    actions: ['editPriorities'],
    // The schema fixes the rows at eight, one per resistance band: row i is row i.
    arrays: { InputScannerReportingPriorities: { by: 'position' } },
    template: (naming) => ({ InputScannerReportingPriorities: samplePriorities(naming), NonSettlingErrorPriority: 1, NonSettlingErrorStatus: 6 }),
  },
  {
    // list and get are not in the interface.
    id: 'serviceContainer',
    typeName: 'ServiceContainerInfo',
    collection: 'servicecontainers',
    label: 'Service container',
    pluralLabel: 'Service containers',
    icon: 'server',
    schema: 'serviceContainer.schema.json',
    operations: ['list', 'get', 'update'],
    actions: [],
    describedBy: 'MacAddress',
    template: () => ({ MacAddress: null, IsAuthenticated: false }),
  },
  {
    // list and get are not in the interface.
    id: 'serviceContainerModule',
    typeName: 'ServiceContainerModuleInfo',
    collection: 'servicecontainermodules',
    label: 'Service container module',
    pluralLabel: 'Service container modules',
    icon: 'extensions',
    schema: 'serviceContainerModule.schema.json',
    operations: ['list', 'get', 'update'],
    actions: [],
    describedBy: 'VersionString',
    template: () => ({ ProductName: null, VersionString: null, EntryPointDll: null, EntryPointName: null }),
  },
  {
    // The interface shows the single add (one PersonInfo) and the batch add; list/get/update/delete are in the public record.
    id: 'person',
    typeName: 'PersonInfo',
    collection: 'people',
    label: 'Person',
    pluralLabel: 'People',
    icon: 'person',
    schema: 'person.schema.json',
    operations: ['list', 'get', 'create', 'update', 'delete'],
    actions: ['addPeople'],
    describedBy: 'Surname',
    arrays: { Addresses: { by: 'key', fields: ['Key'] } },
    template: () => ({ GivenName: '', Surname: '', Addresses: [], CardAssignments: null }),
  },
] as const satisfies readonly KindEntry[];

export type KindId = (typeof kindList)[number]['id'];

export interface Kind extends KindEntry {
  readonly id: KindId;
}

/**
 * Schemas of what is not an object of a kind: the instance (`GET /api`), and
 * documents the editor recognises by the end of their file name. With the
 * kinds' schemas and what they reference, these are all of schemas/.
 * @internal Read by the jsonValidation test (and the build's validator generation).
 */
export const otherSchemas: ReadonlyArray<{ readonly schema: string; readonly fileMatch?: string }> = [
  { schema: 'instance.schema.json' },
  { schema: 'pushNotificationRequest.schema.json', fileMatch: '*.push.json' },
  { schema: 'peopleBatch.schema.json', fileMatch: '*.people.json' },
];

const allKinds: readonly Kind[] = kindList;

export const kinds: ReadonlyMap<KindId, Kind> = new Map(allKinds.map((k) => [k.id, k]));

/** Kinds shown as groups inside a folder (everything but folders). */
export const objectKinds: readonly Kind[] = allKinds.filter((k) => k.id !== 'folder');

/** The kinds Pull as Files… writes files of: those the service lists. */
export const pulledKinds: readonly Kind[] = objectKinds.filter((k) => supports(k, 'list'));

/**
 * The files a pull writes of a kind's objects (`<folder>.<folder Key>/<collection>/<name>.<Key>.json` below the
 * pulled folder, src/changes/code/pull.ts), as `jsonValidation` globs, and the schema they get while edited: the
 * kind's, less what pulled files leave out (dist/, written by scripts/fileSchemas.ts). Object documents (`oms:`)
 * keep the kind's own schema.
 * @internal Read by the jsonValidation test and scripts/fileSchemas.ts.
 */
export function pulledFiles(k: Kind): { readonly fileMatch: readonly string[]; readonly schema: string } {
  return { fileMatch: [`*.*/${k.collection}/*.json`, '!oms://**', '!oms-server://**'], schema: k.schema.replace(/\.schema\.json$/, '.file.schema.json') };
}

export function kind(id: KindId): Kind {
  const k = kinds.get(id);
  if (!k) throw new Error(l10n.t('Unknown kind {0}', id));
  return k;
}

export function kindByCollection(collection: string): Kind | undefined {
  return allKinds.find((k) => k.collection === collection.toLowerCase());
}

/** How a merge matches the items of the top-level array `field` of `k`'s objects; undefined: the array is one value. */
export function arrayIdentity(k: Kind, field: string): ArrayIdentity | undefined {
  // Own properties only: a field named `constructor` is data, not a policy.
  const own = (table: Readonly<Record<string, ArrayIdentity>> | undefined) => (table && Object.hasOwn(table, field) ? table[field] : undefined);
  return own(k.arrays) ?? own(baseArrays);
}

export function supports(k: Kind, op: Operation): boolean {
  return k.operations.includes(op);
}

/**
 * What the tree shows beside an object's name: its `describedBy` field, unless the name already holds
 * it (a person "Zanele Brown" is not described as "Brown" again); undefined then, or when it is empty.
 */
export function descriptionOf(k: Kind, object: Readonly<Record<string, unknown>>): string | undefined {
  const value = k.describedBy ? object[k.describedBy] : undefined;
  if (typeof value !== 'string' || !value.trim()) return undefined;
  const name = typeof object.CommonName === 'string' ? object.CommonName.toLowerCase() : '';
  return name.includes(value.trim().toLowerCase()) ? undefined : value;
}
