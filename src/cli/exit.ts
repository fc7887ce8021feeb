/** The command line's exit codes, and the error that carries one. */
export const exitCodes = {
  /** Done: nothing to change (plan, diff), every entry of the plan applied or already so (apply), everything pulled (pull). */
  ok: 0,
  /** An error or a refusal: nothing was sent. */
  error: 1,
  /**
   * plan --detailed-exitcode and diff: there are changes. apply: not all applied (an entry stale, behind, invalid
   * with --skip-invalid, failed or not sent; each named). pull: pulled in part (each refusal named).
   */
  changes: 2,
  /** query: nothing matched. */
  noResults: 3,
} as const;

export const partlyApplied = exitCodes.changes;

/** A clear refusal or bad input: its message goes to stderr alone (no stack), and the process exits with `exitCode`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = exitCodes.error,
  ) {
    super(message);
  }
}
