/** Table aliases of one statement, for every dialect (each quotes them its own way). */
import type { QualifiedName } from '../catalog/types.js';
import { raw, type Sql } from './fragment.js';

/** A table alias in scope and the table it ranges over. */
export interface Scope {
  alias: Sql;
  table: QualifiedName;
}

/** Fresh aliases per statement: `<prefix>0`, `<prefix>1`, ..., quoted by the dialect's `quote`. */
export class Aliases {
  private n = 0;

  constructor(
    private readonly quote: (name: string) => Sql,
    private readonly prefix: string,
  ) {}

  next(): Sql {
    return this.quote(`${this.prefix}${this.n++}`);
  }
}

/** `alias.column`, both quoted by the dialect's `quote`. */
export const qualifiedColumn =
  (quote: (name: string) => Sql) =>
  (scope: Scope, column: string): Sql =>
    raw(`${scope.alias.parts[0] as string}.${quote(column).parts[0] as string}`);
