/** The aliases and boolean expression compiler of one statement, for the dialects of `boolexp-compiler.ts`. */
import type { QualifiedName } from '../catalog/types.js';
import { BoolExpCompiler, type BoolExpDialect } from './boolexp-compiler.js';
import type { Sql } from './fragment.js';
import { Aliases, type Scope } from './scope.js';

/**
 * What a statement's translator keeps for the whole statement: its aliases, the boolean
 * expression compiler over them, and the root field's table (`["$", column]` comparisons read it).
 */
export class StatementScopes {
  protected readonly aliases: Aliases;
  protected readonly bool: BoolExpCompiler;
  readonly root: Scope;

  constructor(dialect: BoolExpDialect, quote: (name: string) => Sql, table: QualifiedName) {
    this.aliases = new Aliases(quote, 't');
    this.root = this.scope(table);
    this.bool = new BoolExpCompiler(dialect, this.aliases, this.root);
  }

  scope(table: QualifiedName): Scope {
    return { alias: this.aliases.next(), table };
  }
}
