/**
 * The Object Changes view: the current plan of a pulled folder, grouped by
 * action, each sendable entry with a checkbox (ticked: apply sends it). A
 * click opens the live object beside the file. The plan itself is computed
 * in src/changes/code/plan.ts; this module only shows it and keeps the ticks.
 */
import vscode = require('vscode');
import type { FieldChange } from '../changes/code/fileForm';
import { sendable, type Plan, type PlanAction, type PlanEntry, type PlanResult } from '../changes/code/plan';
import { fillPlanView, type PlanViewCode } from './planViewSlot';
import { carryTicks } from '../changes/code/ticks';
import { actionCounts, ticked } from '../changes/code/planCounts';
import type { Services } from '../services';
import { followServerInPlan } from './planLive';
import { fieldLabel } from '../model/fieldNames';

/** What the view shows: a plan, the folder it is of and the connection it was made against. */
export interface ShownPlan extends PlanResult {
  /** The pulled folder (absolute). */
  root: string;
  connectionId: string;
}

const order: readonly PlanAction[] = ['create', 'update', 'delete', 'stale', 'behind', 'invalid', 'deleteSkipped'];

function actionName(action: PlanAction): string {
  switch (action) {
    case 'create':
      return vscode.l10n.t('Create');
    case 'update':
      return vscode.l10n.t('Update');
    case 'delete':
      return vscode.l10n.t('Delete');
    case 'stale':
      return vscode.l10n.t('Stale');
    case 'behind':
      return vscode.l10n.t('Behind');
    case 'invalid':
      return vscode.l10n.t('Invalid');
    case 'deleteSkipped':
      return vscode.l10n.t('Deleted file, not sent');
  }
}

function groupLabel(action: PlanAction, n: number): string {
  switch (action) {
    case 'create':
      return vscode.l10n.t('Create ({0})', n);
    case 'update':
      return vscode.l10n.t('Update ({0})', n);
    case 'delete':
      return vscode.l10n.t('Delete ({0})', n);
    case 'stale':
      return vscode.l10n.t('Stale: changed here and on the server ({0})', n);
    case 'behind':
      return vscode.l10n.t('Behind: changed on the server only ({0})', n);
    case 'invalid':
      return vscode.l10n.t('Invalid: not sendable ({0})', n);
    case 'deleteSkipped':
      return vscode.l10n.t('Deleted files, not sent ({0})', n);
  }
}

const icons: Record<PlanAction, string> = {
  create: 'diff-added',
  update: 'diff-modified',
  delete: 'diff-removed',
  stale: 'warning',
  behind: 'cloud-download',
  invalid: 'error',
  deleteSkipped: 'circle-slash',
};

/** A row: a group of one action, a range of a large group's entries, or an entry. */
export type PlanNode = { group: PlanAction } | RangeNode | { entry: PlanEntry };
type Node = PlanNode;
/** Entries `from` (counted from 0) up to `to` of the group of action `range`. */
interface RangeNode {
  range: PlanAction;
  from: number;
  to: number;
}

/**
 * A group of more entries than this shows them in ranges of this many, as VS Code's debug view shows a
 * long array: ticking the group then redraws its ranges, not 10,000 rows (sending and building those
 * held the window up 130-200 ms).
 */
const rangeSize = 1000;

const actionOf = (node: Node): PlanAction => ('entry' in node ? node.entry.action : 'range' in node ? node.range : node.group);

const planLiveScheme = 'oms-plan-live';

