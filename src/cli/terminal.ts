/**
 * The terminal, when there is one: a yes asked on it, and progress lines. Without a terminal
 * nothing waits on standard input (a CI job's is closed or empty), and no progress is written.
 */
import { createInterface } from 'node:readline';
import { l10n } from '../l10n';

export function interactive(): boolean {
  return !!process.stdin.isTTY && !!process.stderr.isTTY;
}

/** Asks on the terminal; true only for "yes". */
export async function askYes(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await new Promise<string>((resolve) => {
      rl.question(`${question}\n${l10n.t('Only "yes" is accepted: ')}`, resolve);
      rl.once('close', () => resolve(''));
    });
    return answer.trim() === 'yes';
  } finally {
    rl.close();
  }
}

/** A line to stderr each time `done` passes another hundred (and at the end), on a terminal only. */
export function progressLines(say: (done: number, total?: number) => string): (done: number, total?: number) => void {
  if (!process.stderr.isTTY) return () => undefined;
  let shownAt = 0;
  return (done, total) => {
    if (Math.floor(done / 100) === Math.floor(shownAt / 100) && done !== total) return;
    shownAt = done;
    process.stderr.write(`${say(done, total)}\n`);
  };
}
