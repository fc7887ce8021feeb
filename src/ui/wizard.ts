/**
 * The way a command gathers what it needs, after the wizard steps of Azure's extensions
 * (`AzureWizardPromptStep` with `shouldPrompt`, microsoft/vscode-azuretools `utils/src/wizard/`):
 * a command's steps are small objects, each giving one value of the command's context. A step asks
 * only while the context lacks its value; the command's arguments fill the context first. So the
 * guided form and the scripted one are one path: a script's arguments decide every value (what a
 * script leaves out is decided as "none", `null`, not "ask"), no step asks, and the same check and
 * send follow.
 *
 * Steps are numbered among those that ask, counted from the start: a step asked once stays counted
 * (Back shows it again with its answer), so the count does not jump as answers come in.
 */
import { InputOptions, MultiStepInput, PickManyOptions, PickOptions } from './multiStepInput';
import type * as vscode from 'vscode';

/** What a step asks with: the flow's quick input, with the title and the step count filled in. */
export interface Ask {
  pick<T extends vscode.QuickPickItem>(o: Omit<PickOptions<T>, 'title'>): Promise<T>;
  pickMany<T extends vscode.QuickPickItem>(o: Omit<PickManyOptions<T>, 'title'>): Promise<{ selected: readonly T[]; value: string }>;
  input(o: Omit<InputOptions, 'title'>): Promise<string>;
}

export interface WizardStep<C> {
  /** True while the context lacks what this step gives (and the step applies to it). */
  shouldPrompt(context: C): boolean;
  /** Asks, and puts the answer in the context. */
  prompt(context: C, ask: Ask): Promise<void>;
}

/**
 * Runs the steps that should ask, in order; Back goes to the one before. Nothing is shown when no
 * step asks. Throws CancellationError when the user cancels.
 */
export async function runWizard<C>(title: string, context: C, steps: readonly WizardStep<C>[]): Promise<void> {
  const asked = new Set<WizardStep<C>>();
  const asks = (s: WizardStep<C>) => asked.has(s) || s.shouldPrompt(context);
  const from = (i: number) => {
    const at = steps.findIndex((s, j) => j >= i && asks(s));
    if (at < 0) return undefined;
    const step = steps[at];
    return async (input: MultiStepInput) => {
      asked.add(step);
      const total = steps.filter(asks).length;
      // A flow of one question shows no "1/1".
      const info = total > 1 ? { title, step: steps.slice(0, at).filter((s) => asked.has(s)).length + 1, totalSteps: total } : { title };
      const ask: Ask = {
        pick: (o) => input.pick({ ...o, ...info }),
        pickMany: (o) => input.pickMany({ ...o, ...info }),
        input: (o) => input.input({ ...o, ...info }),
      };
      await step.prompt(context, ask);
      return from(at + 1);
    };
  };
  const first = from(0);
  if (first) await MultiStepInput.run(first);
}
