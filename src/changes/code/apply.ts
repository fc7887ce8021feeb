/**
 * Apply the ticked entries of a plan, object by object through the one
 * executor (version-checked: nothing is sent for an object that moved on the
 * server). An entry whose file changed since the plan, or which was pulled
 * again since, is refused before anything is sent: a saved plan applies only
 * what it showed. The manifest moves forward per applied object.
 * A dry run sends no write: it lists the exact requests as cURL.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { OmsClient } from '../../api/client';
import { curlCommand } from '../../api/curl';
import type { Http, RequestOptions } from '../../api/http';
import { kind as kindOf, kinds } from '../../model/kinds';
import type { BaseInfo } from '../../model/types';
import { hideSecrets, secretShown } from '../../model/secrets';
import { Change, ChangeResult, resultLine, ResultLine, RunOptions, runChanges } from '../executor';
import { Bases } from './bases';
import { bodyToSend, createBody, fileForm, objectFileName } from './fileForm';
import { readLocalFile } from './localFiles';
import { checkBinding, ConnectionBinding, ensureCache, journalSync, Manifest, readManifest, writeManifest } from './manifest';
import { Plan, PlanEntry, sendable } from './plan';
import { PendingCreates } from './pendingCreates';
import { placeObject } from './placeObject';
import { stampStats } from './fileStats';
import { pathProblem, resolveInside } from './safePaths';
import { l10n } from '../../l10n';

export type ApplyOptions = Omit<RunOptions, 'onResult'> & {
  /** Per entry as it ends; `change` when it went to the executor (for the run journal, src/changes/runJournal.ts). */
  onResult?(r: ChangeResult, change?: Change): void;
};

export async function applyPlan(client: OmsClient, root: string, connection: ConnectionBinding, plan: Plan, options: ApplyOptions): Promise<ChangeResult[]> {
  const { manifest, bases, pending, changes, refused } = await prepare(root, connection, plan);
  refused.forEach((r) => options.onResult?.(r));
  const byId = new Map(changes.map((c) => [c.change.id, c]));
  try {
    const results = await runChanges(
      client,
      changes.map((c) => c.change),
      {
        ...options,
        // A create is recorded as pending before it is sent: after a crash or a lost answer the next plan looks for it.
        beforeWrite: async (change, body, live) => {
          const entry = byId.get(change.id)?.entry;
          if (entry?.action === 'create') pending.record({ path: entry.path, kind: entry.kind, folderKey: entry.folderKey });
          await options.beforeWrite?.(change, body, live);
        },
        onResult: (r) => {
          const { entry, change } = byId.get(r.id)!;
          const created = entry.action === 'create' && r.outcome === 'applied' ? r.after?.Key : undefined;
          // Its Key first: a crash while the file and the manifest take it leaves the next plan that Key to adopt.
          if (created) pending.answered(entry.path, created);
          if (r.outcome === 'applied') record(root, manifest, bases, entry, r);
          // Settled once the answer is on disk, or the service refused it (4xx); any other end leaves it pending.
          if (created || (entry.action === 'create' && r.outcome === 'failed' && /^4\d\d:/.test(r.reason ?? ''))) pending.settle([entry.path]);
          options.onResult?.(r, change);
        },
      },
    );
    return [...refused, ...results];
  } finally {
    await writeManifest(root, manifest);
    await stampStats(root).catch(() => undefined); // the files placed now are known by their stats to the next plan
  }
}

/** The requests an apply would send, as cURL (`$TOKEN` for the token): objects are read, nothing is written. */
export async function dryRun(
  client: OmsClient,
  root: string,
  connection: ConnectionBinding,
  plan: Plan,
): Promise<{ commands: string[]; results: ChangeResult[] }> {
  const { changes, refused } = await prepare(root, connection, plan);
  const commands: string[] = [];
  let current: Change | undefined;
  const recording: Http = async <T>(req: RequestOptions): Promise<T> => {
    if (req.method === 'GET') return client.http<T>(req);
    // A dry run is pasted into reviews and chats: secret fields only as a placeholder, as the token.
    const json = current && req.json ? hideSecrets(current.kind, req.json as BaseInfo, secretShown) : req.json;
    commands.push(`# ${current?.op} ${current?.label}`, curlCommand(connection.url, { ...req, json }));
    // What the service would answer, so the run goes on as it would: a create returns its object.
    return (req.method === 'POST' ? { ...(req.json as BaseInfo), Key: '(new)' } : undefined) as T;
  };
  const results: ChangeResult[] = [];
  for (const { change } of changes) {
    current = change;
    results.push(...(await runChanges(new OmsClient(recording), [change], { stopOnError: false, concurrency: 1 })));
  }
  return { commands, results: [...refused, ...results] };
}

interface Prepared {
  manifest: Manifest;
  bases: Bases;
  pending: PendingCreates;
  changes: Array<{ entry: PlanEntry; change: Change }>;
  refused: ChangeResult[];
}

