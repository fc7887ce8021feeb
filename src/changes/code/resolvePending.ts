/**
 * A plan's answer to creates an earlier apply sent without learning their outcome (a crash, a kill, a lost
 * or unreadable answer: pendingCreates.ts). Among the server's objects of the file's folder and kind that no
 * file of the folder holds: one holding what the file says is adopted (the file takes its Key, the manifest
 * records it, nothing is sent); one only like it (same name) leaves the create unticked, asking; none lets it
 * be created again, saying so.
 */
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import { kind as kindOf, Kind } from '../../model/kinds';
import { sameJson } from '../../model/saveChecks';
import type { BaseInfo } from '../../model/types';
import { l10n } from '../../l10n';
import type { Bases } from './bases';
import { canonicalText, createBody, fileForm, hashOf, isServerOwned, objectFileName } from './fileForm';
import { LocalFile, readLocalFile } from './localFiles';
import { journalSync, Manifest } from './manifest';
import { pendingCreates, settlePending } from './pendingCreates';
import type { ListedObject, PlanEntry } from './plan';
import { isRegularFile, readNoFollow, resolveInside, writeNoFollow } from './safePaths';

export interface Resolved {
  /** What was adopted, one line each. */
  resolved: string[];
  /** Creates left unticked: the server may hold them already. */
  held: Set<PlanEntry>;
  /** Keys now in the manifest. */
  adopted: Set<string>;
}

export function resolvePendingCreates(
  root: string, manifest: Manifest, bases: Bases, entries: PlanEntry[], live: ListedObject[], files: LocalFile[],
): Resolved {
  const out: Resolved = { resolved: [], held: new Set(), adopted: new Set() };
  const pending = pendingCreates(root);
  if (!pending.size) return out;
  const held = new Set(files.flatMap((f) => (f.key ? [f.key] : [])));
  const unclaimed = live.filter((o) => typeof o.object.Key === 'string' && !manifest.objects[o.object.Key] && !held.has(o.object.Key));
  const settled: string[] = [];
  for (const entry of entries) {
    const sent = pending.get(entry.path);
    if (entry.action !== 'create' || !sent) continue;
    const kind = kindOf(entry.kind);
    const local = readLocalFile(root, entry.path, entry.folderKey, kind).object;
    if (!local) continue;
    const candidates = unclaimed.filter((o) => o.kind.id === entry.kind && o.folderKey === entry.folderKey && !out.adopted.has(o.object.Key!));
    const equal = candidates.find((o) => holds(kind, o.object, local));
    if (equal) {
      adopt(root, manifest, bases, entry, kind, equal.object);
      out.adopted.add(equal.object.Key!);
      settled.push(entry.path);
      out.resolved.push(l10n.t('{0}: created by an earlier apply whose answer was lost ({1}); the file now has its Key {2}, nothing is sent',
        entry.path, sent.at, equal.object.Key!));
      entry.action = 'behind'; // dropped from the entries by the caller once adopted
      entry.key = equal.object.Key!;
      continue;
    }
    const like = candidates.find((o) => o.object.CommonName === local.CommonName);
    if (like) {
      out.held.add(entry);
      entry.reason = l10n.t('An earlier apply ({0}) sent this create and never learnt its outcome; {1} (Key {2}) on the server is like it but not the same: compare before ticking it, or add that Key to the file',
        sent.at, String(like.object.CommonName), like.object.Key!);
    } else {
      entry.reason = l10n.t('An earlier apply ({0}) sent this create and its answer was lost; no such object is on the server, so it may be created again', sent.at);
    }
  }
  settlePending(root, settled);
  return out;
}

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

/** As apply records a create: the file holds the server's object with its Key, the merge base and the manifest follow. */
function adopt(root: string, manifest: Manifest, bases: Bases, entry: PlanEntry, kind: Kind, live: BaseInfo): void {
  const text = canonicalText(kind, fileForm(kind, live));
  const rel = `${path.posix.dirname(entry.path)}/${objectFileName(live)}`;
  const file = resolveInside(root, rel);
  if (readNoFollow(file, rel) !== text) writeNoFollow(file, text, rel);
  const old = resolveInside(root, entry.path);
  if (rel !== entry.path && isRegularFile(old)) rmSync(old);
  const hash = hashOf(text);
  bases.add(hash, text);
  bases.flush();
  const object = { path: rel, kind: kind.id, folderKey: entry.folderKey, version: live.ConcurrencyVersion ?? null, hash };
  journalSync(root, manifest, [{ key: live.Key!, object }]);
}
