/** Selections on a table's types to the select IR, with the role's permissions folded in. */
import type { FieldNode, FragmentDefinitionNode, SelectionSetNode } from 'graphql';
import { TRUE, type Value } from '../ir/boolexp.js';
import type { AggregateField, AggregateSelection, Field, FunctionCall, OrderByItem, RowSource, TypenameOrColumn, VisibleColumn } from '../ir/select.js';
import type { CatalogFunction } from '../catalog/types.js';
import type { RoleSchema } from '../schema/build.js';
import { isAggregateFunction } from '../schema/column-set-types.js';
import { orderableComputedField, type TableInfo } from '../schema/model.js';
import { fieldKey } from '../schema/types.js';
import { collectFields, type CollectedField } from './collect.js';
import type { RemoteJoin, SourceJoin } from '../schema/remote-relationships.js';
import { RequestError } from '../errors/request.js';
import { VarRef, type InputTree, type Inputs } from './inputs.js';
import { parseWhere } from './where.js';
import { parseJsonPath } from '../util/json-path.js';

/** A remote relationship met in a selection: made a join step by the compiler once its root field's step exists. */
export interface PendingJoin {
  /** The field's JSON path in the request (its response keys). */
  path: string;
  field: CollectedField;
  /** The row's keys: hidden response keys holding its columns the relationship reads. */
  keys: { parent: string; child: string }[];
  to: { kind: 'remote'; join: RemoteJoin } | { kind: 'source'; join: SourceJoin; target: TableInfo; rows: RowSource; fields: Field[] };
}

export class SelectionCompiler {
  /** Remote relationships of the root field being compiled. */
  pendingJoins: PendingJoin[] = [];

  constructor(
    readonly rs: RoleSchema,
    readonly fragments: Map<string, FragmentDefinitionNode>,
    readonly inputs: Inputs,
  ) {}

  private args(node: FieldNode): Map<string, InputTree> {
    return new Map((node.arguments ?? []).map((a) => [a.name.value, this.inputs.tree(a.value)]));
  }

  typeName(t: TableInfo, suffix = ''): string {
    return t.naming.typeName(t.identifier + suffix);
  }

  nonNegative(tree: InputTree | undefined, path: string): Value | null {
    if (tree === undefined) return null;
    if (tree instanceof VarRef) return this.inputs.scalar(tree);
    const v = this.inputs.resolve(tree);
    if (v === null) return null;
    if (typeof v !== 'number' || !Number.isInteger(v)) throw new RequestError(`expected a 32-bit integer for type "Int", but found ${JSON.stringify(v)}`, path);
    if (v < 0) throw new RequestError('expected a non-negative 32-bit integer for type "Int", but found an integer', path);
    return { kind: 'literal', value: v, query: true };
  }

  /** where / order_by / distinct_on / limit / offset of a list of rows of `t`. */
  rows(t: TableInfo, node: FieldNode, path: string): RowSource {
    const args = this.args(node);
    const orderByArg = t.naming.fieldName('order_by');
    const distinctOnArg = t.naming.fieldName('distinct_on');
    const where = args.has('where') ? parseWhere(this.rs.model, t, args.get('where')!, this.inputs, `${path}.args.where`) : TRUE;
    const orderBy = args.has(orderByArg) ? this.orderBy(t, args.get(orderByArg)!, `${path}.args.${orderByArg}`) : [];
    const distinctOn = args.has(distinctOnArg) ? this.distinctOn(t, args.get(distinctOnArg)!, `${path}.args.${distinctOnArg}`) : [];
    if (distinctOn.length > 0 && orderBy.length > 0) {
      const leading = orderBy.slice(0, distinctOn.length).map((o) => (o.path.length === 0 && o.target.kind === 'column' ? o.target.column : null));
      if (!distinctOn.every((c, i) => leading[i] === c.column)) {
        throw new RequestError('"distinct_on" columns must match initial "order_by" columns', `${path}.args`);
      }
    }
    return {
      table: { schema: t.catalog.schema, name: t.catalog.name },
      permission: t.permission.filter,
      where,
      orderBy,
      distinctOn,
      limit: this.nonNegative(args.get('limit'), `${path}.args.limit`),
      offset: this.nonNegative(args.get('offset'), `${path}.args.offset`),
      limitCap: t.permission.limit,
    };
  }

