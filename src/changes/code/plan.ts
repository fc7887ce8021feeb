/**
 * Plan: the files of a pulled folder against what was pulled (the manifest)
 * and against the live server, read a page of 1000 at a time (never one
 * request per object). A page the last pull recorded a tag of is asked for
 * with it (pageTags.ts): when the server answers 304 and the manifest still
 * holds what that pull wrote of it, its objects are at their pulled versions,
 * and only those whose files changed are read (alone, or their page again).
 * Per object: changed here, changed there, both, or neither, and whether what
 * would be sent is sendable at all.
 */
import { randomUUID } from 'node:crypto';
import type { OmsClient } from '../../api/client';
import { ApiError } from '../../api/errors';
import { Kind, KindId, kind as kindOf, supports } from '../../model/kinds';
import { typeNameOf } from '../../model/typeName';
import type { BaseInfo } from '../../model/types';
import { formatErrors, validate } from '../../validation/validator';
import { bodyToSend, canonicalText, createBody, FieldChange, fieldChanges, fileForm, hashOf, isServerOwned } from './fileForm';
import { inBatches, LocalFile, parseObjectText, readLocalFiles } from './localFiles';
import { Bases } from './bases';
import { checkBinding, ConnectionBinding, journalSync, Manifest, manifestName, ManifestObject, readManifest } from './manifest';
import { entriesHash, PageTag, PageTags } from './pageTags';
import { resolvePendingCreates } from './resolvePending';
import { inSlices, inSlicesOf, Slices } from './slices';
import { l10n } from '../../l10n';

export type PlanAction = 'create' | 'update' | 'delete' | 'stale' | 'behind' | 'invalid' | 'deleteSkipped';

/** Actions that send something when ticked. */
export const sendable: ReadonlySet<PlanAction> = new Set(['create', 'update', 'delete']);

export interface PlanEntry {
  /** The object's Key, or the file's path for a create or an unreadable file. */
  id: string;
  /** The file (for a delete or a server-only object: where it was or would be). */
  path: string;
  kind: KindId;
  folderKey: string;
  key?: string;
  label: string;
  action: PlanAction;
  /** Ticked: apply sends it. Creates and updates start ticked, deletes not (they are ticked one by one). */
  selected: boolean;
  /** Why it is stale, behind, invalid or skipped. */
  reason?: string;
  /** Pulled version and file hash (manifest). */
  base?: { version: number | null; hash: string };
  /** Version on the server when planned (absent: not on the server). */
  live?: { version: number | null };
  /** File hash when planned (absent: no file). */
  local?: { hash: string };
  /** What the file changes (against the pulled text), per JSON pointer. */
  changes: FieldChange[];
  /** What the server changed since the pull (stale and behind entries). */
  serverChanges?: FieldChange[];
  /** A create an earlier apply sent without learning its outcome, which this plan looked for on the server (pendingCreates.ts). */
  pendingId?: string;
}

export interface Plan {
  format: 1;
  id: string;
  createdAt: string;
  connection: ConnectionBinding;
  includeDeletes: boolean;
  entries: PlanEntry[];
  /** Objects whose file and server both still match the pull. */
  unchanged: number;
  /** Requests the plan cost. */
  requests: number;
  /** Creates of an earlier apply whose answer was lost, found on the server and given their Key (nothing to send), one line each. */
  resolved?: string[];
}

export interface PlanResult {
  plan: Plan;
  /** The live objects read while planning, by Key (for diffs). */
  live: ReadonlyMap<string, BaseInfo>;
  /** Every object listed on the server, by Key, and the lists read (each kind of the scope in each folder): live reads compare with them. */
  onServer: ReadonlyMap<string, ServerObject>;
  lists: ReadonlyArray<{ kind: Kind; folderKey: string }>;
}

export interface PlanOptions {
  includeDeletes?: boolean;
  signal?: AbortSignal;
}

