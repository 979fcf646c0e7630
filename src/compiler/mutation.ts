/** Mutation fields to the mutation IR, with the role's insert/update/delete permissions folded in. */
import type { FieldNode } from 'graphql';
import { TRUE, type BoolExp, type Value } from '../ir/boolexp.js';
import type { Insert, InsertRow, MutationField, MutationOutput, Update } from '../ir/mutation.js';
import type { MutableTableInfo } from '../schema/model.js';
import type { FieldInfo } from '../schema/types.js';
import { collectFields, type CollectedField } from './collect.js';
import { RequestError } from '../errors/request.js';
import type { InputTree } from './inputs.js';
import type { SelectionCompiler } from './selection.js';
import { parseWhere } from './where.js';

const columnTypes = (m: MutableTableInfo): Insert['columnTypes'] => m.catalog.columns.map((c) => [c.name, c.type]);

const UPDATE_OPERATORS = ['_set', '_inc', '_append', '_prepend', '_delete_key', '_delete_elem', '_delete_at_path'];

export class MutationCompiler {
  constructor(private readonly s: SelectionCompiler) {}

  private get inputs() {
    return this.s.inputs;
  }

  private args(node: FieldNode): Map<string, InputTree> {
    return new Map((node.arguments ?? []).map((a) => [a.name.value, this.inputs.tree(a.value)]));
  }

  private column(m: MutableTableInfo, fieldName: string) {
    return m.columns.find((c) => c.fieldName === fieldName);
  }

  private output(m: MutableTableInfo, f: CollectedField, path: string, row: boolean): MutationOutput {
    if (row) return { kind: 'row', fields: this.s.fields(m.selectable!, f.selections, path) };
    const typeName = m.naming.typeName(m.identifier + '_mutation_response');
    const items = collectFields(typeName, f.selections, this.s.fragments, this.inputs, path).map((x) => {
      const p = `${path}.selectionSet.${x.alias}`;
      if (x.name === m.naming.fieldName('affected_rows')) return { kind: 'affected_rows' as const, alias: x.alias };
      if (x.name === '__typename') return { kind: 'typename' as const, alias: x.alias, typename: typeName };
      if (x.name === 'returning' && m.selectable) return { kind: 'returning' as const, alias: x.alias, fields: this.s.fields(m.selectable, x.selections, p) };
      throw new RequestError(`field '${x.name}' not found in type: '${typeName}'`, p);
    });
    return { kind: 'response', items };
  }

  private insert(m: MutableTableInfo, objects: InputTree[], onConflict: InputTree | undefined, path: string, ifMatched?: InputTree): Insert {
    const perm = m.insert!;
    return {
      ...(ifMatched === undefined ? {} : { ifMatched: this.ifMatched(m, ifMatched, path.replace(/\.args\.\w+$/, '.args.if_matched')) }),
      table: { schema: m.catalog.schema, name: m.catalog.name },
      columnTypes: columnTypes(m),
      rows: objects.map((o, i) => this.insertRow(m, o, `${path}[${i}]`)),
      presets: [...perm.set],
      check: perm.check,
      onConflict: onConflict === undefined ? null : this.onConflict(m, onConflict, path.replace(/\.args\.\w+$/, '.args.on_conflict')),
    };
  }

  private insertRow(m: MutableTableInfo, tree: InputTree, path: string): InsertRow {
    const obj = this.inputs.object(tree, path) ?? {};
    const values = new Map<string, Value>();
    const row: InsertRow = { values: [], parents: [], children: [] };
    const relPaths = new Map<object, string>();
    for (const [key, raw] of Object.entries(obj)) {
      const p = `${path}.${key}`;
      const col = this.column(m, key);
      if (col && m.insert!.columns.has(col.column.name) && !m.insert!.set.has(col.column.name)) {
        const v = this.inputs.scalar(raw);
        values.set(col.column.name, v ?? { kind: 'literal', value: null });
        continue;
      }
      const rel = m.relationships.find((r) => r.fieldName === key);
      if (!rel) throw new RequestError(`field ${JSON.stringify(key)} not found in type: '${m.naming.typeName(m.identifier + '_insert_input')}'`, p);
      const target = this.s.rs.model.mutable.get(rel.targetKey)!;
      const relObj = this.inputs.object(raw, p);
      if (!relObj) continue;
      const data = relObj.data;
      if (data === undefined) throw new RequestError('key "data" not found', p);
      const onConflict = relObj.on_conflict;
      relPaths.set(rel.join, p);
      if (rel.kind === 'object') {
        row.parents.push({ join: rel.join, insert: this.insert(target, [data], onConflict, `${p}.data`) });
      } else {
        const list = this.inputs.list(data) ?? [];
        if (list.length > 0) row.children.push({ join: rel.join, insert: this.insert(target, list, onConflict, `${p}.data`) });
      }
    }
    for (const parent of row.parents) {
      const taken = parent.join.mapping.map(([mine]) => mine).filter((c) => values.has(c));
      // The well-known engine's wording, typo included: clients match on it.
      if (taken.length) throw new RequestError(`cannot insert object relation ship ${JSON.stringify(m.relationships.find((r) => r.join === parent.join)!.name)} as ${taken.map((c) => JSON.stringify(c)).join(', ')} column values are already determined`, relPaths.get(parent.join)!);
    }
    for (const child of row.children) {
      const theirs = child.join.mapping.map(([, t]) => t);
      const given = (r: InsertRow, c: string) => r.values.some(([column]) => column === c);
      const at = child.insert.rows.findIndex((r) => theirs.some((c) => given(r, c)));
      if (at >= 0) {
        const taken = theirs.filter((c) => given(child.insert.rows[at]!, c));
        throw new RequestError(`cannot insert ${taken.map((c) => JSON.stringify(c)).join(', ')} columns as their values are already being determined by parent insert`, `${relPaths.get(child.join)!}.data[${at}]`);
      }
    }
    row.values = [...values];
    return row;
  }

