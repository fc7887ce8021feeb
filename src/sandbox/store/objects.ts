/**
 * Server-side fields of stored objects: keys, hrefs, links. The sandbox owns
 * these fields; what a client sends for them is replaced.
 */
import { randomBytes } from 'node:crypto';
import type { Kind } from '../../model/kinds';
import { folderPath, objectPath } from '../../model/routes';
import { makeType, namingOf, TypeNaming } from '../../model/typeName';
import type { BaseInfo, Link, ObjectLinkItem } from '../../model/types';

/** Random bytes drawn in blocks, as hex: one call to the system per 512 keys instead of one per key. */
let pool = '';
let poolOffset = 0;
/** The seconds part of keys, made once a second. */
let secondsHex = '';
let secondsAt = -1;

/** A 24-hex key in BSON ObjectId form: 4 bytes of seconds, then 8 random bytes. */
export function randomKey(): string {
  if (poolOffset === pool.length) {
    pool = randomBytes(8 * 512).toString('hex');
    poolOffset = 0;
  }
  const seconds = Math.floor(Date.now() / 1000);
  if (seconds !== secondsAt) {
    secondsAt = seconds;
    secondsHex = seconds.toString(16).padStart(8, '0').slice(-8);
  }
  poolOffset += 16;
  return secondsHex + pool.slice(poolOffset - 16, poolOffset);
}

/** Link relations as the spec lists them (2.3): relation, anchor text. */
const relationTexts: Record<string, string> = {
  Import: 'Import',
  Meta: 'Meta',
  Monikers: 'Monikers',
  CommonName: 'Common name',
  Images: 'Images',
  TakeOwnership: 'Take ownership',
  Connections: 'Connections',
  References: 'References',
  Notes: 'Notes',
};

const objectRelations = ['Meta', 'Monikers', 'CommonName', 'Images', 'TakeOwnership', 'Connections', 'References', 'Notes'];
const folderRelations = ['Import', ...objectRelations];

/**
 * Lists of links every object of a naming carries, made once and shared by
 * the objects (stored objects are never changed in place). Namings come from
 * clients' `$type`: a few are kept, the rest made afresh.
 */
const shared = new Map<string, unknown[]>();

function sharedList<T>(id: string, make: () => T[]): T[] {
  let list = shared.get(id) as T[] | undefined;
  if (!list) {
    list = make();
    if (shared.size < 32) shared.set(id, list);
  }
  return list;
}

/** Links whose anchor Href is the lower-case relation word, as in the spec. */
export function serverLinks(naming: TypeNaming, isFolder: boolean): Link[] {
  return sharedList(`links\u0000${naming.namespace}\u0000${naming.assembly}\u0000${isFolder}`, () => makeLinks(naming, isFolder));
}

/** Every list `serverLinks` made. */
const serverLinkLists = new WeakSet<readonly Link[]>();

function makeLinks(naming: TypeNaming, isFolder: boolean): Link[] {
  const links = (isFolder ? folderRelations : objectRelations).map((Relation) => ({
    $type: makeType('Link', naming),
    Relation,
    Anchor: { $type: makeType('Anchor', naming), Href: Relation.toLowerCase(), Text: relationTexts[Relation] },
  }));
  serverLinkLists.add(links);
  return links;
}

/** What the files hold in place of the server's own Links (the key keeps its place in the object). */
const serverLinksMark = 'server';

/**
 * An object as the journal and the snapshot hold it: what the server made of
 * it and shares among objects is only marked (`withServerLinks` puts it back
 * on load). The Links, half of a person's bytes, become `"server"`; the
 * instance links, a third of the rest, `{"server": <instance name>}`, the
 * name they carry (an object keeps the name the instance had when it was placed).
 */
