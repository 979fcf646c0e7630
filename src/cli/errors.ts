/**
 * How the command-line tool fails: a `CliError` is a message for people and an exit code
 * scripts can rely on (docs/cli.md "Exit codes"); anything else thrown is a bug, reported with
 * its stack and exit code 3.
 */
export const EXIT = {
  ok: 0,
  /** The command could not do what it was asked: the engine refused, a file is bad, a migration failed. */
  failed: 1,
  /** The command line or the project's configuration is wrong (unknown flag, missing argument, bad config.yaml). */
  usage: 2,
  /** The engine could not be reached. */
  unreachable: 4,
} as const;

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failed,
    /** What the engine answered, shown with `--output json|yaml`. */
    readonly detail?: unknown,
  ) {
    super(message);
  }
}
