/**
 * The extension's whole-number settings, read and checked in one place. VS Code
 * only underlines a wrong value in settings.json and hands it over anyway: a
 * negative page size would otherwise fail later as a request the service refuses.
 * The limits are the manifest's own (`contributes.configuration`), so they are
 * written once.
 */
import vscode = require('vscode');

type WholeNumberSetting = 'pageSize' | 'requestTimeoutSeconds' | 'maxResponseMegabytes' | 'batchSize' | 'batchConcurrency';

interface Limits {
  minimum?: number;
  maximum?: number;
  default: number;
}

/** The setting's value, or an error that names it and says what it accepts. */
export function wholeNumberSetting(name: WholeNumberSetting): number {
  const limits = manifestLimits(name);
  const value = vscode.workspace.getConfiguration('oms').get<unknown>(name, limits.default);
  const min = limits.minimum ?? 1;
  const max = limits.maximum ?? Number.MAX_SAFE_INTEGER;
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value;
  throw new Error(
    vscode.l10n.t(
      'The setting oms.{0} is {1}: it must be a whole number from {2} to {3}. Change it in Settings (Ctrl+,).',
      name,
      JSON.stringify(value) ?? String(value),
      min,
      max,
    ),
  );
}

function manifestLimits(name: WholeNumberSetting): Limits {
  const manifest = vscode.extensions.getExtension('oms-team.oms-explorer')?.packageJSON as
    { contributes?: { configuration?: { properties?: Record<string, Limits> } } } | undefined;
  return manifest?.contributes?.configuration?.properties?.[`oms.${name}`] ?? { default: 1 };
}
