/**
 * Carrying renames into the stored objects that name the renamed thing, as the
 * well-known engine does: a column or table renamed by DDL (run_sql), or a
 * relationship renamed by rename_relationship. Boolean expressions are walked with
 * the table each part applies to (through relationships and `_exists`), so only
 * references to the renamed object change. Every lookup uses the names as they were
 * before the change; the table entries themselves are renamed by the caller.
 */
import type { DatabaseCatalog, QualifiedName } from '../catalog/types.js';
import { qualifiedKey } from '../catalog/types.js';
import { isObject, type Json, type JsonObject } from '../util/decode.js';
import { tableName } from './names.js';
import { relationshipTarget } from './relationships.js';
import { PERMISSION_KINDS } from './resolve/types.js';
import type { Metadata, SourceMetadata, TableMetadata } from './types.js';

/** Old name → new name, per table (`schema.name` as it was). */
export interface Renames {
  tables: Map<string, QualifiedName>;
  /** Columns by table. */
  columns: Map<string, Map<string, string>>;
  /** Relationships by table (boolean expressions only). */
  relationships: Map<string, Map<string, string>>;
}

export const noRenames = (): Renames => ({ tables: new Map(), columns: new Map(), relationships: new Map() });

const COLUMN_OPERATORS = new Set(['_ceq', '_cne', '_cneq', '_cgt', '_clt', '_cgte', '_clte']);
const BOOL_LISTS = new Set(['_and', '_or']);

class Renamer {
  private readonly entries: Map<string, TableMetadata>;

  constructor(
    source: SourceMetadata,
    private readonly catalog: DatabaseCatalog | null,
    private readonly renames: Renames,
  ) {
    this.entries = new Map(source.tables.map((t) => [qualifiedKey(t.table), t]));
  }

  column(table: QualifiedName, name: string): string {
    return this.renames.columns.get(qualifiedKey(table))?.get(name) ?? name;
  }

  private field(table: QualifiedName, name: string): string {
    return this.renames.relationships.get(qualifiedKey(table))?.get(name) ?? this.column(table, name);
  }

  /** A table reference, in stored form when it changed. */
  table(ref: Json): Json {
    const renamed = this.renames.tables.get(qualifiedKey(tableName(ref, '$')));
    return renamed ? (renamed as unknown as Json) : ref;
  }

  private relationshipTarget(table: QualifiedName, name: string): QualifiedName | null {
    const entry = this.entries.get(qualifiedKey(table));
    const rel = [...(entry?.object_relationships ?? []), ...(entry?.array_relationships ?? [])].find((r) => r.name === name);
    return rel ? relationshipTarget(rel, this.catalog, table) : null;
  }

  boolExp(v: Json, table: QualifiedName, root: QualifiedName): Json {
    if (!isObject(v)) return v;
    const out: JsonObject = {};
    for (const [key, x] of Object.entries(v)) {
      const plain = key.startsWith('$') ? `_${key.slice(1)}` : key;
      if (BOOL_LISTS.has(plain)) out[key] = Array.isArray(x) ? x.map((e) => this.boolExp(e, table, root)) : x;
      else if (plain === '_not') out[key] = this.boolExp(x, table, root);
      else if (plain === '_exists') out[key] = this.exists(x, root);
      else {
        const target = this.relationshipTarget(table, key);
        out[this.field(table, key)] = target ? this.boolExp(x, target, root) : this.comparisons(x, table, root);
      }
    }
    return out;
  }

  private exists(v: Json, root: QualifiedName): Json {
    if (!isObject(v) || v._table === undefined) return v;
    const target = tableName(v._table, '$');
    return { ...v, _table: this.table(v._table), _where: this.boolExp(v._where ?? {}, target, root) };
  }

  /** `_ceq: "col"` / `["col"]` / `["$", "col"]` name columns of the current or the root table. */
  private comparisons(v: Json, table: QualifiedName, root: QualifiedName): Json {
    if (!isObject(v)) return v;
    const out: JsonObject = {};
    for (const [op, x] of Object.entries(v)) {
      const plain = op.startsWith('$') ? `_${op.slice(1)}` : op;
      if (!COLUMN_OPERATORS.has(plain)) out[op] = x;
      else if (typeof x === 'string') out[op] = this.column(table, x);
      else if (Array.isArray(x) && x.length === 1 && typeof x[0] === 'string') out[op] = [this.column(table, x[0])];
      else if (Array.isArray(x) && x.length === 2 && x[0] === '$' && typeof x[1] === 'string') out[op] = ['$', this.column(root, x[1])];
      else out[op] = x;
    }
    return out;
  }
}

