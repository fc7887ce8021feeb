/** `--help` of the command line and of each command. */
import type { CommandName } from './args';
import { l10n } from '../l10n';

const token = () =>
  l10n.t(`Access token: the environment variable OMS_TOKEN, or --token-file <path> (never an argument).
  --token-file <path>   read the access token from this file (warned when others can read it: chmod 600)
  --url <base>          the service the token is sent to; the folder's manifest must name the same
  --allow-http          send the token over plain http to another machine (else refused)
  OMS_URL               as --url, from the environment; set but empty is an error
Without a terminal (CI), plan, diff, apply and a pull again need OMS_URL or --url: the URL in
oms.manifest.json comes from the files a pull request can change. On a terminal its URL is used;
one this user did not pull the folder from is asked about before the token is sent.`);

export function usageOf(command: CommandName | undefined): string {
  switch (command) {
    case 'pull':
      return `${l10n.t(`Usage: oms pull <folder> --url <base> --folder <key> [options]

Pulls the objects of a service folder into <folder>, one file per object, with oms.manifest.json
(meant for git). In a folder pulled before, --folder defaults to its manifest's, and so does
--url on a terminal. <base>: the service's base URL (origin and optional path).

  --folder <key>        the Key of the service folder to pull
  --subfolders          also its subfolders, each in a directory of its own
  --kinds <list>        kinds to pull, comma-separated (default: all that can be listed), e.g.
                        inputScanner,person or inputscanners,people
  --label <name>        the connection's name in the manifest (default: the URL's host)
  --production          record the connection as production: apply then needs --yes-production
  --overwrite-edits     replace files edited since the last pull (default: keep them)

Exit codes: 0 everything pulled, 1 an error (or cancelled), 2 pulled in part: entries of the
manifest or objects of the service were refused (each named on stderr, with its reason).`)}

${token()}
`;
    case 'plan':
      return `${l10n.t(`Usage: oms plan <folder> [options]

Compares the files of a pulled folder with what was pulled and with the service (the URL of its
oms.manifest.json): what apply would create, update and delete, and what it would not send
(stale: changed here and on the service; behind: changed on the service only; invalid).

  --format text|markdown|json   text (default); markdown for a pull-request comment; json: the plan
  --out <plan.json>             also save the whole plan (JSON), for oms apply <folder> <plan.json>
                                (or the editor); a Markdown plan too long for a comment names it
  --detailed-exitcode           exit 0: no changes, 2: changes, 1: error or an invalid file
                                (without it: 0 unless an error or an invalid file)`)}

${token()}
`;
    case 'apply':
      return `${l10n.t(`Usage: oms apply <folder> [plan.json] [options]

Sends what a plan holds: a saved plan (oms plan --out, or the editor's Save Plan), else a plan made
now. An entry whose file or service version moved since the plan is refused, as is anything stale
or behind. One write per object, each checked against the version it was planned on.

  --deletes <count>     delete objects whose files were deleted: the count must match the plan's
  --yes-production      required to write to a connection recorded as production
  --auto-approve        send without asking (required without a terminal: no prompt waits then)
  --stop-on-error       start nothing more after the first failure
  --skip-invalid        apply the rest when files are invalid (else nothing is sent)

Exit codes: 0 every entry of the plan applied (or nothing to apply), 1 nothing was sent (an error,
a refusal, or an invalid file without --skip-invalid), 2 not all applied: entries stale, behind,
invalid, failed or not sent, each named (see .oms/runs/ for the report).`)}

${token()}
`;
    case 'diff':
      return `${l10n.t(`Usage: oms diff <folder> <key-or-file>

The fields of one object's file that differ from the service's version (secrets masked).
Exit codes: 0 no difference, 2 differences, 1 error.`)}

${token()}
`;
    case 'query':
      return `${l10n.t(`Usage: oms query <expression> --url <base> --folder <key> [options]
       oms query <expression> <pulled folder> [options]

The objects a JMESPath expression matches (https://jmespath.site): it is evaluated against each
object, which matches unless the answer is null, false, empty or missing. For example:
  oms query "InputScannerReportingPriorities[?Priority == \`1\` && StatusCode == \`4\`]" ...
Quote the expression for your shell. With a pulled folder its files are read: no token, no service.

  --url <base>          the service's base URL (origin and optional path)
  --folder <key>        the Key of the service folder to query
  --subfolders          also its subfolders
  --kinds <list>        kinds to query, comma-separated (default: all that can be listed, or the
                        pulled folder's), e.g. inputScanner,person
  --format json|csv|table   table (default); json: the matching objects (or rows of --columns);
                        csv: a spreadsheet's rows, a cell starting with = + - @ prefixed with '
  --columns <list>      the columns after name, kind and keys, each a JMESPath expression
                        (default: the fields the query names)

Exit codes: 0 objects matched, 3 none matched, 1 an invalid query (its column shown) or an error.`)}

${token()}
`;
    case 'undo':
    case 'retry':
      return `${l10n.t(`Usage: oms undo <run> [options]
       oms retry <run> [options]

undo puts back what a run changed (and what its retries changed): updates go back, creates are
deleted, deletes are created again from the journal's copy; an object changed by someone since is
left as it is and said. retry sends again a run's failed and unsent objects, each read again first.
<run>: a run journal file (<run id>.jsonl: a pulled folder's .oms/runs/, a CI job's artifact, or
the editor's), or a run id of the current folder's .oms/runs/. The service is the one the run wrote to:
a run of a pulled folder's goes where plan and apply go; for another journal give its URL in OMS_URL or --url.

  --yes-production      required to write to a connection recorded as production
  --auto-approve        send without asking (required without a terminal: no prompt waits then)
  --stop-on-error       start nothing more after the first failure

Exit codes: 0 all done (or nothing to do), 1 nothing was sent, 2 sent in part.`)}

${token()}
`;
    default:
      return `${l10n.t(`Usage: oms <command> [options]    (oms <command> --help for each)

Objects as code from a terminal or a CI pipeline: the same pulled folders, plans and rules as the
OMS Explorer extension.

  oms pull <folder> --url <base> --folder <key>   pull a service folder into files (one per object)
  oms plan <folder>                               what apply would create, update and delete
  oms apply <folder> [plan.json]                  send a plan's changes to the service
  oms diff <folder> <key-or-file>                 one object's file against the service
  oms query <expression> --url <base> --folder <key>   objects whose content matches (JMESPath)
  oms query <expression> <pulled folder>          the same over a pulled folder's files
  oms undo <run>                                  put back what a run (and its retries) changed
  oms retry <run>                                 send a run's failed and unsent objects again
  oms --version

Access token: the environment variable OMS_TOKEN, or --token-file <path> (never an argument).
The service's URL: OMS_URL or --url, which the folder's oms.manifest.json must name (required
without a terminal); on a terminal, the manifest's.`)}
`;
  }
}
