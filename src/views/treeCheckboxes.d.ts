/**
 * Tree item checkboxes (VS Code 1.80, inside our engine ^1.82) are newer than
 * the @types/vscode this repository builds with (1.74): their declarations,
 * as VS Code's own vscode.d.ts has them.
 */
import 'vscode';

declare module 'vscode' {
  export enum TreeItemCheckboxState {
    Unchecked = 0,
    Checked = 1,
  }
  export interface TreeItem {
    checkboxState?:
      | TreeItemCheckboxState
      | { readonly state: TreeItemCheckboxState; readonly tooltip?: string; readonly accessibilityInformation?: AccessibilityInformation };
  }
  export interface TreeCheckboxChangeEvent<T> {
    readonly items: ReadonlyArray<[T, TreeItemCheckboxState]>;
  }
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the name and parameter must match vscode.d.ts to merge
  export interface TreeViewOptions<T> {
    manageCheckboxStateManually?: boolean;
  }
  export interface TreeView<T> {
    readonly onDidChangeCheckboxState: Event<TreeCheckboxChangeEvent<T>>;
  }
}