function renameKeys(o: Json | undefined, rename: (k: string) => string): Json | undefined {
  if (!isObject(o)) return o;
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [rename(k), v]));
}

function renameColumnList(v: Json | undefined, rename: (c: string) => string): Json | undefined {
  if (typeof v === 'string') return v === '*' ? v : rename(v);
  return Array.isArray(v) ? v.map((c) => (typeof c === 'string' ? rename(c) : c)) : v;
}

/** A stored relationship's `using`, with its tables and columns renamed. */
function renameUsing(using: JsonObject, owner: QualifiedName, r: Renamer): JsonObject {
  const manual = using.manual_configuration;
  if (isObject(manual)) {
    const remote = tableName(manual.remote_table, '$');
    const mapping = Object.fromEntries(Object.entries(manual.column_mapping as JsonObject).map(([l, c]) => [r.column(owner, l), r.column(remote, String(c))]));
    return { manual_configuration: { ...manual, remote_table: r.table(manual.remote_table!), column_mapping: mapping } };
  }
  const fk = using.foreign_key_constraint_on;
  if (isObject(fk)) {
    const remote = tableName(fk.table, '$');
    const renamed: JsonObject = { ...fk, table: r.table(fk.table!) };
    for (const key of ['column', 'columns'] as const) if (fk[key] !== undefined) renamed[key] = renameColumnList(fk[key], (c) => r.column(remote, c))!;
    return { foreign_key_constraint_on: renamed };
  }
  return { foreign_key_constraint_on: renameColumnList(fk, (c) => r.column(owner, c))! };
}

/** Boolean expressions first: walking them looks relationships up by their old definitions. */
function renameExpressions(entry: TableMetadata, r: Renamer): void {
  for (const kind of PERMISSION_KINDS) {
    for (const p of entry[`${kind}_permissions`] ?? []) {
      const body = p.permission as JsonObject;
      for (const key of ['filter', 'check'] as const) if (body[key] !== undefined) body[key] = r.boolExp(body[key], entry.table, entry.table);
    }
  }
}

function renameDefinitions(entry: TableMetadata, r: Renamer): void {
  const owner = entry.table;
  const col = (c: string) => r.column(owner, c);
  for (const list of ['object_relationships', 'array_relationships'] as const) {
    for (const rel of entry[list] ?? []) rel.using = renameUsing(rel.using as JsonObject, owner, r);
  }
  for (const kind of PERMISSION_KINDS) {
    for (const p of entry[`${kind}_permissions`] ?? []) {
      const body = p.permission as JsonObject;
      if (body.columns !== undefined) body.columns = renameColumnList(body.columns, col)!;
      if (body.set !== undefined) body.set = renameKeys(body.set, col)!;
    }
  }
  // Event triggers name columns in their operations (the database trigger follows on the next sync).
  for (const t of entry.event_triggers ?? []) {
    const definition = t.definition;
    if (!isObject(definition)) continue;
    for (const op of ['insert', 'update', 'delete'] as const) {
      const spec = definition[op];
      if (!isObject(spec)) continue;
      for (const key of ['columns', 'payload'] as const) if (spec[key] !== undefined) spec[key] = renameColumnList(spec[key], col)!;
    }
  }
  const config = entry.configuration;
  if (config && isObject(config.column_config)) config.column_config = renameKeys(config.column_config, col)!;
}

/** Rewrites every reference in the source's tables; the tracked table names are left to the caller. */
export function carryRenames(m: Metadata, source: string, catalog: DatabaseCatalog | null, renames: Renames): void {
  const s = m.sources.find((x) => x.name === source);
  if (!s) return;
  const renamer = new Renamer(s, catalog, renames);
  for (const entry of s.tables) renameExpressions(entry, renamer);
  for (const entry of s.tables) renameDefinitions(entry, renamer);
}

/** rename_relationship: boolean expressions that go through the relationship follow the new name. */
export function renameRelationshipReferences(m: Metadata, source: string, table: QualifiedName, from: string, to: string, catalog: DatabaseCatalog | null): void {
  const renames = noRenames();
  renames.relationships.set(qualifiedKey(table), new Map([[from, to]]));
  carryRenames(m, source, catalog, renames);
}
