/**
 * Object and array relationships (spec "Relationship"): the `using` forms in, the
 * stored form out (as the well-known engine exports them: tables as `{schema, name}`,
 * one column as `column`/a string, several as `columns`/a list), and the join each
 * stored definition makes against the catalog.
 */
import type { DatabaseCatalog, CatalogTable, QualifiedName } from '../catalog/types.js';
import { parseFailed } from '../errors/admin.js';
import { isObject, ObjectReader, oneOf, str, type Json, type JsonObject } from '../util/decode.js';
import { graphqlName, sameTable, showTable, tableName } from './names.js';
import type { RelationshipKind, ResolvedRelationship } from './resolve/types.js';

function columnList(v: unknown, path: string): string[] {
  if (typeof v === 'string') return [v];
  if (!Array.isArray(v)) throw parseFailed('Expected string or array', path);
  if (v.length === 0) throw parseFailed('parsing NonEmpty failed, unexpected empty list', path);
  return v.map((c, i) => str(c, `${path}[${i}]`));
}

/** `{table, column}` (deprecated) or `{table, columns}`, stored with `column` when there is one. */
function remoteTableColumns(v: unknown, path: string): JsonObject {
  const r = ObjectReader.of(v, path);
  const table = r.required('table', tableName);
  const column = r.optional('column', columnList);
  const columns = r.optional('columns', columnList);
  r.done();
  const cols = column ?? columns;
  if (!cols || (column && columns)) throw parseFailed("expected exactly one of 'column' or 'columns'", path);
  return { table: table as unknown as Json, ...(cols.length === 1 ? { column: cols[0]! } : { columns: cols }) };
}

function manualConfiguration(v: unknown, path: string): JsonObject {
  const r = ObjectReader.of(v, path);
  const remote = r.required('remote_table', tableName);
  const mapping = r.required('column_mapping', (x, p) => {
    const o = ObjectReader.of(x, p);
    const out: JsonObject = {};
    for (const [k, c] of Object.entries(o.value)) out[k] = str(c, o.at(k));
    return out;
  });
  const order = r.optional('insertion_order', oneOf(['before_parent', 'after_parent'] as const, 'insertion order'));
  r.done();
  return { remote_table: remote as unknown as Json, column_mapping: mapping, ...(order ? { insertion_order: order } : {}) };
}

function objectForeignKey(v: unknown, path: string): Json {
  if (isObject(v)) return remoteTableColumns(v, path);
  const cols = columnList(v, path);
  return cols.length === 1 ? cols[0]! : cols;
}

function arrayForeignKey(v: unknown, path: string): Json {
  if (!isObject(v)) throw parseFailed('Expecting object { table, columns }.', path);
  return remoteTableColumns(v, path);
}

/** The `using` of a relationship of the given kind, in stored form. */
export function relationshipUsing(kind: RelationshipKind) {
  return (v: unknown, path: string): JsonObject => {
    if (!isObject(v)) throw parseFailed('using should be an object', path);
    const r = ObjectReader.of(v, path);
    const fk = r.has('foreign_key_constraint_on');
    const manual = r.has('manual_configuration');
    const what = 'one of foreign_key_constraint_on/manual_configuration should be present';
    if (fk === manual) throw parseFailed(`${fk ? 'only' : 'atleast'} ${what}`, path);
    const out: JsonObject = fk
      ? { foreign_key_constraint_on: r.required('foreign_key_constraint_on', kind === 'object' ? objectForeignKey : arrayForeignKey) }
      : { manual_configuration: r.required('manual_configuration', manualConfiguration) };
    r.done();
    return out;
  };
}

/** A stored relationship `{name, using, comment?}` (replace_metadata input). */
export function relationshipEntry(kind: RelationshipKind) {
  return (v: unknown, path: string): JsonObject => {
    const r = ObjectReader.of(v, path);
    const name = r.required('name', graphqlName);
    const using = r.required('using', relationshipUsing(kind));
    const comment = r.optional('comment', str);
    r.done();
    return { name, using, ...(comment !== undefined ? { comment } : {}) };
  };
}

/** A stored remote relationship (replace_metadata input): its name becomes a field, the definition is kept as given. */
export function remoteRelationshipEntry(v: unknown, path: string): JsonObject {
  const r = ObjectReader.of(v, path);
  r.required('name', graphqlName);
  return r.value;
}