  private onConflict(m: MutableTableInfo, tree: InputTree, path: string): Insert['onConflict'] {
    const obj = this.inputs.object(tree, path);
    if (!obj) return null;
    const constraint = this.inputs.resolve(obj.constraint ?? null);
    if (typeof constraint !== 'string') throw new RequestError('"constraint" is required', path);
    const columns = (this.inputs.list(obj.update_columns ?? []) ?? []).map((x) => {
      const name = this.inputs.resolve(x);
      const c = this.column(m, String(name));
      if (!c || !m.update?.columns.has(c.column.name)) throw new RequestError(`unexpected value ${JSON.stringify(name)} for enum: '${m.naming.typeName(m.identifier + '_update_column')}'`, `${path}.update_columns`);
      return c.column.name;
    });
    const where = obj.where !== undefined && m.selectable ? parseWhere(this.s.rs.model, m.selectable, obj.where, this.inputs, `${path}.where`) : TRUE;
    // The deprecated `action: ignore` means DO NOTHING.
    const ignore = obj.action !== undefined && this.inputs.resolve(obj.action) === 'ignore';
    return {
      constraint,
      updateColumns: ignore ? [] : columns,
      where: { kind: 'and', items: [where, m.update?.filter ?? TRUE] },
      presets: ignore ? [] : [...(m.update?.set ?? [])],
    };
  }

  private ifMatched(m: MutableTableInfo, tree: InputTree, path: string): Insert['ifMatched'] {
    const obj = this.inputs.object(tree, path);
    if (!obj) return null;
    // Enum values arrive as their GraphQL names (the columns' field names).
    const columns = (key: string) => (this.inputs.list(obj[key] ?? []) ?? []).map((x) => this.column(m, String(this.inputs.resolve(x)))?.column.name ?? String(this.inputs.resolve(x)));
    const where = obj.where !== undefined && m.selectable ? parseWhere(this.s.rs.model, m.selectable, obj.where, this.inputs, `${path}.where`) : TRUE;
    return {
      matchColumns: columns('match_columns'),
      updateColumns: columns('update_columns'),
      where: { kind: 'and', items: [where, m.update?.filter ?? TRUE] },
      presets: [...(m.update?.set ?? [])],
    };
  }

  private updateOperations(m: MutableTableInfo, args: Map<string, InputTree> | Record<string, InputTree>, path: string): Update['operations'] {
    const get = (k: string) => (args instanceof Map ? args.get(k) : args[k]);
    const ops: Update['operations'] = [];
    for (const op of UPDATE_OPERATORS) {
      const tree = get(op);
      if (tree === undefined) continue;
      const obj = this.inputs.object(tree, `${path}.${op}`) ?? {};
      for (const [key, raw] of Object.entries(obj)) {
        const col = this.column(m, key);
        if (!col || !m.update!.columns.has(col.column.name)) throw new RequestError(`field ${JSON.stringify(key)} not found in type: '${m.naming.typeName(m.identifier + op.replace(/^_/, '_') + '_input')}'`, `${path}.${op}.${key}`);
        const v = op === '_set' ? (this.inputs.scalar(raw) ?? { kind: 'literal', value: null }) : this.inputs.scalar(raw);
        if (v) ops.push({ column: col.column.name, type: col.column.type, op, value: v });
      }
    }
    const byColumn = new Map<string, string[]>();
    for (const o of ops) byColumn.set(o.column, [...(byColumn.get(o.column) ?? []), o.op]);
    const repeated = [...byColumn].filter(([, list]) => list.length > 1);
    if (repeated.length) {
      throw new RequestError(`column found in multiple operators; ${repeated.map(([c, list]) => `${JSON.stringify(c)} in ${list.join(', ')}`).join('. ')}`, '$');
    }
    for (const [column, value] of m.update!.set) ops.push({ column, type: m.catalog.columns.find((c) => c.name === column)!.type, op: '_set', value });
    return ops;
  }