export async function makePlan(client: OmsClient, root: string, connection: ConnectionBinding, options: PlanOptions = {}): Promise<PlanResult> {
  const manifest = await readManifest(root);
  if (!manifest) throw new Error(l10n.t('This folder holds no pulled objects (no oms.manifest.json): use Pull as Files… first'));
  checkBinding(manifest, connection);
  const read = await readHereAndThere(client, root, manifest, options.signal);
  const { live, onServer } = read;
  const bases = new Bases(root);
  let entries = refusedEntries(manifest);
  let unchanged = await addFileEntries(entries, root, manifest, bases, read);
  await addDeletedEntries(entries, manifest, read, !!options.includeDeletes);
  const unclaimed = await addServerOnlyEntries(entries, manifest, read);

  // Creates an earlier apply sent without learning their outcome: found on the server (adopted), held, or free to send.
  const { resolved, held, adopted } = resolvePendingCreates(root, manifest, bases, entries, unclaimed);
  if (adopted.size) entries = entries.filter((e) => !(e.key && adopted.has(e.key)));
  unchanged += adopted.size;
  // The live objects the entries show, no others.
  const shown = new Set(entries.map((e) => e.key));
  for (const key of live.keys()) if (!shown.has(key)) live.delete(key);
  for (const e of entries) e.selected = (e.action === 'create' || e.action === 'update') && !held.has(e);
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const plan: Plan = {
    format: 1,
    id: randomUUID(),
    createdAt: new Date().toISOString(),
    connection,
    includeDeletes: !!options.includeDeletes,
    entries,
    unchanged,
    requests: read.requests,
    ...(resolved.length ? { resolved } : {}),
  };
  return { plan, live, onServer, lists: listsOf(manifest) };
}

/** What planning read: the folder's files (and by Key), the server's objects, and the requests it cost. */
interface Read {
  files: LocalFile[];
  byKey: Map<string, LocalFile[]>;
  /** Every listed object's place and version; the object itself only while an entry may need it (see `untouched`). */
  onServer: Map<string, ServerObject>;
  live: Map<string, BaseInfo>;
  requests: number;
}

/** The folder's files and the server's lists, read at once; then the unread objects whose files changed. */
async function readHereAndThere(client: OmsClient, root: string, manifest: Manifest, signal: AbortSignal | undefined): Promise<Read> {
  let requests = 1; // the instance read that named the connection
  const count = <T>(p: Promise<T>) => (requests++, p);
  let files: LocalFile[] = [];
  let byKey: Map<string, LocalFile[]> | undefined;
  const onServer = new Map<string, ServerObject>();
  const live = new Map<string, BaseInfo>();
  /** Objects of pages the server answered 304 to: known by version, not read; and how many each such page holds. */
  const unread = new Map<string, ListPage>();
  const onPage = new Map<ListPage, number>();
  const tags = await new PageTags(root).read();
  const listPage = async (page: ListPage, tag?: PageTag): Promise<Listed> => {
    if (tag) {
      const answer = await count(client.listBytesIf(page.kind, page.folderKey, page.number, page.size, tag.etag, signal));
      if (!answer.unchanged) return { items: client.itemsOf(page.kind, page.folderKey, answer.bytes.toString()) };
      const pulled = (key: string) => manifest.objects.get(key);
      if (tag.keys.every(pulled) && entriesHash(tag.keys, pulled) === tag.entries) return { keys: tag.keys };
    }
    return { items: (await count(client.list(page.kind, page.folderKey, page.number, page.size, signal))).items };
  };
  await Promise.all([
    readLocalFiles(root, manifest).then(async (read) => {
      files = read;
      const held = new Map<string, LocalFile[]>();
      await inSlices(files, (f) => {
        if (f.key) held.set(f.key, [...(held.get(f.key) ?? []), f]);
      });
      byKey = held;
    }),
    listLive(
      manifest,
      tags,
      listPage,
      (object, page) => {
        const key = object.Key as string;
        onServer.set(key, { version: versionOf(object), kind: page.kind, folderKey: page.folderKey });
        // Most objects of a large folder are as pulled here and there: not kept (100,000 of them filled the heap).
        if (!byKey || !untouched(byKey.get(key), manifest.objects.get(key), versionOf(object))) live.set(key, object);
      },
      (key, page) => {
        onServer.set(key, { version: manifest.objects.get(key)!.version, kind: page.kind, folderKey: page.folderKey });
        unread.set(key, page);
        onPage.set(page, (onPage.get(page) ?? 0) + 1);
      },
    ),
  ]);
  const read: Read = { files, byKey: byKey!, onServer, live, requests: 0 };
  await readChangedUnread(manifest, read, unread, onPage, listPage, (page, key) => count(client.get(page.kind, page.folderKey, key)));
  return { ...read, requests };
}