async function prepare(root: string, connection: ConnectionBinding, plan: Plan): Promise<Prepared> {
  // Only the ticked objects' lines of the manifest: an apply's work follows its changes, not the folder's size.
  const manifest = await readManifest(
    root,
    plan.entries.flatMap((e) => (e.selected && e.key ? [e.key] : [])),
  );
  if (!manifest) throw new Error(l10n.t('This folder holds no pulled objects (no oms.manifest.json)'));
  checkBinding(manifest, connection);
  checkBinding({ ...manifest, connection: plan.connection }, connection);
  // A fresh clone has no local cache (kept out of git): the journal of what is applied goes there.
  await ensureCache(root);
  const bases = new Bases(root);
  // Creates sent without learning their outcome: only a plan that names the send looked on the service for it (resolvePending.ts).
  const pending = new PendingCreates(root);
  const unknownSince = (e: PlanEntry) => {
    const sent = pending.get(e.path);
    return sent !== undefined && sent.id !== e.pendingId;
  };
  const changes: Prepared['changes'] = [];
  const refused: ChangeResult[] = [];
  for (const entry of plan.entries.filter((e) => e.selected)) {
    const notSent = (reason: string) => refused.push({ id: entry.id, label: entry.label, outcome: 'notSent', reason });
    if (!sendable.has(entry.action)) {
      notSent(`${entry.action}: ${entry.reason ?? l10n.t('nothing to send')}`);
      continue;
    }
    // A saved plan is a file of the folder like any other: each entry is checked against the manifest and the files.
    const disagrees = entryProblem(root, manifest, entry);
    if (disagrees) {
      notSent(disagrees);
      continue;
    }
    const kind = kindOf(entry.kind);
    const pulled = entry.key ? manifest.objects.get(entry.key) : undefined;
    if (entry.key && (!pulled || pulled.version !== entry.base?.version || pulled.hash !== entry.base?.hash)) {
      notSent(l10n.t('Pulled or applied again since the plan: plan again'));
      continue;
    }
    const common = { id: entry.id, label: entry.label, kind, folderKey: entry.folderKey, key: entry.key, op: entry.action as Change['op'] };
    if (entry.action === 'delete') {
      if (await fileExists(resolveInside(root, entry.path))) notSent(l10n.t('The file is back since the plan: plan again'));
      else changes.push({ entry, change: { ...common, baseVersion: entry.live?.version ?? null, build: (live) => live! } });
      continue;
    }
    const file = readLocalFile(root, entry.path, entry.folderKey, kind);
    if (!file.object || file.hash !== entry.local?.hash) {
      notSent(l10n.t('The file changed since the plan: plan again'));
      continue;
    }
    const local = file.object;
    if (entry.action === 'create') {
      if (unknownSince(entry)) notSent(l10n.t('Sent by an earlier run whose outcome is not known: plan again, it looks for the object on the service'));
      else changes.push({ entry, change: { ...common, build: () => createBody(kind, local) } });
      continue;
    }
    changes.push({
      entry,
      change: {
        ...common,
        baseVersion: entry.live?.version ?? null,
        // Sent only while the server is at the pulled version (baseVersion): its object in file form is the merge base.
        build: (live) => bodyToSend(kind, live!, fileForm(kind, live!), local),
      },
    });
  }
  return { manifest, bases, pending, changes, refused };
}

/**
 * After a write (synchronously, inside the executor's report of it): the file holds what the
 * server now holds (a create's file takes its Key), and the merge base and manifest move forward (placeObject.ts).
 */
function record(root: string, manifest: Manifest, bases: Bases, entry: PlanEntry, r: ChangeResult): void {
  if (entry.action === 'delete') {
    journalSync(root, manifest, [{ key: entry.key!, object: null }]);
    return;
  }
  const after = r.after;
  if (!after?.Key) return; // written, but not read back: the next plan shows where it stands
  const rel = entry.action === 'create' ? `${path.posix.dirname(entry.path)}/${objectFileName(after)}` : entry.path;
  placeObject(root, manifest, bases, entry, rel, { ...after, Key: after.Key });
}

/** Why a plan's entry may not be applied to this folder as it stands (a saved plan is untrusted), or undefined. */
function entryProblem(root: string, manifest: Manifest, entry: PlanEntry): string | undefined {
  if (!kinds.has(entry.kind) || typeof entry.folderKey !== 'string') return l10n.t('{0}: not an entry this version wrote', String(entry.path));
  const refused = pathProblem(root, entry.path);
  if (refused) return l10n.t('{0}: {1}', String(entry.path), refused);
  if (entry.action === 'create') {
    const dir = manifest.folders[entry.folderKey];
    const where = `${dir}/${kindOf(entry.kind).collection}/`;
    if (entry.key !== undefined || dir === undefined || !entry.path.startsWith(where) || entry.path.slice(where.length).includes('/')) {
      return l10n.t('{0} is not a new file of {1}: plan again', entry.path, dir === undefined ? entry.folderKey : where);
    }
    return undefined;
  }
  const pulled = typeof entry.key === 'string' ? manifest.objects.get(entry.key) : undefined;
  if (!pulled) return l10n.t('{0} is not an object pulled into this folder: plan again', String(entry.key ?? entry.path));
  if (pulled.path !== entry.path || pulled.kind !== entry.kind || pulled.folderKey !== entry.folderKey) {
    return l10n.t('The plan says {0} for {1}, the manifest {2}: plan again', entry.path, entry.key!, pulled.path);
  }
  return undefined;
}

async function fileExists(p: string): Promise<boolean> {
  return fs.lstat(p).then(
    () => true,
    () => false,
  );
}

/** A run's report in the local cache (`.oms/runs/`, out of git): per object its outcome and reason, no object bodies. */
export async function writeRunReport(root: string, plan: Plan, results: readonly ResultLine[]): Promise<string> {
  const at = new Date().toISOString();
  const file = path.join(root, '.oms', 'runs', `${at.replace(/[:.]/g, '-')}.json`);
  await fs.mkdir(path.dirname(file), { recursive: true });
  const outcomes = results.map(resultLine);
  const report = { at, planId: plan.id, connection: plan.connection, results: outcomes };
  await fs.writeFile(file, JSON.stringify(report, null, 2) + '\n');
  return file;
}