export class PlanView implements PlanViewCode<Node>, vscode.TextDocumentContentProvider {
  private shown?: ShownPlan;
  /** The last plan shown of each folder: a re-plan keeps the ticks of what did not change. */
  private readonly lastOf = new Map<string, Plan>();
  private readonly changed = new vscode.EventEmitter<Node | Node[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  view?: vscode.TreeView<Node>;
  /** Texts of the live objects shown in diffs (see `liveText`). */
  private readonly texts = new Map<string, string>();
  /** One node per group and entry, the same each time: a tick refreshes its own row and group, not 10,000 rows. */
  private readonly groups = new Map<PlanAction, Node>();
  private readonly nodes = new WeakMap<PlanEntry, Node>();
  /** The ranges of the plan shown, the same node each time (by action and start). */
  private readonly ranges = new Map<string, RangeNode>();

  /** Why the plan shown does not follow the server (undefined: it does). */
  private notFollowing?: string;

  /** The view activation registered (planViewSlot.ts): its ticks, the diffs' live documents and live reads are handled here. */
  attach(view: vscode.TreeView<Node>, services: Pick<Services, 'live' | 'connections'>): vscode.Disposable[] {
    this.view = view;
    return [
      view.onDidChangeCheckboxState((e) => this.check(e.items)),
      vscode.workspace.registerTextDocumentContentProvider(planLiveScheme, this),
      ...followServerInPlan(this, view, services),
      this.changed,
    ];
  }

  /** Live reads follow the plan shown (undefined), or not, and why: the view's description says so. */
  following(reason: string | undefined): void {
    if (reason === this.notFollowing) return;
    this.notFollowing = reason;
    this.describe();
  }

  private describe(): void {
    if (!this.view || !this.shown) return;
    const folder = folderName(this.shown.root);
    this.view.description = this.notFollowing ? vscode.l10n.t('{0} · not following the server: {1}', folder, this.notFollowing) : folder;
  }

  get current(): ShownPlan | undefined {
    return this.shown;
  }

  /** The last plan shown of `root`, also after a plan of it failed. */
  lastPlanOf(root: string): Plan | undefined {
    return this.lastOf.get(root);
  }

  /** Shows a plan; `replanned`: a new plan of the folder, whose unchanged entries keep the ticks of the last one. */
  show(shown: ShownPlan, options: { replanned?: boolean } = {}): void {
    const last = this.lastOf.get(shown.root);
    if (options.replanned && last) carryTicks(last, shown.plan);
    this.lastOf.set(shown.root, shown.plan);
    this.showing(shown, summaryLine(shown));
  }

  /** A plan of `root` failed: nothing stale stays on screen to tick, and the view says why. */
  failed(root: string, reason: string): void {
    this.showing(undefined, vscode.l10n.t('The plan of {0} failed: {1}', folderName(root), reason));
    if (this.view) this.view.description = folderName(root);
  }

  private showing(shown: ShownPlan | undefined, message: string): void {
    this.shown = shown;
    this.texts.clear();
    this.ranges.clear();
    void vscode.commands.executeCommand('setContext', 'oms.planShown', !!shown);
    void vscode.commands.executeCommand('setContext', 'oms.planIncludesDeletes', !!shown?.plan.includeDeletes);
    this.changed.fire(undefined);
    if (this.view) {
      this.view.message = message;
      this.view.description = undefined;
      this.describe();
    }
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if ('range' in node) return this.rangeItem(node);
    if ('group' in node) {
      const entries = this.entriesOf(node.group);
      const item = new vscode.TreeItem(groupLabel(node.group, entries.length), vscode.TreeItemCollapsibleState.Expanded);
      item.id = `group:${node.group}`;
      item.iconPath = new vscode.ThemeIcon(icons[node.group]);
      item.contextValue = `oms-plan-group-${node.group}`;
      if (sendable.has(node.group)) {
        const ticked = tickBox(item, entries);
        item.accessibilityInformation = { label: vscode.l10n.t('{0}: {1} of {2} ticked', groupLabel(node.group, entries.length), ticked, entries.length) };
      }
      return item;
    }
    const e = node.entry;
    const item = new vscode.TreeItem(e.label, vscode.TreeItemCollapsibleState.None);
    item.id = `entry:${e.action}:${e.id}`;
    item.iconPath = new vscode.ThemeIcon(icons[e.action]);
    item.description = describe(e);
    item.contextValue = `oms-plan-entry-${e.action}`;
    // No resourceUri: a row is an object's change, which its label, icon and description say. With one, every row drawn
    // asked each file decoration provider (the Explorer's threw for a file it had not listed): half of a row's drawing.
    if (sendable.has(e.action)) item.checkboxState = e.selected ? vscode.TreeItemCheckboxState.Checked : vscode.TreeItemCheckboxState.Unchecked;
    item.accessibilityInformation = { label: spoken(e) };
    item.command = { command: 'oms.openPlanEntry', title: vscode.l10n.t('Show Beside the Server Version'), arguments: [e] };
    return item;
  }

  private rangeItem(node: RangeNode): vscode.TreeItem {
    const entries = this.entriesUnder(node);
    const item = new vscode.TreeItem(vscode.l10n.t('{0}–{1}', node.from + 1, node.to), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `range:${node.range}:${node.from}`;
    item.description = entries.length ? `${entries[0].label} … ${entries[entries.length - 1].label}` : undefined;
    item.contextValue = `oms-plan-range-${node.range}`;
    if (sendable.has(node.range)) {
      const ticked = tickBox(item, entries);
      item.accessibilityInformation = {
        label: vscode.l10n.t('{0}, {1} to {2}: {3} of {4} ticked', actionName(node.range), node.from + 1, node.to, ticked, entries.length),
      };
    }
    return item;
  }

  /** The tooltip when it is about to show (built for 10,000 rows up front, it held up the extension host). */
  resolveTreeItem(item: vscode.TreeItem, node: Node): vscode.TreeItem {
    if ('entry' in node) item.tooltip = new vscode.MarkdownString(tooltip(node.entry));
    return item;
  }

  getChildren(node?: Node): Node[] {
    if (!this.shown) return [];
    if (!node) return order.filter((a) => this.entriesOf(a).length).map((group) => this.groupNode(group));
    if ('entry' in node) return [];
    if ('range' in node) return this.entriesUnder(node).map((entry) => this.entryNode(entry));
    const entries = this.entriesOf(node.group);
    if (entries.length <= rangeSize) return entries.map((entry) => this.entryNode(entry));
    return Array.from({ length: Math.ceil(entries.length / rangeSize) }, (_, i) => this.rangeNode(node.group, i * rangeSize, entries.length));
  }

  getParent(node: Node): Node | undefined {
    if ('group' in node) return undefined;
    if ('range' in node) return this.groupNode(node.range);
    const entries = this.entriesOf(node.entry.action);
    if (entries.length <= rangeSize) return this.groupNode(node.entry.action);
    const at = entries.indexOf(node.entry);
    return this.rangeNode(node.entry.action, at - (at % rangeSize), entries.length);
  }

  private rangeNode(action: PlanAction, from: number, entries: number): RangeNode {
    let node = this.ranges.get(`${action}:${from}`);
    if (!node) this.ranges.set(`${action}:${from}`, (node = { range: action, from, to: Math.min(from + rangeSize, entries) }));
    return node;
  }

  private groupNode(group: PlanAction): Node {
    let node = this.groups.get(group);
    if (!node) this.groups.set(group, (node = { group }));
    return node;
  }

  private entryNode(entry: PlanEntry): Node {
    let node = this.nodes.get(entry);
    if (!node) this.nodes.set(entry, (node = { entry }));
    return node;
  }

  /**
   * Ticks, kept by hand (`manageCheckboxStateManually`): a group's or range's box ticks or unticks
   * its entries; an entry's box only itself (VS Code would otherwise report the group as unticked
   * with it, and its other entries with it). Redrawn: the rows whose box changed, and those above.
   */
  check(items: ReadonlyArray<[Node, vscode.TreeItemCheckboxState]>): void {
    const rows = new Set<Node>();
    for (const [node, state] of items) {
      const on = state === vscode.TreeItemCheckboxState.Checked;
      for (const e of this.entriesUnder(node)) e.selected = on;
      for (let row: Node | undefined = node; row; row = this.getParent(row)) rows.add(row);
    }
    if (this.view && this.shown) this.view.message = summaryLine(this.shown);
    this.changed.fire([...rows]);
  }

  /** Ticks the focused entry or group (Space, the Tick or Untick command), or unticks it when it is ticked. */
  toggle(node: Node | undefined = this.view?.selection[0]): void {
    if (!node) throw new Error(vscode.l10n.t('Choose an entry of the Object Changes view'));
    const entries = this.entriesUnder(node);
    if (!sendable.has(actionOf(node)) || !entries.length) {
      throw new Error(vscode.l10n.t('Only entries under Create, Update or Delete are ticked to send'));
    }
    const on = !entries.every((e) => e.selected);
    this.check([[node, on ? vscode.TreeItemCheckboxState.Checked : vscode.TreeItemCheckboxState.Unchecked]]);
  }

  private entriesUnder(node: Node): PlanEntry[] {
    if ('entry' in node) return [node.entry];
    return 'range' in node ? this.entriesOf(node.range).slice(node.from, node.to) : this.entriesOf(node.group);
  }

  private entriesOf(action: PlanAction): PlanEntry[] {
    return this.shown?.plan.entries.filter((e) => e.action === action) ?? [];
  }

  /** A read-only document of the live object in file form, for the diff beside the file. */
  liveUri(entry: PlanEntry, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: planLiveScheme, path: `/${entry.label.replace(/[\\/:*?"<>|#%]+/g, '_')} (server).json`, query: entry.id });
    this.texts.set(uri.toString(), text);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }
}

