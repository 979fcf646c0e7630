/** A column's comparisons: each an operator from the column type's list and a value. */
import type { BoolExp, Json } from '../model';
import type { TypedColumn } from '../../../../api/catalog';
import { COLUMN_OPERATORS, isSessionVariable, LIST_OPERATORS, operatorsFor } from './operators';
import { ValueInput } from './ValueInput';

/** The value kept when the operator changes, reshaped: a list for `_in`, a flag for `_is_null`. */
function carried(v: Json, from: string, to: string, sameType: TypedColumn[]): Json {
  if (COLUMN_OPERATORS.includes(to)) return COLUMN_OPERATORS.includes(from) ? v : (sameType[0]?.name ?? '');
  if (COLUMN_OPERATORS.includes(from)) return LIST_OPERATORS.has(to) ? [] : '';
  if (to === '_is_null') return true;
  if (from === '_is_null') return LIST_OPERATORS.has(to) ? [] : '';
  if (LIST_OPERATORS.has(to) && !LIST_OPERATORS.has(from)) return v === '' || v === null ? [] : isSessionVariable(v) ? v : [v];
  if (!LIST_OPERATORS.has(to) && LIST_OPERATORS.has(from) && Array.isArray(v)) return v[0] ?? '';
  return v;
}

/** `value`: `{op: value, …}`, or a bare value, which the engine reads as `_eq`. */
export function ColumnCondition({ column, columns, value, onChange, name }: { column: TypedColumn; columns: TypedColumn[]; value: Json; onChange(v: Json): void; name: string }) {
  const comparisons: BoolExp = typeof value === 'object' && value !== null && !Array.isArray(value) ? value : { _eq: value };
  const operators = operatorsFor(column);
  // The engine compares only columns of the same type.
  const sameType = columns.filter((c) => c.type === column.type && c.name !== column.name);
  const rename = (from: string, to: string) =>
    onChange(Object.fromEntries(Object.entries(comparisons).map(([op, v]) => (op === from ? [to, carried(v, from, to, sameType)] : [op, v]))));
  const entries = Object.entries(comparisons);
  return (
    <>
      {entries.map(([op, v]) => {
        const label = entries.length > 1 ? `${name} ${op}` : name;
        return (
          <div className="row" key={op}>
            <select aria-label={`Operator of ${label}`} value={op} onChange={(e) => rename(op, e.target.value)}>
              {(operators.includes(op) ? operators : [op, ...operators]).map((o) => (
                <option key={o} value={o} disabled={o !== op && o in comparisons}>
                  {o}
                </option>
              ))}
            </select>
            {COLUMN_OPERATORS.includes(op) && typeof v === 'string' ? (
              <select aria-label={`Column compared with ${label}`} value={v} onChange={(e) => onChange({ ...comparisons, [op]: e.target.value })}>
                {(sameType.some((c) => c.name === v) ? sameType.map((c) => c.name) : [v, ...sameType.map((c) => c.name)]).map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </select>
            ) : (
              <ValueInput value={v} operator={op} column={column} name={label} onChange={(nv) => onChange({ ...comparisons, [op]: nv })} />
            )}
          </div>
        );
      })}
    </>
  );
}
