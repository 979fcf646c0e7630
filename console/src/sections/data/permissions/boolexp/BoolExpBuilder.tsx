/**
 * The boolean-expression builder, as the well-known engine's console draws it: an expression is
 * a list of conditions (all must hold); each is a column (or a computed field returning a
 * scalar) compared with a value, a relationship with an expression on its table, `_and` / `_or`
 * of expressions, `_not`, or `_exists` (another table and an expression on it). A condition
 * the builder cannot show (a name it does not know) is shown as JSON, to edit in the JSON mode.
 */
import { tableKey, type QualifiedTable } from '../../../../api/metadata';
import type { BoolExp, Json } from '../model';
import { relationshipsOf } from '../catalog';
import { entryIn, labelIn, type BuilderScope } from './scope';
import { ColumnCondition } from './ColumnCondition';

export interface BuilderProps {
  exp: BoolExp;
  onChange(exp: BoolExp): void;
  table: QualifiedTable;
  where: string[];
  scope: BuilderScope;
}

const isExp = (v: Json): v is BoolExp => typeof v === 'object' && v !== null && !Array.isArray(v);
const asExp = (v: Json): BoolExp => (isExp(v) ? v : {});

export function BoolExpBuilder({ exp, onChange, table, where, scope }: BuilderProps) {
  const columns = scope.catalog.columnsOf(table);
  const computed = scope.catalog.scalarComputedFields(entryIn(scope, table));
  const relationships = relationshipsOf(entryIn(scope, table));
  const used = new Set(Object.keys(exp));
  const first = scope.tables[0]?.table ?? table;
  const starts: Record<string, () => Json> = {
    _and: () => [{}],
    _or: () => [{}],
    _not: () => ({}),
    _exists: () => ({ _table: { schema: first.schema, name: first.name }, _where: {} }),
  };
  const add = (key: string) => {
    const relationship = relationships.some((r) => r.name === key);
    onChange({ ...exp, [key]: starts[key]?.() ?? (relationship ? {} : { _eq: '' }) });
  };
  const set = (key: string, v: Json) => onChange({ ...exp, [key]: v });
  const remove = (key: string) => onChange(Object.fromEntries(Object.entries(exp).filter(([k]) => k !== key)));
  const choices = [
    ...columns.filter((c) => !used.has(c.name)).map((c) => ({ value: c.name, label: `${c.name} (${c.type})` })),
    ...computed.filter((c) => !used.has(c.name)).map((c) => ({ value: c.name, label: `${c.name} (computed field, ${c.type})` })),
    ...relationships.filter((r) => !used.has(r.name)).map((r) => ({ value: r.name, label: `${r.name} (relationship)` })),
    ...Object.keys(starts).filter((k) => !used.has(k)).map((k) => ({ value: k, label: k })),
  ];
  return (
    <ul className="boolexp">
      {Object.entries(exp).map(([key, value]) => (
        <li key={key}>
          <div className="row">
            <strong>{key}</strong>
            <button type="button" className="secondary" aria-label={`Remove condition ${[...where, key].join(' › ')}`} onClick={() => remove(key)}>
              ✕
            </button>
          </div>
          <Condition name={key} value={value} onChange={(v) => set(key, v)} table={table} where={where} scope={scope} />
        </li>
      ))}
      <li>
        <select aria-label={`Add condition${labelIn(where)}`} value="" onChange={(e) => e.target.value && add(e.target.value)}>
          <option value="">-- add a condition --</option>
          {choices.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      </li>
    </ul>
  );
}

interface ConditionProps {
  name: string;
  value: Json;
  onChange(v: Json): void;
  table: QualifiedTable;
  where: string[];
  scope: BuilderScope;
}

function Condition({ name, value, onChange, table, where, scope }: ConditionProps) {
  const inner = [...where, name];
  if (name === '_and' || name === '_or') return <ExpressionList name={name} items={Array.isArray(value) ? value : []} onChange={onChange} table={table} where={where} scope={scope} />;
  if (name === '_not') return <BoolExpBuilder exp={asExp(value)} onChange={onChange} table={table} where={inner} scope={scope} />;
  if (name === '_exists') return <Exists value={asExp(value)} onChange={onChange} where={inner} scope={scope} />;
  const columns = scope.catalog.columnsOf(table);
  const column = [...columns, ...scope.catalog.scalarComputedFields(entryIn(scope, table))].find((c) => c.name === name);
  if (column) return <ColumnCondition column={column} columns={columns} value={value} onChange={onChange} name={inner.join(' › ')} />;
  const relationship = relationshipsOf(entryIn(scope, table)).find((r) => r.name === name);
  const target = relationship && scope.catalog.targetOf(table, relationship);
  if (target) return <BoolExpBuilder exp={asExp(value)} onChange={onChange} table={target} where={inner} scope={scope} />;
  return (
    <p className="hint">
      <code>{JSON.stringify(value)}</code> (not a column or relationship the builder knows: edit it as JSON)
    </p>
  );
}

function ExpressionList({ name, items, onChange, table, where, scope }: { name: string; items: Json[]; onChange(v: Json): void; table: QualifiedTable; where: string[]; scope: BuilderScope }) {
  const setAt = (i: number, v: Json) => onChange(items.map((x, j) => (j === i ? v : x)));
  return (
    <ol className="boolexp-list">
      {items.map((item, i) => {
        const inner = [...where, `${name} ${i + 1}`];
        return (
          // The items have no identity but their place in the list, as in the JSON.
          <li key={i}>
            <BoolExpBuilder exp={asExp(item)} onChange={(v) => setAt(i, v)} table={table} where={inner} scope={scope} />
            <button type="button" className="secondary" aria-label={`Remove expression ${inner.join(' › ')}`} onClick={() => onChange(items.filter((_, j) => j !== i))}>
              Remove expression
            </button>
          </li>
        );
      })}
      <li>
        <button type="button" className="secondary" aria-label={`Add expression to ${[...where, name].join(' › ')}`} onClick={() => onChange([...items, {}])}>
          Add expression
        </button>
      </li>
    </ol>
  );
}

function Exists({ value, onChange, where, scope }: { value: BoolExp; onChange(v: Json): void; where: string[]; scope: BuilderScope }) {
  const t = asExp(value._table ?? null);
  const table: QualifiedTable = { schema: typeof t.schema === 'string' ? t.schema : 'public', name: typeof t.name === 'string' ? t.name : '' };
  const options = scope.tables.map((e) => tableKey(e.table));
  if (!options.includes(tableKey(table))) options.unshift(tableKey(table));
  const pick = (label: string) => {
    const picked = scope.tables.find((e) => tableKey(e.table) === label)?.table;
    if (picked) onChange({ _table: { schema: picked.schema, name: picked.name }, _where: {} });
  };
  return (
    <div>
      <select aria-label={`Table of ${where.join(' › ')}`} value={tableKey(table)} onChange={(e) => pick(e.target.value)}>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
      <BoolExpBuilder exp={asExp(value._where ?? null)} onChange={(w) => onChange({ ...value, _where: w })} table={table} where={[...where, '_where']} scope={scope} />
    </div>
  );
}
