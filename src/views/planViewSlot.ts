/**
 * The Object Changes view as activation registers it: an empty view (its welcome text shows) until
 * the first plan loads the view's code (planView.ts, in the chunk of the objects-as-code commands),
 * which then fills it. Activation so loads none of objects as code.
 */
import vscode = require('vscode');
import type { Services } from '../services';

/** What the view's code needs of the extension: live reads, and the connections to plan again. */
type PlanServices = Pick<Services, 'live' | 'connections'>;

/** What the view's code brings when it loads: the tree, and the view's events it handles. */
export interface PlanViewCode<T> extends vscode.TreeDataProvider<T> {
  attach(view: vscode.TreeView<T>, services: PlanServices): vscode.Disposable[];
}

class Slot implements vscode.TreeDataProvider<unknown> {
  code?: PlanViewCode<unknown>;
  private readonly changed = new vscode.EventEmitter<unknown>();
  readonly onDidChangeTreeData = this.changed.event;
  private view?: vscode.TreeView<unknown>;
  services?: PlanServices;
  private readonly held: vscode.Disposable[] = [this.changed];

  fill(code: PlanViewCode<unknown>): void {
    if (this.code) return;
    this.code = code;
    if (code.onDidChangeTreeData) this.held.push(code.onDidChangeTreeData((e) => this.changed.fire(e)));
    if (this.view) this.attach(this.view);
  }

  show(view: vscode.TreeView<unknown>): void {
    this.view = view;
    if (this.code) this.attach(view);
  }

  private attach(view: vscode.TreeView<unknown>): void {
    this.held.push(...(this.code?.attach(view, this.services!) ?? []));
    this.changed.fire(undefined);
  }

  getTreeItem(node: unknown): vscode.TreeItem | Thenable<vscode.TreeItem> {
    return this.code ? this.code.getTreeItem(node) : new vscode.TreeItem('');
  }

  getChildren(node?: unknown): vscode.ProviderResult<unknown[]> {
    return this.code ? this.code.getChildren(node) : [];
  }

  getParent(node: unknown): vscode.ProviderResult<unknown> {
    return this.code?.getParent?.(node);
  }

  dispose(): void {
    vscode.Disposable.from(...this.held).dispose();
  }
}

const slot = new Slot();

/** Called by planView.ts as it loads: the view shows its tree from now on. */
export function fillPlanView<T>(code: PlanViewCode<T>): void {
  slot.fill(code);
}

export function registerPlanView(services: PlanServices): vscode.Disposable[] {
  slot.services = services;
  const view = vscode.window.createTreeView('oms.plan', { treeDataProvider: slot, manageCheckboxStateManually: true });
  slot.show(view);
  return [view, slot];
}