/** A group's or range's box: ticked when all its entries are. Returns how many are. */
function tickBox(item: vscode.TreeItem, entries: readonly PlanEntry[]): number {
  const ticked = entries.filter((e) => e.selected).length;
  item.checkboxState = ticked === entries.length ? vscode.TreeItemCheckboxState.Checked : vscode.TreeItemCheckboxState.Unchecked;
  return ticked;
}

function describe(e: PlanEntry): string {
  if (e.action === 'update' || e.action === 'create') return changesLine(e.changes);
  if (e.action === 'stale') return `${changesLine(e.changes)} · ${vscode.l10n.t('server v{0} → v{1}', String(e.base?.version), String(e.live?.version))}`;
  if (e.action === 'behind' && e.serverChanges?.length) return vscode.l10n.t('server: {0}', changesLine(e.serverChanges));
  return e.reason ?? '';
}

function changesLine(changes: FieldChange[]): string {
  const shown = changes
    .slice(0, 2)
    .map((c) => `${fieldLabel(c.pointer)} ${short(c.from)} → ${short(c.to)}`)
    .join(', ');
  return changes.length > 2 ? vscode.l10n.t('{0} and {1} more', shown, changes.length - 2) : shown;
}

function short(v: unknown): string {
  const s = v === undefined ? vscode.l10n.t('(none)') : JSON.stringify(v);
  return s.length > 30 ? `${s.slice(0, 29)}…` : s;
}