  /** A list of `<t>_select_column` values (distinct_on, count's columns), each as the role sees it. */
  private distinctOn(t: TableInfo, tree: InputTree, path: string): VisibleColumn[] {
    const list = (this.inputs.resolve(tree) as unknown[] | unknown) ?? [];
    const names = Array.isArray(list) ? list : [list];
    return names.map((n, i) => {
      const c = t.columns.find((x) => x.fieldName === n);
      if (!c) throw new RequestError(`unexpected value ${JSON.stringify(n)} for enum: '${this.typeName(t, '_select_column')}'`, `${path}[${i}]`);
      return { column: c.column.name, visibleWhen: t.permission.columns.get(c.column.name) ?? null };
    });
  }

  orderBy(t: TableInfo, tree: InputTree, path: string): OrderByItem[] {
    const list = this.inputs.list(tree) ?? [];
    const out: OrderByItem[] = [];
    list.forEach((item, i) => this.orderByObject(t, item, `${path}[${i}]`, [], out));
    return out;
  }

  private direction(v: unknown, path: string): Pick<OrderByItem, 'direction' | 'nulls'> | null {
    if (v === null) return null;
    // graphql-default spells the values in upper case.
    const m = /^(asc|desc)(?:_nulls_(first|last))?$/.exec(String(v).toLowerCase());
    if (!m) throw new RequestError(`unexpected value ${JSON.stringify(v)} for enum: 'order_by'`, path);
    return { direction: m[1] as 'asc' | 'desc', nulls: (m[2] as 'first' | 'last' | undefined) ?? null };
  }

  private orderByObject(t: TableInfo, tree: InputTree, path: string, hops: OrderByItem['path'], out: OrderByItem[]): void {
    const obj = this.inputs.object(tree, path) ?? {};
    for (const [key, value] of Object.entries(obj)) {
      const p = `${path}.${key}`;
      const column = t.columns.find((c) => c.fieldName === key);
      if (column) {
        const d = this.direction(this.inputs.resolve(value), p);
        if (d) out.push({ path: hops, target: { kind: 'column', column: column.column.name, visibleWhen: t.permission.columns.get(column.column.name) ?? null }, ...d });
        continue;
      }
      const computed = t.computedFields.find((c) => c.fieldName === key && orderableComputedField(c));
      if (computed) {
        const d = this.direction(this.inputs.resolve(value), p);
        if (d) out.push({ path: hops, target: { kind: 'computed', call: computed.call, visibleWhen: t.permission.computedFields.get(computed.name) ?? null }, ...d });
        continue;
      }
      const rel = t.relationships.find((r) => r.fieldName === key && r.kind === 'object');
      if (rel) {
        const target = this.rs.model.tables.get(rel.targetKey)!;
        this.orderByObject(target, value, p, [...hops, { join: rel.join, permission: target.permission.filter }], out);
        continue;
      }
      const agg = t.relationships.find((r) => `${r.fieldName}_aggregate` === key && r.kind === 'array');
      if (agg) {
        const target = this.rs.model.tables.get(agg.targetKey)!;
        const aggObj = this.inputs.object(value, p) ?? {};
        for (const [fn, inner] of Object.entries(aggObj)) {
          if (fn === 'count') {
            const d = this.direction(this.inputs.resolve(inner), `${p}.count`);
            if (d) out.push({ path: hops, target: { kind: 'aggregate', join: agg.join, permission: target.permission.filter, fn: 'count', column: null, visibleWhen: null }, ...d });
            continue;
          }
          for (const [colName, dir] of Object.entries(this.inputs.object(inner, `${p}.${fn}`) ?? {})) {
            const c = target.columns.find((x) => x.fieldName === colName);
            if (!c) throw new RequestError(`field ${JSON.stringify(colName)} not found in type: '${this.typeName(target, `_${fn}_order_by`)}'`, `${p}.${fn}.${colName}`);
            const d = this.direction(this.inputs.resolve(dir), `${p}.${fn}.${colName}`);
            const visibleWhen = target.permission.columns.get(c.column.name) ?? null;
            if (d) out.push({ path: hops, target: { kind: 'aggregate', join: agg.join, permission: target.permission.filter, fn, column: c.column.name, visibleWhen }, ...d });
          }
        }
        continue;
      }
      throw new RequestError(`field ${JSON.stringify(key)} not found in type: '${this.typeName(t, '_order_by')}'`, p);
    }
  }