/** The unread objects an entry needs (their files changed): read alone, or their page again when many of it are. */
async function readChangedUnread(
  manifest: Manifest,
  { byKey, onServer, live }: Read,
  unread: Map<string, ListPage>,
  onPage: Map<ListPage, number>,
  listPage: (page: ListPage) => Promise<Listed>,
  get: (page: ListPage, key: string) => Promise<BaseInfo>,
): Promise<void> {
  const wanted = new Map<ListPage, string[]>();
  await inSlices(unread, ([key, page]) => {
    if (!untouched(byKey.get(key), manifest.objects.get(key), onServer.get(key)!.version)) wanted.set(page, [...(wanted.get(page) ?? []), key]);
  });
  const read = (key: string, object: BaseInfo, page: ListPage) => {
    onServer.set(key, { version: versionOf(object), kind: page.kind, folderKey: page.folderKey });
    live.set(key, object);
  };
  await inBatches([...wanted], 4, async ([page, keys]) => {
    let alone = keys;
    if (keys.length > Math.min(fewPerPage, onPage.get(page)! / 4)) {
      const wantedKeys = new Set(keys);
      for (const o of (await listPage(page)).items!) if (typeof o.Key === 'string' && wantedKeys.has(o.Key)) read(o.Key, o, page);
      alone = keys.filter((key) => !live.has(key)); // moved to another page since
    }
    for (const key of alone) {
      try {
        read(key, await get(page, key), page);
      } catch (e) {
        if (!(e instanceof ApiError && e.kind === 'notFound')) throw e;
        onServer.delete(key); // gone since the pull's page
      }
    }
  });
}

/** The manifest's entries it refused to read: invalid until restored. */
function refusedEntries(manifest: Manifest): PlanEntry[] {
  return (manifest.refused ?? []).map((r) => {
    const object = r.object as Partial<ManifestObject> | undefined;
    return {
      id: r.entry,
      path: String(object?.path ?? r.dir),
      kind: object?.kind ?? manifest.scope.kinds[0],
      folderKey: String(object?.folderKey ?? r.folderKey),
      label: r.entry,
      action: 'invalid',
      reason: l10n.t('{0} in {1} was refused: {2}. Restore it from git', r.entry, manifestName, r.reason),
      changes: [],
      selected: false,
    };
  });
}

/** An entry for each file that changed here or there; returns how many did not. */
async function addFileEntries(entries: PlanEntry[], root: string, manifest: Manifest, bases: Bases, read: Read): Promise<number> {
  let unchanged = 0;
  const slices = new Slices();
  for (const f of read.files) {
    if (slices.due()) await slices.pause();
    const entry = fileEntry(root, manifest, bases, read, f);
    if (entry) entries.push(entry);
    else unchanged++;
  }
  return unchanged;
}

