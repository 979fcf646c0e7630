/**
 * The `pg_dump` options `/v1alpha1/pg_dump` lets through: a list of those that only choose what is
 * dumped and how it is written as plain SQL. A list of refused ones would not hold: pg_dump's
 * getopt takes any unambiguous abbreviation (`--fil=/etc/x` is `--file`), and an argument that is
 * not an option names the database to dump, which would override the source's.
 */
import { badRequest } from '../../errors/admin.js';

/** Long name → whether it takes a value; with the short letter that means the same. */
const OPTIONS: [long: string, short: string | null, takesValue: boolean][] = [
  ['schema-only', 's', false],
  ['data-only', 'a', false],
  ['schema', 'n', true],
  ['exclude-schema', 'N', true],
  ['table', 't', true],
  ['exclude-table', 'T', true],
  ['exclude-table-data', null, true],
  ['extension', 'e', true],
  ['no-owner', 'O', false],
  ['no-privileges', 'x', false],
  ['no-acl', null, false],
  ['clean', 'c', false],
  ['if-exists', null, false],
  ['create', 'C', false],
  ['inserts', null, false],
  ['column-inserts', null, false],
  ['rows-per-insert', null, true],
  ['on-conflict-do-nothing', null, false],
  ['disable-triggers', null, false],
  ['no-comments', null, false],
  ['no-publications', null, false],
  ['no-subscriptions', null, false],
  ['no-security-labels', null, false],
  ['no-tablespaces', null, false],
  ['no-unlogged-table-data', null, false],
  ['quote-all-identifiers', null, false],
  ['use-set-session-authorization', null, false],
  ['section', null, true],
  ['encoding', 'E', true],
  ['lock-wait-timeout', null, true],
];
const LONG = new Map(OPTIONS.map(([long, , value]) => [long, value]));
const SHORT = new Map(OPTIONS.filter(([, s]) => s !== null).map(([, s, value]) => [s!, value]));

/** Checks `opts` (`$.opts`): each an allowed option, its value attached (`--schema=x`, `-nx`) or next. */
export function checkPgDumpOptions(opts: readonly string[]): void {
  const refuse = (i: number, why: string) => badRequest('not-supported', `option ${JSON.stringify(opts[i])} is not allowed: ${why}`, `$.opts[${i}]`);
  for (let i = 0; i < opts.length; i++) {
    const o = opts[i]!;
    let takesValue: boolean | undefined;
    let attached: boolean;
    if (o.startsWith('--')) {
      const eq = o.indexOf('=');
      takesValue = LONG.get(eq < 0 ? o.slice(2) : o.slice(2, eq));
      attached = eq >= 0;
    } else if (/^-[A-Za-z]/.test(o)) {
      takesValue = SHORT.get(o[1]!);
      attached = o.length > 2;
    } else throw refuse(i, 'expected an option (an argument of its own would name another database)');
    if (takesValue === undefined) throw refuse(i, "only options choosing what is dumped, written in full, are taken (the source's connection is the engine's)");
    if (attached && !takesValue) throw refuse(i, 'it takes no value');
    if (takesValue && !attached && (++i >= opts.length || opts[i]!.startsWith('-'))) throw refuse(i - 1, 'it needs a value');
  }
}