  /** The fields selected on a table's object type. */
  fields(t: TableInfo, sets: readonly SelectionSetNode[], path: string): Field[] {
    const typeName = this.typeName(t);
    return collectFields(typeName, sets, this.fragments, this.inputs, path).flatMap((f): Field | Field[] => {
      const p = `${path}.selectionSet.${f.alias}`;
      if (f.name === '__typename') return { kind: 'typename', alias: f.alias, typename: typeName };
      const info = this.rs.fields.get(fieldKey(typeName, f.name));
      if (!info) throw new RequestError(`field '${f.name}' not found in type: '${typeName}'`, p);
      switch (info.kind) {
        case 'column': {
          const pathArg = this.args(f.node).get('path');
          const jsonPath = pathArg === undefined ? null : this.jsonPath(this.inputs.resolve(pathArg), `${p}.args.path`);
          return { kind: 'column', alias: f.alias, column: info.column.column.name, type: info.column.column.type, visibleWhen: t.permission.columns.get(info.column.column.name) ?? null, jsonPath };
        }
        case 'relationship': {
          const target = this.rs.model.tables.get(info.relationship.targetKey)!;
          if (info.relationship.kind === 'object') {
            return { kind: 'object', alias: f.alias, join: info.relationship.join, permission: target.permission.filter, fields: this.fields(target, f.selections, p) };
          }
          return { kind: 'array', alias: f.alias, join: info.relationship.join, rows: this.rows(target, f.node, p), fields: this.fields(target, f.selections, p) };
        }
        case 'relationship_aggregate': {
          const target = this.rs.model.tables.get(info.relationship.targetKey)!;
          return { kind: 'aggregate', alias: f.alias, join: info.relationship.join, rows: this.rows(target, f.node, p), aggregate: this.aggregate(target, f.selections, p) };
        }
        case 'computed': {
          const cf = info.computed;
          const given = this.args(f.node).get('args');
          const argObj = given === undefined ? {} : (this.inputs.object(given, `${p}.args.args`) ?? {});
          const mapped = new Map(cf.columnArguments);
          const call = this.functionCall(cf.fn, argObj, (a, i) => (i === cf.tableArgument ? 'row' : mapped.has(i) ? { column: mapped.get(i)! } : a.name !== null && a.name === cf.call.sessionArgument ? 'session' : null));
          if (cf.returnsTable) {
            const target = this.rs.model.tables.get(cf.returnsTable)!;
            const rows = this.rows(target, f.node, p);
            return { kind: 'computed_set', alias: f.alias, call, rows, fields: this.fields(target, f.selections, p) };
          }
          return { kind: 'computed_scalar', alias: f.alias, call, returnType: cf.fn.returnType, visibleWhen: t.permission.computedFields.get(cf.name) ?? null };
        }
        case 'remote_relationship':
          return this.joinKeys(t, f, p, info.join.lhs, { kind: 'remote', join: info.join });
        case 'source_relationship': {
          // The target as this role sees it (the field table may be another role's of the same shape).
          const target = this.rs.model.tables.get(info.join.targetKey)!;
          return this.joinKeys(t, f, p, info.join.mapping.map(([lhs]) => lhs), this.sourceJoin(info.join, target, f, p));
        }
        default:
          throw new RequestError(`field '${f.name}' not found in type: '${typeName}'`, p);
      }
    });
  }

  /** A remote relationship: recorded for a join step; the row's key columns selected under response keys of their own (removed once joined). */
  /** A join to rows of `target` (a `to_source` relationship, an action's output relationship): its rows and fields. */
  sourceJoin(join: SourceJoin, target: TableInfo, f: CollectedField, p: string): Extract<PendingJoin['to'], { kind: 'source' }> {
    const outer = this.pendingJoins;
    this.pendingJoins = [];
    const rows: RowSource = join.many
      ? this.rows(target, f.node, p)
      : { table: { schema: target.catalog.schema, name: target.catalog.name }, permission: target.permission.filter, where: TRUE, orderBy: [], distinctOn: [], limit: null, offset: null, limitCap: 1 };
    const fields = this.fields(target, f.selections, p);
    if (this.pendingJoins.length > 0) throw new RequestError('remote relationships under a remote relationship to a source are not supported yet', this.pendingJoins[0]!.path, 'not-supported');
    this.pendingJoins = outer;
    return { kind: 'source', join, target, rows, fields };
  }

  private joinKeys(t: TableInfo, f: CollectedField, path: string, columns: string[], to: PendingJoin['to']): Field[] {
    const keys = columns.map((c) => ({ parent: `__${f.alias}_${c}`, child: c }));
    this.pendingJoins.push({ path, field: f, keys, to });
    return columns.map((c, i): Field => ({ kind: 'column', alias: keys[i]!.parent, column: c, type: t.catalog.columns.find((x) => x.name === c)!.type, visibleWhen: null, jsonPath: null }));
  }