function tooltip(e: PlanEntry): string {
  const lines = [`**${e.label}** · ${e.path}`];
  if (e.reason) lines.push('', e.reason);
  if (e.changes.length)
    lines.push(
      '',
      vscode.l10n.t('Changed in the file:'),
      ...e.changes.slice(0, 20).map((c) => `- \`${fieldLabel(c.pointer)}\`: ${short(c.from)} → ${short(c.to)}`),
    );
  if (e.serverChanges?.length)
    lines.push(
      '',
      vscode.l10n.t('Changed on the server:'),
      ...e.serverChanges.slice(0, 20).map((c) => `- \`${fieldLabel(c.pointer)}\`: ${short(c.from)} → ${short(c.to)}`),
    );
  return lines.join('\n');
}

/** What a screen reader says for an entry: action, name, changed fields, ticked or not. */
function spoken(e: PlanEntry): string {
  const fields = [...new Set(e.changes.map((c) => fieldLabel(c.pointer)))];
  const what = fields.length ? vscode.l10n.t('changed: {0}', fields.slice(0, 5).join(', ') + (fields.length > 5 ? '…' : '')) : e.reason;
  const tick = sendable.has(e.action) ? (e.selected ? vscode.l10n.t('ticked') : vscode.l10n.t('not ticked')) : undefined;
  return [vscode.l10n.t('{0}: {1}', actionName(e.action), e.label), what, tick].filter(Boolean).join(', ');
}

/** The folder as the user knows it: relative to the workspace when inside it. */
function folderName(root: string): string {
  return vscode.workspace.asRelativePath(root);
}

function summaryLine({ plan, root }: ShownPlan): string {
  const n = actionCounts(plan.entries);
  return vscode.l10n.t(
    '{0} ticked to send · {1} stale · {2} behind · {3} invalid · {4} unchanged · {5} from {6}',
    ticked(plan).length,
    n.stale,
    n.behind,
    n.invalid,
    plan.unchanged,
    folderName(root),
    plan.connection.label,
  );
}

export const planView = new PlanView();
fillPlanView(planView);