/** A file's entry: a create, an update, why it is neither; none when it and its object are as pulled. */
function fileEntry(root: string, manifest: Manifest, bases: Bases, { byKey, onServer, live }: Read, f: LocalFile): PlanEntry | undefined {
  const key = f.key;
  const pulled = key === undefined ? undefined : manifest.objects.get(key);
  if (key !== undefined && untouched(byKey.get(key), pulled, onServer.get(key)?.version)) return undefined;
  const label = labelOf(f.object?.CommonName, f.path);
  const common = { path: f.path, kind: f.kind.id, folderKey: f.folderKey, label, changes: [], selected: false };
  if (f.error) return { ...common, id: f.path, action: 'invalid', reason: l10n.t('{0}: fix it or restore it from git', f.error) };
  if (key === undefined) return createEntry(f, common);
  const same = byKey.get(key) ?? [];
  if (same.length > 1) {
    const reason = l10n.t('Key {0} is held by more than one file ({1}): keep one', key, same.map((s) => s.path).join(', '));
    return { ...common, id: f.path, key, action: 'invalid', reason, local: { hash: f.hash! } };
  }
  if (!pulled) {
    // On the service, the object exists: removing the Key would create it a second time.
    const reason = onServer.has(key)
      ? l10n.t(
          'Key {0} is an object on the service that {1} does not record (a pull or apply stopped before recording it?): pull to record it; keep the Key (without it the object would be created a second time)',
          key,
          manifestName,
        )
      : l10n.t('Key {0} is not in {1} nor an object of this folder on the service: if the file is meant as a new object, remove its Key', key, manifestName);
    return { ...common, id: f.path, key, action: 'invalid', reason, local: { hash: f.hash! } };
  }
  if (pulled.folderKey !== f.folderKey || pulled.kind !== f.kind.id) {
    const where = `${manifest.folders[pulled.folderKey]}/${kindOf(pulled.kind).collection}/`;
    const reason = l10n.t('Key {0} belongs in {1}: the service does not move objects between folders or kinds; move the file back', key, where);
    return { ...common, id: f.path, key, action: 'invalid', reason, local: { hash: f.hash! } };
  }
  return updateEntry(bases, f, pulled, live.get(key), common, (version) => rebase(root, manifest, bases, key, pulled, version, f.object!));
}

/** An entry for each pulled object whose file is gone: a delete, or why it is not one. */
async function addDeletedEntries(entries: PlanEntry[], manifest: Manifest, { files, byKey, live }: Read, includeDeletes: boolean): Promise<void> {
  const paths = new Set<string>();
  await inSlices(files, (f) => paths.add(f.path));
  await inSlicesOf(manifest.objects, (key, pulled) => {
    if (byKey.has(key) || paths.has(pulled.path)) return; // a file there that cannot be read is already an invalid entry
    const obj = live.get(key);
    const common = {
      id: key,
      key,
      path: pulled.path,
      kind: pulled.kind,
      folderKey: pulled.folderKey,
      label: labelOf(obj?.CommonName, pulled.path),
      changes: [],
      selected: false,
      base: { version: pulled.version, hash: pulled.hash },
    };
    if (!obj) {
      entries.push({ ...common, action: 'behind', reason: l10n.t('Deleted here and gone from the server: pull to update the manifest') });
    } else if (!includeDeletes) {
      const reason = l10n.t('The file was deleted: include deletes to delete the object on the server');
      entries.push({ ...common, action: 'deleteSkipped', reason, live: { version: versionOf(obj) } });
    } else if (versionOf(obj) !== pulled.version) {
      const reason = l10n.t('Deleted here, changed on the server since the pull (v{0} → v{1}): pull it again', pulled.version ?? '?', versionOf(obj) ?? '?');
      entries.push({ ...common, action: 'stale', reason, live: { version: versionOf(obj) } });
    } else if (!supports(kindOf(pulled.kind), 'delete')) {
      const reason = l10n.t('The service cannot delete {0}: restore the file', l10n.t(kindOf(pulled.kind).pluralLabel).toLowerCase());
      entries.push({ ...common, action: 'invalid', reason, live: { version: versionOf(obj) } });
    } else {
      entries.push({ ...common, action: 'delete', live: { version: versionOf(obj) } });
    }
  });
}

/** Objects on the server not pulled here: an entry each (new there), and all of them, as perhaps the creates an earlier apply sent. */
async function addServerOnlyEntries(entries: PlanEntry[], manifest: Manifest, { byKey, onServer, live }: Read): Promise<ListedObject[]> {
  const unclaimed: ListedObject[] = [];
  await inSlices(onServer, ([key, { kind: k, folderKey }]) => {
    if (manifest.objects.has(key)) return;
    const obj = live.get(key)!; // kept: not pulled
    unclaimed.push({ object: obj, kind: k, folderKey });
    // A file holds it: an invalid entry above, or an apply's create killed between writing its file and the manifest.
    // A folder of chosen objects (a query's results) holds no other: not pulled is not new.
    if (byKey.has(key) || manifest.scope.chosen) return;
    entries.push({
      id: key,
      key,
      path: `${manifest.folders[folderKey]}/${k.collection}/`,
      kind: k.id,
      folderKey,
      label: labelOf(obj.CommonName, key),
      action: 'behind',
      reason: l10n.t('New on the server: pull to get its file'),
      live: { version: versionOf(obj) },
      changes: [],
      selected: false,
    });
  });
  return unclaimed;
}

