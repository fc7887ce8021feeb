/**
 * Keyboard-friendly multi-step quick input: each step is a QuickPick or an
 * InputBox showing "step/total", a Back button from the second step on, and
 * validation as the user types. Steps are functions that return the next step;
 * Back re-runs the previous one (its answers are kept in the flow's state, so
 * it opens with them filled in). Escape or focus-out-and-hide cancels the flow.
 */
import vscode = require('vscode');

/** A step: asks one thing, records it in the flow's state, returns the next step (or nothing when done). */
export type Step = (input: MultiStepInput) => Promise<Step | undefined>;

/** Thrown inside a flow: the user went Back, or closed the input. */
class FlowSignal extends Error {}
const back = new FlowSignal('back');
const cancel = new FlowSignal('cancel');

/** The user pressed Back in an input asked inside a step (a step may catch it to show its own input again). */
export const isBack = (e: unknown): boolean => e === back;

export interface StepInfo {
  title: string;
  /** Left out for a one-step input: no "1/1" shown. */
  step?: number;
  totalSteps?: number;
  placeholder?: string;
  buttons?: vscode.QuickInputButton[];
  /** A button of the step other than Back, with what is typed now. */
  onButton?: (button: vscode.QuickInputButton, value: string) => void;
}

export interface PickOptions<T extends vscode.QuickPickItem> extends StepInfo {
  items: readonly T[];
  /**
   * Called on Enter with the selection and the typed text; a string refuses
   * the input with that message (shown in the title) and keeps the pick open.
   */
  check?: (selected: readonly T[], value: string) => string | undefined;
  active?: T;
  matchOnDescription?: boolean;
  matchOnDetail?: boolean;
  /** Called as the user types; may replace the items (free entry). */
  onValue?: (value: string, pick: vscode.QuickPick<T>) => void;
}

export interface PickManyOptions<T extends vscode.QuickPickItem> extends PickOptions<T> {
  selected?: readonly T[];
}

export interface InputOptions extends StepInfo {
  value?: string;
  prompt?: string;
  password?: boolean;
  /** Undefined when valid, else the message; runs on every keystroke and on Enter. */
  validate?: (value: string) => string | undefined | Promise<string | undefined>;
}

export class MultiStepInput {
  private current?: vscode.QuickInput;
  private readonly steps: Step[] = [];

  /**
   * Runs a flow from its first step. Resolves when the last step returns
   * nothing; throws CancellationError when the user cancels.
   */
  static async run(start: Step): Promise<void> {
    const input = new MultiStepInput();
    return input.stepThrough(start);
  }

  private async stepThrough(start: Step): Promise<void> {
    let step: Step | undefined = start;
    try {
      while (step) {
        this.steps.push(step);
        if (this.current) {
          this.current.enabled = false;
          this.current.busy = true;
        }
        try {
          step = await step(this);
        } catch (e) {
          if (e === back) {
            this.steps.pop();
            step = this.steps.pop();
          } else if (e === cancel) {
            throw new vscode.CancellationError();
          } else {
            throw e;
          }
        }
      }
    } finally {
      this.current?.dispose();
    }
  }

  /** A single choice. */
  pick<T extends vscode.QuickPickItem>(o: PickOptions<T>): Promise<T> {
    return this.showPick(o, false).then((r) => r.selected[0]);
  }

  /** Several choices (and what was typed, for free entry). */
  pickMany<T extends vscode.QuickPickItem>(o: PickManyOptions<T>): Promise<{ selected: readonly T[]; value: string }> {
    return this.showPick(o, true);
  }

  private showPick<T extends vscode.QuickPickItem>(o: PickManyOptions<T>, many: boolean): Promise<{ selected: readonly T[]; value: string }> {
    const disposables: vscode.Disposable[] = [];
    return new Promise<{ selected: readonly T[]; value: string }>((resolve, reject) => {
      const pick = vscode.window.createQuickPick<T>();
      pick.title = o.title;
      pick.step = o.step;
      pick.totalSteps = o.totalSteps;
      pick.placeholder = o.placeholder;
      pick.ignoreFocusOut = true;
      pick.canSelectMany = many;
      pick.matchOnDescription = o.matchOnDescription ?? false;
      pick.matchOnDetail = o.matchOnDetail ?? false;
      pick.items = o.items;
      if (o.active) pick.activeItems = [o.active];
      if (many && o.selected) pick.selectedItems = o.selected;
      pick.buttons = [...(this.steps.length > 1 ? [vscode.QuickInputButtons.Back] : []), ...(o.buttons ?? [])];
      disposables.push(
        pick.onDidTriggerButton((button) => {
          if (button === vscode.QuickInputButtons.Back) reject(back);
          else o.onButton?.(button, pick.value);
        }),
        pick.onDidChangeValue((value) => {
          pick.title = o.title;
          o.onValue?.(value, pick);
        }),
        pick.onDidAccept(() => {
          const selected = many ? pick.selectedItems : pick.activeItems.slice(0, 1);
          if (!many && selected.length === 0) return;
          const problem = o.check?.(selected, pick.value);
          if (problem) {
            // QuickPick has no validation message in this API version: say it in the title.
            pick.title = `${o.title}: ${problem}`;
            return;
          }
          resolve({ selected, value: pick.value });
        }),
        pick.onDidHide(() => reject(cancel)),
      );
      this.current?.dispose();
      this.current = pick;
      if (o.onValue) o.onValue('', pick);
      pick.show();
    }).finally(() => {
      for (const d of disposables) d.dispose();
    });
  }

  /** One line of text, validated as typed. */
  input(o: InputOptions): Promise<string> {
    const disposables: vscode.Disposable[] = [];
    return new Promise<string>((resolve, reject) => {
      const box = vscode.window.createInputBox();
      box.title = o.title;
      box.step = o.step;
      box.totalSteps = o.totalSteps;
      box.value = o.value ?? '';
      box.prompt = o.prompt;
      box.placeholder = o.placeholder;
      box.password = o.password ?? false;
      box.ignoreFocusOut = true;
      box.buttons = [...(this.steps.length > 1 ? [vscode.QuickInputButtons.Back] : []), ...(o.buttons ?? [])];
      let generation = 0;
      const check = async (value: string): Promise<string | undefined> => {
        const mine = ++generation;
        const message = await o.validate?.(value);
        if (mine === generation) box.validationMessage = message;
        return message;
      };
      disposables.push(
        box.onDidTriggerButton((button) => {
          if (button === vscode.QuickInputButtons.Back) reject(back);
          else o.onButton?.(button, box.value);
        }),
        box.onDidChangeValue((value) => void check(value)),
        box.onDidAccept(async () => {
          const value = box.value;
          box.enabled = false;
          box.busy = true;
          const message = await check(value);
          box.enabled = true;
          box.busy = false;
          if (!message) resolve(value);
        }),
        box.onDidHide(() => reject(cancel)),
      );
      this.current?.dispose();
      this.current = box;
      if (box.value) void check(box.value);
      box.show();
    }).finally(() => {
      for (const d of disposables) d.dispose();
    });
  }
}
