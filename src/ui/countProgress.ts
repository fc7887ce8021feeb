/**
 * A count (objects read, objects sent) in a progress notification. Each report redraws the
 * notification in the window: ten a second during a Bulk Edit of 10,000 kept the window's renderer
 * busy for 7.9-11.6 s of a 25-32 s send, a quarter of a core taken from the run on a machine of two;
 * one a second, 2.5 s. So a report goes at most once a second, and the last one always.
 */
import type * as vscode from 'vscode';

const everyMs = 1000;

/** `show(done, total, message)` for a count's progress: the bar moves by what was done since the last report. */
export function countProgress(progress: vscode.Progress<{ message?: string; increment?: number }>): (done: number, total: number, message: string) => void {
  let last = 0,
    shownAt = 0;
  return (done, total, message) => {
    if (done < total && Date.now() - shownAt < everyMs) return;
    shownAt = Date.now();
    progress.report({ message, increment: ((done - last) / total) * 100 });
    last = done;
  };
}
