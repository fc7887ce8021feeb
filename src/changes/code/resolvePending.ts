/**
 * A plan's answer to creates an earlier apply sent without recording their outcome (a crash, a kill, a lost
 * or unreadable answer: pendingCreates.ts). One answered with a Key that the manifest does not hold yet is
 * adopted by that Key (the apply stopped while its file and the manifest took it). Else, among the server's
 * objects of the file's folder and kind that the manifest does not hold: one holding what the file says is
 * adopted (the file takes its Key, the manifest records it, nothing is sent); one only like it (same name)
 * leaves the create unticked, asking; none lets it be created again, saying so. Either way the entry names
 * the pending create it looked for, which apply asks of it.
 */
import * as path from 'node:path';
import { kind as kindOf, Kind } from '../../model/kinds';
import { sameJson } from '../../model/saveChecks';
import type { BaseInfo } from '../../model/types';
import { l10n } from '../../l10n';
import type { Bases } from './bases';
import { createBody, isServerOwned, objectFileName } from './fileForm';
import { readLocalFile } from './localFiles';
import type { Manifest } from './manifest';
import { PendingCreate, PendingCreates } from './pendingCreates';
import { placeObject } from './placeObject';
import type { ListedObject, PlanEntry } from './plan';
import { isRegularFile, pathProblem, resolveInside } from './safePaths';

export interface Resolved {
  /** What was adopted, one line each. */
  resolved: string[];
  /** Creates left unticked: the server may hold them already. */
  held: Set<PlanEntry>;
  /** Keys now in the manifest. */
  adopted: Set<string>;
}

export function resolvePendingCreates(root: string, manifest: Manifest, bases: Bases, entries: PlanEntry[], unclaimed: ListedObject[]): Resolved {
  const out: Resolved = { resolved: [], held: new Set(), adopted: new Set() };
  const pending = new PendingCreates(root);
  if (!pending.size) return out;
  const creates = new Map(entries.flatMap((e) => (e.action === 'create' ? [[e.path, e] as const] : [])));
  const settled: string[] = [];
  const adopted = (sent: PendingCreate, entry: PlanEntry | undefined, live: BaseInfo, why: string) => {
    adopt(root, manifest, bases, sent, live);
    out.adopted.add(live.Key!);
    settled.push(sent.path);
    out.resolved.push(why);
    if (!entry) return;
    entry.action = 'behind'; // dropped from the entries by the caller once adopted
    entry.key = live.Key!;
  };
  const candidates = new Candidates(unclaimed);
  for (const sent of pending.all()) {
    const entry = creates.get(sent.path);
    const free = (o: ListedObject) => o.kind.id === sent.kind && o.folderKey === sent.folderKey && !out.adopted.has(o.object.Key!);
    // Answered, then stopped before its file and the manifest held it: the Key answered is the object.
    const byAnswer = sent.key === undefined ? undefined : candidates.byKey.get(sent.key);
    const answered = byAnswer && free(byAnswer) ? byAnswer : undefined;
    if (answered) {
      adopted(
        sent,
        entry,
        answered.object,
        l10n.t(
          '{0}: created by an earlier apply ({1}) that stopped before recording it; the file now has its Key {2}, nothing is sent',
          sent.path,
          sent.at,
          sent.key!,
        ),
      );
      continue;
    }
    if (!entry) {
      // Recorded under its Key, or its file removed since: nothing of it is left to send (an unreadable file waits).
      if (!pathProblem(root, sent.path) && !isRegularFile(resolveInside(root, sent.path))) settled.push(sent.path);
      continue;
    }
    const kind = kindOf(sent.kind);
    const local = readLocalFile(root, entry.path, entry.folderKey, kind).object;
    if (!local) continue;
    const alike = candidates.named(sent, local.CommonName).filter(free);
    const equal = alike.find((o) => holds(kind, o.object, local));
    if (equal) {
      adopted(
        sent,
        entry,
        equal.object,
        l10n.t(
          '{0}: created by an earlier apply whose answer was lost ({1}); the file now has its Key {2}, nothing is sent',
          entry.path,
          sent.at,
          equal.object.Key!,
        ),
      );
      continue;
    }
    entry.pendingId = sent.id;
    const like = alike.find((o) => o.object.CommonName === local.CommonName);
    if (like) {
      out.held.add(entry);
      entry.reason = l10n.t(
        'An earlier apply ({0}) sent this create and never learnt its outcome; {1} (Key {2}) on the server is like it but not the same: compare before ticking it, or add that Key to the file',
        sent.at,
        String(like.object.CommonName),
        like.object.Key!,
      );
    } else {
      entry.reason = l10n.t(
        'An earlier apply ({0}) sent this create and its answer was lost; no such object is on the server, so it may be created again',
        sent.at,
      );
    }
  }
  pending.settle(settled);
  return out;
}

/**
 * The server's objects the manifest does not hold, by Key and by folder, kind and name: each pending create
 * looks at its own few (after a lost connection, thousands of creates may be pending among thousands of objects).
 */
class Candidates {
  readonly byKey: Map<string, ListedObject>;
  private readonly byName = new Map<string, ListedObject[]>();

  constructor(private readonly all: readonly ListedObject[]) {
    this.byKey = new Map(all.map((o) => [o.object.Key!, o]));
    for (const o of all) {
      const at = placeName(o.kind.id, o.folderKey, o.object.CommonName);
      const same = this.byName.get(at);
      if (same) same.push(o);
      else this.byName.set(at, [o]);
    }
  }

  /** Those that may hold what a file named `name` says: of its name (a file with no name says nothing of it: all). */
  named(sent: PendingCreate, name: unknown): readonly ListedObject[] {
    return typeof name === 'string' && name ? (this.byName.get(placeName(sent.kind, sent.folderKey, name)) ?? []) : this.all;
  }
}

const placeName = (kind: string, folderKey: string, name: unknown) => JSON.stringify([kind, folderKey, name]);

/** The server's object holds every field the file sets (server-owned fields and secrets aside). */
function holds(kind: Kind, live: BaseInfo, local: BaseInfo): boolean {
  const body = createBody(kind, local);
  const secrets = new Set(kind.sensitiveFields ?? []);
  // A field the file leaves empty may be filled in by the server (ObjectLinks, say): not compared.
  return Object.keys(body).every((f) => isServerOwned(f) || f === 'Key' || secrets.has(f) || empty(body[f]) || sameJson(body[f], live[f]));
}

function empty(value: unknown): boolean {
  return value === null || value === undefined || (Array.isArray(value) && !value.length);
}

/** As apply records a create: the file takes the server's object and its Key, the manifest follows (placeObject.ts). */
function adopt(root: string, manifest: Manifest, bases: Bases, sent: PendingCreate, live: BaseInfo): void {
  placeObject(root, manifest, bases, sent, `${path.posix.dirname(sent.path)}/${objectFileName(live)}`, { ...live, Key: live.Key! });
}