const storedTable = (v: Json | undefined): QualifiedName => tableName(v, '$');
/** Columns of a stored `{table, column | columns}`, or of a stored own-table `foreign_key_constraint_on`. */
const remoteColumns = (o: JsonObject): string[] => (typeof o.column === 'string' ? [o.column] : (o.columns as string[]));
const ownColumns = (fk: Json | undefined): string[] => (typeof fk === 'string' ? [fk] : (fk as string[]));

/** The table a stored relationship points at (the table itself for an object relationship on its own foreign key). */
export function relationshipTarget(rel: JsonObject, catalog: DatabaseCatalog | null, owner: QualifiedName): QualifiedName | null {
  const using = rel.using as JsonObject;
  if (isObject(using.manual_configuration)) return storedTable(using.manual_configuration.remote_table);
  const fk = using.foreign_key_constraint_on;
  if (isObject(fk)) return storedTable(fk.table);
  const table = catalog?.tables.find((t) => sameTable(t, owner));
  return table?.foreignKeys.find((f) => sameColumns(f.columns, ownColumns(fk)))?.refTable ?? null;
}

const sameColumns = (a: string[], b: string[]) => a.length === b.length && a.every((c) => b.includes(c));

/** Why a relationship does not resolve, worded as the well-known engine words it. */
export class RelationshipError extends Error {}

export interface RelationshipScope {
  source: string;
  /** The table the relationship is defined on. */
  table: CatalogTable;
  /** A tracked (and so far consistent) table of the source, as the catalog has it. */
  tracked(t: QualifiedName): CatalogTable | undefined;
}

function requireTracked(scope: RelationshipScope, t: QualifiedName): CatalogTable {
  const table = scope.tracked(t);
  if (!table) throw new RelationshipError(`table ${JSON.stringify(showTable(t))} is not tracked`);
  return table;
}

function requireColumn(t: CatalogTable, column: string): void {
  if (!t.columns.some((c) => c.name === column)) {
    throw new RelationshipError(`table ${JSON.stringify(showTable(t))} has no field named ${JSON.stringify(column)}`);
  }
}

function foreignKeyOf(candidates: CatalogTable['foreignKeys'], columns: string[]) {
  const matching = candidates.filter((f) => sameColumns(f.columns, columns));
  if (matching.length === 0) throw new RelationshipError('no foreign constraint exists on the given column(s)');
  if (matching.length > 1) throw new RelationshipError('more than one foreign key constraint exists on the given column(s)');
  return matching[0]!;
}

/** The join a stored relationship makes; throws a RelationshipError when it cannot be made. */
export function resolveRelationship(rel: JsonObject, kind: RelationshipKind, scope: RelationshipScope): ResolvedRelationship {
  const name = String(rel.name);
  const comment = typeof rel.comment === 'string' ? rel.comment : null;
  const using = rel.using as JsonObject;
  const self = scope.table;
  if (isObject(using.manual_configuration)) {
    const manual = using.manual_configuration;
    const target = storedTable(manual.remote_table);
    const remote = requireTracked(scope, target);
    const mapping = Object.entries(manual.column_mapping as JsonObject).map(([l, r]): [string, string] => [l, String(r)]);
    for (const [l, r] of mapping) {
      requireColumn(self, l);
      requireColumn(remote, r);
    }
    return { name, kind, target, mapping, manual: true, comment };
  }
  const fk = using.foreign_key_constraint_on;
  if (!isObject(fk)) {
    // An object relationship through a foreign key of this table.
    const key = foreignKeyOf(self.foreignKeys, ownColumns(fk));
    requireTracked(scope, key.refTable);
    return { name, kind, target: key.refTable, mapping: key.columns.map((c, i) => [c, key.refColumns[i]!]), manual: false, comment };
  }
  // Through a foreign key of the other table that points at this one.
  const target = storedTable(fk.table);
  const remote = scope.tracked(target);
  if (!remote) {
    throw new RelationshipError(`table ${JSON.stringify(showTable(target))} does not exist in source: ${scope.source}`);
  }
  const key = foreignKeyOf(
    remote.foreignKeys.filter((f) => sameTable(f.refTable, self)),
    remoteColumns(fk),
  );
  return { name, kind, target, mapping: key.columns.map((c, i) => [key.refColumns[i]!, c]), manual: false, comment };
}
