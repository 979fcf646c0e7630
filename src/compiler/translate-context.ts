/** The TranslateContext of one source for one role, read from the resolved model: catalog types, relationship joins, role filters. */
import { qualifiedKey, type QualifiedName } from '../metadata/catalog.js';
import type { TranslateContext } from '../backends/backend.js';
import { showTable } from '../metadata/names.js';
import type { RoleSchema } from '../schema/build.js';
import { tableKey } from '../schema/model.js';
import type { TrackedTables } from '../schema/tracked-tables.js';

export function createTranslateContext(tracked: TrackedTables, rs: RoleSchema, source: string, stringifyNumeric: boolean): TranslateContext {
  const resolved = tracked.resolved.sources.get(source);
  const table = (t: QualifiedName) => {
    const found = resolved?.tables.get(qualifiedKey(t));
    if (!found) throw new Error(`table ${showTable(t)} is not resolved in source ${source}`);
    return found;
  };
  const part = <T>(found: T | undefined, what: string, t: QualifiedName): T => {
    if (found === undefined) throw new Error(`${what} of ${showTable(t)} is not resolved in source ${source}`);
    return found;
  };
  return {
    stringifyNumeric,
    columnType: (t, column) => part(table(t).columns.get(column), `column ${column}`, t).type,
    relationship(t, name) {
      const r = part(table(t).relationships.get(name), `relationship ${name}`, t);
      return { join: { target: r.target, mapping: r.mapping }, permission: rs.model.tables.get(tableKey(source, r.target))?.permission.filter ?? null };
    },
    computedField(t, name) {
      const cf = part(table(t).computedFields.get(name), `computed field ${name}`, t);
      const fn = cf.function;
      return { fn: { schema: fn.schema, name: fn.name }, returnType: fn.returnType, sessionArgument: cf.sessionArgument === null ? null : fn.args[cf.sessionArgument]!.name };
    },
  };
}