  /**
   * A call with the function's arguments in order: the row and session where `special`
   * says, the rest from `given` (by name). Trailing arguments not given take their
   * defaults; one not given before a given one is null.
   */
  functionCall(fn: CatalogFunction, given: Record<string, InputTree>, special: (a: CatalogFunction['args'][number], i: number) => 'row' | 'session' | { column: string } | null): FunctionCall {
    const args: FunctionCall['args'] = fn.args.map((a, i) => {
      const kind = special(a, i);
      if (typeof kind === 'object' && kind !== null) return { kind: 'column', column: kind.column };
      if (kind) return { kind };
      const tree = a.name !== null ? given[a.name] : undefined;
      const value = tree === undefined ? null : this.inputs.scalar(tree);
      return { kind: 'value', value: value ?? { kind: 'literal', value: null }, type: a.type, omitted: tree === undefined && a.hasDefault } as FunctionCall['args'][number] & { omitted?: boolean };
    });
    let end = args.length;
    while (end > 0 && (args[end - 1] as { omitted?: boolean }).omitted) end--;
    return { fn: { schema: fn.schema, name: fn.name }, args: args.slice(0, end).map((a) => (a.kind === 'value' ? { kind: 'value', value: a.value, type: a.type } : a)) };
  }

  /** `$.a.b[0]` or `a.b` to the text[] that `#>` takes. */
  private jsonPath(v: unknown, path: string): Value | null {
    if (v === null) return null;
    if (typeof v !== 'string') throw new RequestError('expected a string for "path"', path);
    const parsed = parseJsonPath(v);
    if (!parsed) throw new RequestError(`invalid JSON path ${JSON.stringify(v)}`, path);
    // PostgreSQL's `#>` takes array indexes as text too.
    const parts = parsed.map(String);
    return { kind: 'literal', value: parts, query: true };
  }

  aggregate(t: TableInfo, sets: readonly SelectionSetNode[], path: string): AggregateSelection {
    const aggName = this.typeName(t, '_aggregate');
    return collectFields(aggName, sets, this.fragments, this.inputs, path).map((f) => {
      const p = `${path}.selectionSet.${f.alias}`;
      if (f.name === '__typename') return { kind: 'typename', alias: f.alias, typename: aggName };
      if (f.name === 'nodes') return { kind: 'nodes', alias: f.alias, fields: this.fields(t, f.selections, p) };
      if (f.name === 'aggregate') return { kind: 'aggregate', alias: f.alias, fields: this.aggregateFields(t, f.selections, p) };
      throw new RequestError(`field '${f.name}' not found in type: '${aggName}'`, p);
    });
  }

  private aggregateFields(t: TableInfo, sets: readonly SelectionSetNode[], path: string): AggregateField[] {
    const name = this.typeName(t, '_aggregate_fields');
    return collectFields(name, sets, this.fragments, this.inputs, path).map((f): AggregateField => {
      const p = `${path}.selectionSet.${f.alias}`;
      if (f.name === '__typename') return { kind: 'typename', alias: f.alias, typename: name };
      if (f.name === 'count') {
        const args = this.args(f.node);
        const cols = args.has('columns') ? this.distinctOn(t, args.get('columns')!, `${p}.args.columns`) : [];
        const distinct = args.has('distinct') ? this.inputs.resolve(args.get('distinct')!) === true : false;
        return { kind: 'count', alias: f.alias, columns: cols, distinct };
      }
      const fn = f.name;
      if (!isAggregateFunction(fn)) throw new RequestError(`field '${fn}' not found in type: '${name}'`, p);
      const fnType = this.typeName(t, `_${fn}_fields`);
      const columns = collectFields(fnType, f.selections, this.fragments, this.inputs, p).map((c): TypenameOrColumn => {
        if (c.name === '__typename') return { alias: c.alias, typename: fnType };
        const col = t.columns.find((x) => x.fieldName === c.name);
        if (!col) throw new RequestError(`field '${c.name}' not found in type: '${fnType}'`, `${p}.selectionSet.${c.alias}`);
        return { alias: c.alias, column: col.column.name, type: col.column.type, visibleWhen: t.permission.columns.get(col.column.name) ?? null };
      });
      return { kind: 'fn', alias: f.alias, fn, columns };
    });
  }
}
