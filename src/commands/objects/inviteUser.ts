/**
 * Invite a user to an engage site by e-mail: `POST .../engagesites/{key}/invite`
 * with the address as a JSON string. From a site node in the tree, or the
 * palette (connection, folder, site), then its one step (src/ui/wizard.ts):
 * an e-mail box validated as typed, asked only when the arguments hold none.
 *
 * Args (tests, scripts; no prompts when `email` is given):
 *   executeCommand('oms.inviteUser', { connectionId, folderKey, siteKey, email })
 * Returns `{ ok: true, email, siteKey }` or `{ ok: false, reason, status? }`
 * (an address that is not one is refused before anything is sent).
 */
import vscode = require('vscode');
import { ApiError } from '../../api/errors';
import { checkEmail } from '../../people/email';
import { notify } from '../../ui/notify';
import { runWizard, WizardStep } from '../../ui/wizard';
import { ObjectTarget, objectTarget, targeted } from '../framework/commandTargets';
import { Failure, failWith, messageOf } from '../framework/failure';
import { copyCurl, curlButton } from './copyAsCurl';

export interface InviteUserArgs {
  connectionId?: string;
  folderKey?: string;
  siteKey?: string;
  email?: string;
}

export type InviteResult = { ok: true; email: string; siteKey: string } | { ok: false; reason: string; status?: number; sent: boolean };

export const inviteUser = targeted({
  id: 'oms.inviteUser',
  target: (s, arg) => objectTarget(s, 'engageSite', arg, 'siteKey'),
  async run(_s, site: ObjectTarget, args?: InviteUserArgs): Promise<InviteResult> {
    const context = { email: args?.email };
    await runWizard(vscode.l10n.t('Invite User to "{0}"', site.name), context, [emailStep(site)]);
    const address = (context.email ?? '').trim();
    const problem = checkEmail(address);
    if (problem) throw new Failure(problem, { ok: false, reason: problem, sent: false });
    await vscode.window
      .withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Inviting {0} to "{1}"…', address, site.name) }, () =>
        site.connection.client.invite(site.folderKey, site.key, address),
      )
      .then(
        undefined,
        failWith((e): InviteResult => ({ ok: false, reason: messageOf(e), status: e instanceof ApiError ? e.status : undefined, sent: true })),
      );
    notify('info', vscode.l10n.t('Invitation sent to {0} for engage site "{1}".', address, site.name));
    return { ok: true, email: address, siteKey: site.key };
  },
});

function emailStep(site: ObjectTarget): WizardStep<{ email?: string }> {
  return {
    shouldPrompt: (c) => c.email === undefined,
    async prompt(c, ask) {
      c.email = await ask.input({
        buttons: [curlButton],
        // What Enter would send: the address as typed now.
        onButton: (_b, typed) =>
          void copyCurl(
            site.connection,
            (client) => client.invite(site.folderKey, site.key, typed.trim()),
            vscode.l10n.t('the invitation of {0}', typed.trim() || vscode.l10n.t('an empty address')),
          ),
        prompt: vscode.l10n.t('E-mail address of the user to invite to this engage site'),
        placeholder: 'name@example.com',
        value: c.email,
        validate: checkEmail,
      });
    },
  };
}
