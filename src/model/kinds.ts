/**
 * The kinds registry: every object kind the service holds, described once.
 * The tree, the file system, the commands, validation and the sandbox all read
 * this table; adding a kind is one entry here and one schema in schemas/.
 */

/** Operations on a collection, as the service offers them. */
export type Operation = 'list' | 'get' | 'create' | 'update' | 'delete';

/** Actions beyond CRUD that a kind supports (each is a command). */
export type Action = 'invite' | 'editPriorities' | 'addPeople';

export type KindId =
  | 'folder'
  | 'engageSite'
  | 'inputScanner'
  | 'serviceContainer'
  | 'serviceContainerModule'
  | 'person';

export interface Kind {
  readonly id: KindId;
  /** `TypeName` in `$type` = `<namespace>.<TypeName>, <assembly>`. */
  readonly typeName: string;
  /** Path segment under `/api/f/{folder}/`. */
  readonly collection: string;
  readonly label: string;
  readonly pluralLabel: string;
  /** Codicon id for the tree. */
  readonly icon: string;
  /** File name under `schemas/`. */
  readonly schema: string;
  /** Operations the service offers for this kind. */
  readonly operations: readonly Operation[];
  /**
   * Operations the spec does not show but browsing assumes (list, get).
   * Clients must degrade gracefully when the server refuses them.
   */
  readonly assumed: readonly Operation[];
  readonly actions: readonly Action[];
  /** Shown in the tree as the object's description (a field name). */
  readonly describedBy?: string;
}

const kindList: readonly Kind[] = [
  {
    id: 'folder', typeName: 'FolderInfo', collection: 'folders',
    label: 'Folder', pluralLabel: 'Folders', icon: 'folder', schema: 'folder.schema.json',
    operations: ['list', 'get'], assumed: ['list', 'get'], actions: [],
  },
  {
    id: 'engageSite', typeName: 'EngageSiteInfo', collection: 'engagesites',
    label: 'Engage site', pluralLabel: 'Engage sites', icon: 'globe', schema: 'engageSite.schema.json',
    operations: ['list', 'get', 'create', 'update', 'delete'], assumed: ['get'], actions: ['invite'],
    describedBy: 'SiteReference',
  },
  {
    id: 'inputScanner', typeName: 'InputScannerInfo', collection: 'inputscanners',
    label: 'Input scanner', pluralLabel: 'Input scanners', icon: 'pulse', schema: 'inputScanner.schema.json',
    operations: ['list', 'get', 'create', 'update', 'delete'], assumed: ['get'], actions: ['editPriorities'],
  },
  {
    id: 'serviceContainer', typeName: 'ServiceContainerInfo', collection: 'servicecontainers',
    label: 'Service container', pluralLabel: 'Service containers', icon: 'server', schema: 'serviceContainer.schema.json',
    operations: ['list', 'get', 'update'], assumed: ['list', 'get'], actions: [],
    describedBy: 'MacAddress',
  },
  {
    id: 'serviceContainerModule', typeName: 'ServiceContainerModuleInfo', collection: 'servicecontainermodules',
    label: 'Service container module', pluralLabel: 'Service container modules', icon: 'extensions',
    schema: 'serviceContainerModule.schema.json',
    operations: ['list', 'get', 'update'], assumed: ['list', 'get'], actions: [],
    describedBy: 'VersionString',
  },
  {
    // The interface shows the single add (one PersonInfo) and the batch add; list/get/update/delete are in the public record.
    id: 'person', typeName: 'PersonInfo', collection: 'people',
    label: 'Person', pluralLabel: 'People', icon: 'person', schema: 'person.schema.json',
    operations: ['list', 'get', 'create', 'update', 'delete'], assumed: ['list', 'get', 'update', 'delete'], actions: ['addPeople'],
    describedBy: 'Surname',
  },
];

export const kinds: ReadonlyMap<KindId, Kind> = new Map(kindList.map((k) => [k.id, k]));

/** Kinds shown as groups inside a folder (everything but folders). */
export const objectKinds: readonly Kind[] = kindList.filter((k) => k.id !== 'folder');

export function kind(id: KindId): Kind {
  const k = kinds.get(id);
  if (!k) throw new Error(`Unknown kind ${id}`);
  return k;
}

export function kindByCollection(collection: string): Kind | undefined {
  return kindList.find((k) => k.collection === collection.toLowerCase());
}

export function kindByTypeName(typeName: string): Kind | undefined {
  return kindList.find((k) => k.typeName === typeName);
}

export function supports(k: Kind, op: Operation): boolean {
  return k.operations.includes(op);
}