export function storedJson(object: BaseInfo): string {
  const links = object.Links,
    objectLinks = object.ObjectLinks;
  const ownLinks = !!links && serverLinkLists.has(links);
  const instanceName = objectLinks ? instanceLinkNames.get(objectLinks) : undefined;
  if (!ownLinks && instanceName === undefined) return JSON.stringify(object);
  // The marks stand in while the text is made, not in a copy of the object: no one else runs before
  // the lists are back.
  const marked = object as { Links: unknown; ObjectLinks: unknown };
  if (ownLinks) marked.Links = serverLinksMark;
  if (instanceName !== undefined) marked.ObjectLinks = { [serverLinksMark]: instanceName };
  try {
    return JSON.stringify(object);
  } finally {
    marked.Links = links;
    marked.ObjectLinks = objectLinks;
  }
}

/** A loaded object gets back what its marks stand for (folders and the instance their own Links). */
export function withServerLinks(object: BaseInfo, isFolder: boolean, instanceKey: string): BaseInfo {
  if ((object.Links as unknown) === serverLinksMark) object.Links = serverLinks(namingOf(object), isFolder);
  const name = (object.ObjectLinks as { [serverLinksMark]?: unknown } | null | undefined)?.[serverLinksMark];
  if (typeof name === 'string') object.ObjectLinks = instanceLinks({ key: instanceKey, name }, namingOf(object));
  return object;
}

interface InstanceRef {
  key: string;
  name: string;
}

/** Every list `instanceLinks` made, with the instance name it carries. */
const instanceLinkNames = new WeakMap<readonly ObjectLinkItem[], string>();

/** The InInstance and InstanceScope object links; both point at the instance. */
function instanceLinks(instance: InstanceRef, naming: TypeNaming): ObjectLinkItem[] {
  const id = `instance\u0000${instance.key}\u0000${instance.name}\u0000${naming.namespace}\u0000${naming.assembly}`;
  return sharedList(id, () => {
    const links = ['InInstance', 'InstanceScope'].map((Relation) => ({
      $type: makeType('ObjectLinkItem', naming),
      Href: folderPath(instance.key),
      LinkedObjectKey: instance.key,
      CommonName: instance.name,
      Relation,
      MetaDataBson: { $type: 'System.Byte[], mscorlib', $value: '' },
    }));
    instanceLinkNames.set(links, instance.name);
    return links;
  });
}

const instanceRelations = new Set(['InInstance', 'InstanceScope']);

interface Placement {
  kind: Kind;
  folderKey: string;
  key: string;
  instance: InstanceRef;
  naming: TypeNaming;
  version: number;
}

/**
 * The object as stored: the client's fields, with Key, Href, folder fields,
 * version, Links and instance links set by the server. Null or absent list
 * fields become empty lists, so every stored object has the whole base shape.
 */
export function placeObject(body: BaseInfo, p: Placement): BaseInfo {
  const clientLinks = Array.isArray(body.ObjectLinks) ? body.ObjectLinks.filter((l) => !instanceRelations.has(String(l?.Relation))) : [];
  const isFolder = p.kind.id === 'folder';
  const instance = instanceLinks(p.instance, p.naming);
  return {
    ...body,
    Key: p.key,
    Href: isFolder ? folderPath(p.key) : objectPath(p.kind, p.folderKey, p.key),
    InFolderKey: p.folderKey,
    InFolderHref: folderPath(p.folderKey),
    ConcurrencyVersion: p.version,
    IsGlobal: body.IsGlobal ?? false,
    Links: serverLinks(p.naming, isFolder),
    Metadata: body.Metadata ?? [],
    Monikers: body.Monikers ?? [],
    Notes: body.Notes ?? [],
    // Shared by the objects without links of their own, as the Links are.
    ObjectLinks: clientLinks.length ? [...instance, ...clientLinks] : instance,
    Tags: body.Tags ?? [],
  };
}

/** Gives address items without a Key one (people's Addresses). */
export function keyAddresses(obj: BaseInfo, newKey: () => string): void {
  const addresses = obj.Addresses;
  if (!Array.isArray(addresses)) return;
  for (const a of addresses) {
    if (a && typeof a === 'object' && !(a as { Key?: unknown }).Key) (a as { Key: string }).Key = newKey();
  }
}
