/**
 * Every command the manifest contributes is registered at activation, and its
 * code loads on the first command run: `../index.ts` and all it imports are a
 * chunk of their own (see esbuild.js), so activation compiles none of it.
 */
import vscode = require('vscode');
import type { Services } from './command';

interface Manifest {
  contributes: { commands: Array<{ command: string }> };
}

export function registerCommands(services: Services): vscode.Disposable[] {
  const ids = (services.context.extension.packageJSON as Manifest).contributes.commands.map((c) => c.command);
  return ids.map((id) => vscode.commands.registerCommand(id, async (...args: unknown[]) => (await import('../index')).runCommandById(services, id, args)));
}