/** Objects of an unread page read alone up to this many (and a quarter of the page); more, the page is read again. */
const fewPerPage = 20;

/** A page of a list: its number and size. */
interface ListPage {
  kind: Kind;
  folderKey: string;
  number: number;
  size: number;
}

/** A page's objects, or (the server's 304, the manifest as the pull left it) only their Keys. */
type Listed = { items: BaseInfo[]; keys?: undefined } | { keys: string[]; items?: undefined };

export interface ServerObject {
  version: number | null;
  kind: Kind;
  folderKey: string;
}

/** An object listed on the server and not pulled here, as the pending creates are matched against it. */
export interface ListedObject {
  object: BaseInfo;
  kind: Kind;
  folderKey: string;
}

/** One file holds the Key, as pulled, and the server is at the pulled version: no entry, nothing to keep. */
function untouched(files: LocalFile[] | undefined, pulled: ManifestObject | undefined, liveVersion: number | null | undefined): boolean {
  return (
    !!pulled &&
    files?.length === 1 &&
    files[0].path === pulled.path &&
    files[0].hash === pulled.hash &&
    liveVersion !== undefined &&
    liveVersion === pulled.version
  );
}

/** Each kind of the pulled scope in each pulled folder, where the service lists it. */
function listsOf(manifest: Manifest): Array<{ kind: Kind; folderKey: string }> {
  return Object.keys(manifest.folders)
    .flatMap((folderKey) => manifest.scope.kinds.map((id) => ({ folderKey, kind: kindOf(id) })))
    .filter(({ kind }) => supports(kind, 'list'));
}

/**
 * Every object of the pulled folders and kinds to `each` (or, of an unchanged page, its Key to `unchanged`), four lists at once:
 * in the pages the last pull recorded (tagged), else a page of 1000 at a time.
 */
async function listLive(
  manifest: Manifest,
  tags: PageTags,
  list: (page: ListPage, tag?: PageTag) => Promise<Listed>,
  each: (object: BaseInfo, page: ListPage) => void,
  unchanged: (key: string, page: ListPage) => void,
): Promise<void> {
  await inBatches(listsOf(manifest), 4, async ({ kind, folderKey }) => {
    for (let from = 0, listed = Infinity, size = 0; listed >= size; from += size) {
      const tagged = tags.at(folderKey, kind.id, from);
      size = tagged?.size ?? (from % 1000 ? 500 : 1000);
      const page = { kind, folderKey, number: tagged?.number ?? from / size, size };
      const result = await list(page, tagged?.tag);
      if (result.keys) for (const key of result.keys) unchanged(key, page);
      else for (const object of result.items) if (object.Key) each(object, page);
      listed = (result.keys ?? result.items).length;
    }
  });
}

type Common = Pick<PlanEntry, 'path' | 'kind' | 'folderKey' | 'label' | 'changes' | 'selected'>;

function createEntry(f: LocalFile, common: Common): PlanEntry {
  const local = f.object!;
  const problem =
    serverOwnedProblem(local) ??
    typeProblem(f.kind, local) ??
    (supports(f.kind, 'create') ? undefined : l10n.t('The service cannot create {0}.', l10n.t(f.kind.pluralLabel).toLowerCase())) ??
    schemaProblem(f.kind, createBody(f.kind, local));
  const entry: PlanEntry = { ...common, id: f.path, local: { hash: f.hash! }, action: 'create', changes: fieldChanges({}, local) };
  return problem ? { ...entry, action: 'invalid', reason: problem } : entry;
}

/** The file holds what the server holds (an earlier write landed, its answer lost; or a hand-edited hash): the manifest moves to it. */
function rebase(root: string, manifest: Manifest, bases: Bases, key: string, pulled: ManifestObject, version: number | null, local: BaseInfo): void {
  const text = canonicalText(kindOf(pulled.kind), local);
  const hash = hashOf(text);
  bases.add(hash, text);
  bases.flush();
  journalSync(root, manifest, [{ key, object: { ...pulled, version, hash } }]);
}

