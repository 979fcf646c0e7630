/**
 * A comparison's value: typed text (read by `parseValue`) or a session variable: the user id
 * one click away (`X-Service-User-Id`), as the well-known engine's console offers it, and any
 * other `X-Service-…` typed.
 */
import { useState } from 'react';
import type { Json } from '../model';
import type { TypedColumn } from '../../../../api/catalog';
import { formatValue, parseValue } from './operators';

const USER_ID_VARIABLE = 'X-Service-User-Id';

export function ValueInput({ value, operator, column, name, onChange }: { value: Json; operator: string; column: TypedColumn | undefined; name: string; onChange(v: Json): void }) {
  const [text, setText] = useState(() => formatValue(value, operator));
  // A value changed from outside (another operator, the JSON editor) replaces the typed text.
  const shown = JSON.stringify(parseValue(text, operator, column)) === JSON.stringify(value) ? text : formatValue(value, operator);
  if (operator === '_is_null') {
    return (
      <select aria-label={`Value of ${name}`} value={String(value === true)} onChange={(e) => onChange(e.target.value === 'true')}>
        <option value="true">true</option>
        <option value="false">false</option>
      </select>
    );
  }
  const set = (t: string) => {
    setText(t);
    onChange(parseValue(t, operator, column));
  };
  return (
    <span className="row">
      <input aria-label={`Value of ${name}`} value={shown} placeholder={column ? column.type : 'value'} onChange={(e) => set(e.target.value)} />
      <button type="button" className="secondary" aria-label={`Use ${USER_ID_VARIABLE} as value of ${name}`} onClick={() => set(USER_ID_VARIABLE)}>
        [{USER_ID_VARIABLE}]
      </button>
    </span>
  );
}
