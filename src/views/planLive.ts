/**
 * Object Changes follows live reads: while it is visible with a plan, every list the plan read (each
 * kind of the pulled scope in each folder) is read again, and when the server moved past the plan (any
 * object of it, unchanged ones too, or one gone or new) the folder is planned again, ticks kept, as
 * Plan Changes would. When it is not followed (live updates off, signed out, no answer), it says why.
 */
import vscode = require('vscode');
import { movedSincePlan } from '../changes/code/planFollows';
import { makePlan } from '../changes/code/plan';
import type { WatchedGroup } from '../live/liveReads';
import { log } from '../log';
import type { Services } from '../services';
import type { PlanView, ShownPlan } from './planView';

/** Lists are read a page of 1000 at a time, as the plan reads them. */
const pageSize = 1000;

export function followServerInPlan(planView: PlanView, view: vscode.TreeView<unknown>, s: Pick<Services, 'live' | 'connections'>): vscode.Disposable[] {
  const groupsOf = new WeakMap<ShownPlan, WatchedGroup[]>();
  let replanning: Promise<void> | undefined;
  let again = false;

  /** The plan shown is out of date: planned again (ticks kept); a change seen meanwhile plans once more. */
  const replan = async (shownPlan: ShownPlan) => {
    const connection = s.connections.get(shownPlan.connectionId);
    if (!connection) return;
    try {
      const result = await makePlan(connection.client, shownPlan.root, shownPlan.plan.connection, { includeDeletes: shownPlan.plan.includeDeletes });
      if (planView.current !== shownPlan) return;
      planView.show({ ...result, root: shownPlan.root, connectionId: shownPlan.connectionId }, { replanned: true });
    } catch (e) {
      log().warn(`Object Changes not planned again: ${(e as Error).message}`);
    }
  };
  const replanSoon = (shownPlan: ShownPlan) => {
    if (replanning) {
      again = true;
      return;
    }
    replanning = replan(shownPlan).finally(() => {
      replanning = undefined;
      if (again && planView.current) {
        again = false;
        replanSoon(planView.current);
      }
    });
  };

  return [
    s.live.watch({
      visible: () => view.visible && !!planView.current,
      watched: (connectionId) => {
        const shown = planView.current;
        if (shown?.connectionId !== connectionId) return { groups: [], objects: [] };
        let groups = groupsOf.get(shown);
        if (!groups) groupsOf.set(shown, (groups = shown.lists.map((l) => ({ ...l, pageSize, pages: 1, all: true }))));
        return { groups, objects: [] };
      },
      following: (reason) => planView.following(reason),
    }),
    s.live.onDidRead(({ connectionId, groups, objects, gone }) => {
      const shown = planView.current;
      if (shown?.connectionId !== connectionId || !view.visible) return;
      const mine = groupsOf.get(shown) ?? [];
      const lists = groups.map((g) => ({ kind: g.group.kind, folderKey: g.group.folderKey, items: g.items, whole: mine.includes(g.group) && g.complete }));
      if (
        movedSincePlan(
          shown,
          lists,
          objects.map((o) => o.object),
          gone.map((o) => o.key),
        )
      )
        replanSoon(shown);
    }),
    view.onDidChangeVisibility(() => s.live.wake()),
    planView.onDidChangeTreeData(() => s.live.wake()),
  ];
}