  private update(m: MutableTableInfo, where: BoolExp, ops: Update['operations']): Update {
    return { table: { schema: m.catalog.schema, name: m.catalog.name }, columnTypes: columnTypes(m), operations: ops, permission: m.update!.filter, where, check: m.update!.check };
  }

  private pkWhere(m: MutableTableInfo, tree: InputTree | Map<string, InputTree>, path: string): BoolExp {
    const get = (k: string) => (tree instanceof Map ? tree.get(k) : (this.inputs.object(tree, path) ?? {})[k]);
    const items: BoolExp[] = m.catalog.primaryKey!.columns.map((c) => {
      const col = m.columns.find((x) => x.column.name === c)!;
      const v: Value | null = this.inputs.scalar(get(col.fieldName) ?? null);
      if (!v) throw new RequestError(`missing required field ${JSON.stringify(col.fieldName)}`, path);
      return { kind: 'column', column: c, type: col.column.type, ops: [{ op: '_eq', value: v }] };
    });
    return { kind: 'and', items };
  }

  compile(info: Extract<FieldInfo, { mtable: MutableTableInfo }>, f: CollectedField, path: string): MutationField {
    // The field table may be shared by roles of the same schema shape: the table as this role may change it.
    const m = this.s.rs.model.mutable.get(info.mtable.key)!;
    const source = m.source.name;
    const args = this.args(f.node);
    const where = (tree: InputTree | undefined, p: string) => (tree === undefined ? TRUE : parseWhere(this.s.rs.model, m.selectable!, tree, this.inputs, p));
    const pk = m.catalog.primaryKey?.columns ?? null;
    switch (info.kind) {
      case 'root_insert':
      case 'root_insert_one': {
        const one = info.kind === 'root_insert_one';
        const objects = one ? [args.get('object')!] : (this.inputs.list(args.get('objects') ?? []) ?? []);
        const insert = this.insert(m, objects, args.get('on_conflict'), `${path}.args.${one ? 'object' : 'objects'}`, args.get('if_matched'));
        if (insert.rows.some((r) => r.parents.length || r.children.length) && !pk) throw new RequestError('nested inserts need a primary key on the table', path, 'not-supported');
        return { kind: 'insert', alias: f.alias, source, insert, output: this.output(m, f, path, one), primaryKey: pk };
      }
      case 'root_update':
        return { kind: 'update', alias: f.alias, source, updates: [this.update(m, where(args.get('where'), `${path}.args.where`), this.updateOperations(m, args, `${path}.args`))], output: this.output(m, f, path, false), many: false };
      case 'root_update_by_pk':
        return { kind: 'update', alias: f.alias, source, updates: [this.update(m, this.pkWhere(m, args.get('pk_columns') ?? {}, `${path}.args.pk_columns`), this.updateOperations(m, args, `${path}.args`))], output: this.output(m, f, path, true), many: false };
      case 'root_update_many': {
        const list = this.inputs.list(args.get('updates') ?? []) ?? [];
        const updates = list.map((u, i) => {
          const p = `${path}.args.updates[${i}]`;
          const obj = this.inputs.object(u, p) ?? {};
          return this.update(m, where(obj.where, `${p}.where`), this.updateOperations(m, obj, p));
        });
        return { kind: 'update', alias: f.alias, source, updates, output: this.output(m, f, path, false), many: true };
      }
      case 'root_delete':
        return { kind: 'delete', alias: f.alias, source, delete: { table: { schema: m.catalog.schema, name: m.catalog.name }, columnTypes: columnTypes(m), permission: m.delete!.filter, where: where(args.get('where'), `${path}.args.where`) }, output: this.output(m, f, path, false) };
      case 'root_delete_by_pk':
        return { kind: 'delete', alias: f.alias, source, delete: { table: { schema: m.catalog.schema, name: m.catalog.name }, columnTypes: columnTypes(m), permission: m.delete!.filter, where: this.pkWhere(m, args, `${path}.args`) }, output: this.output(m, f, path, true) };
    }
  }
}
