/**
 * The editor's Apply without its window, for the benches: what src/runs/applyRun.ts and src/runs/run.ts do around
 * `applyPlan` (each write's intent in the run journal, on disk before it is sent; its outcome after; the folder's
 * report), so the command line, which does the same, is set beside the same work.
 */
import type { OmsClient } from '../../src/api/client';
import { applyPlan, writeRunReport } from '../../src/changes/code/apply';
import { cachePath, type ConnectionBinding } from '../../src/changes/code/manifest';
import type { Plan } from '../../src/changes/code/plan';
import { RunJournal } from '../../src/changes/runJournal';

export async function editorApply(client: OmsClient, root: string, binding: ConnectionBinding, plan: Plan): Promise<void> {
  const total = plan.entries.filter((e) => e.selected).length;
  const journal = await new RunJournal(cachePath(root, 'runs')).begin({
    title: 'Apply',
    connectionId: 'bench',
    total,
    recipe: { type: 'apply', folder: root },
  });
  try {
    const results = await applyPlan(client, root, binding, plan, {
      stopOnError: false,
      beforeWrite: (change, body, live) => journal.intent(change, body, live),
      onResult: (r, change) => void (change && journal.record(change, r).catch(() => undefined)),
    });
    await writeRunReport(root, plan, results);
  } finally {
    await journal.close();
  }
}