function updateEntry(
  bases: Bases,
  f: LocalFile,
  pulled: ManifestObject,
  live: BaseInfo | undefined,
  common: Common,
  same: (version: number | null) => void,
): PlanEntry | undefined {
  const key = f.key!;
  const entry = {
    ...common,
    label: labelOf(f.object?.CommonName ?? live?.CommonName, f.path),
    id: key,
    key,
    base: { version: pulled.version, hash: pulled.hash },
    local: { hash: f.hash! },
  };
  const localChanged = f.hash !== pulled.hash;
  if (!live) {
    return localChanged
      ? { ...entry, action: 'invalid', reason: l10n.t('Gone from the server since the pull: remove the Key to create it again, or delete the file') }
      : { ...entry, action: 'behind', reason: l10n.t('Gone from the server: pull to remove its file') };
  }
  const liveVersion = versionOf(live);
  const serverMoved = liveVersion !== pulled.version;
  if (!localChanged && !serverMoved) return undefined;
  const kind = kindOf(pulled.kind);
  const liveForm = fileForm(kind, live);
  const withLive = { ...entry, live: { version: liveVersion } };
  if (!localChanged)
    return {
      ...withLive,
      action: 'behind',
      reason: l10n.t('Changed on the server (v{0} → v{1}): pull to get it', pulled.version ?? '?', liveVersion ?? '?'),
      serverChanges: fieldChanges(baseObject(bases, pulled, kind), liveForm),
    };
  const local = f.object!; // changed, so it was parsed
  if (!fieldChanges(liveForm, local).length) {
    same(liveVersion);
    return undefined;
  }
  if (serverMoved) {
    const base = baseObject(bases, pulled, kind);
    return {
      ...withLive,
      action: 'stale',
      reason: l10n.t('Changed here and on the server since the pull (v{0} → v{1}): merge or pull again', pulled.version ?? '?', liveVersion ?? '?'),
      changes: base ? fieldChanges(base, local) : fieldChanges(liveForm, local),
      serverChanges: base ? fieldChanges(base, liveForm) : undefined,
    };
  }
  const changes = fieldChanges(liveForm, local);
  const problem =
    serverOwnedProblem(local) ??
    (local.$type !== live.$type ? l10n.t('$type cannot change (the server has {0}): undo that edit', JSON.stringify(live.$type)) : undefined) ??
    (supports(kind, 'update') ? undefined : l10n.t('The service cannot update {0}.', l10n.t(kind.pluralLabel).toLowerCase())) ??
    schemaProblem(kind, bodyToSend(kind, live, liveForm, local));
  return problem ? { ...withLive, action: 'invalid', reason: problem, changes } : { ...withLive, action: 'update', changes };
}

function baseObject(bases: Bases, pulled: ManifestObject, kind: Kind): BaseInfo | undefined {
  const text = bases.get(pulled.hash);
  const parsed = text === undefined ? undefined : parseObjectText(kind, text);
  return parsed && 'object' in parsed ? parsed.object : undefined;
}

function serverOwnedProblem(local: BaseInfo): string | undefined {
  const owned = Object.keys(local).filter(isServerOwned);
  if (!owned.length) return undefined;
  const problem =
    owned.length > 1
      ? l10n.t("{0} are the server's to set: remove them from the file", owned.join(', '))
      : l10n.t("{0} is the server's to set: remove it from the file", owned[0]);
  return owned.includes('Notes') ? l10n.t('{0} (add a note with Add Note… on the object)', problem) : problem;
}

function typeProblem(kind: Kind, local: BaseInfo): string | undefined {
  return typeNameOf(local.$type) === kind.typeName ? undefined : l10n.t('$type must name {0} in the {1} folder', kind.typeName, kind.collection);
}

function schemaProblem(kind: Kind, body: BaseInfo): string | undefined {
  const errors = validate(kind.schema, body);
  return errors.length ? l10n.t('Schema: {0}', formatErrors(errors, 3).replace(/\n/g, '; ')) : undefined;
}

function versionOf(o: BaseInfo): number | null {
  return o.ConcurrencyVersion ?? null;
}

function labelOf(name: unknown, fallback: string): string {
  return typeof name === 'string' && name ? name : (fallback.split('/').pop() ?? fallback);
}
