/**
 * Which rows a permission applies to (a filter, or an insert's / update's check), as the
 * well-known engine's console asks it: without any checks, with the same custom check as
 * another of the role's permissions on the table, or with a custom check.
 */
import { useId, useState } from 'react';
import type { QualifiedTable } from '../../../api/metadata';
import type { Action, BoolExp } from './model';
import { ExpressionEditor } from './boolexp/ExpressionEditor';
import type { BuilderScope } from './boolexp/scope';

type Mode = 'none' | 'custom' | Action;

export interface OtherCheck {
  action: Action;
  exp: BoolExp;
}

const same = (a: BoolExp, b: BoolExp) => JSON.stringify(a) === JSON.stringify(b);

function initialMode(value: BoolExp, others: OtherCheck[]): Mode {
  if (Object.keys(value).length === 0) return 'none';
  return others.find((o) => same(o.exp, value))?.action ?? 'custom';
}

export interface RowCheckProps {
  title: string;
  value: BoolExp;
  onChange(v: BoolExp): void;
  onValidity(valid: boolean): void;
  /** The role's other permissions on the table that check rows. */
  others: OtherCheck[];
  table: QualifiedTable;
  scope: BuilderScope;
}

export function RowCheckSection({ title, value, onChange, onValidity, others, table, scope }: RowCheckProps) {
  const [mode, setMode] = useState<Mode>(() => initialMode(value, others));
  const name = useId();
  const choose = (m: Mode) => {
    setMode(m);
    onValidity(true);
    if (m === 'none') onChange({});
    else if (m !== 'custom') onChange(others.find((o) => o.action === m)!.exp);
  };
  const choices: { mode: Mode; label: string }[] = [
    { mode: 'none', label: 'Without any checks' },
    ...others.map((o) => ({ mode: o.action, label: `With same custom check as ${o.action}` })),
    { mode: 'custom', label: 'With custom check' },
  ];
  return (
    <fieldset className="permission-part">
      <legend>{title}</legend>
      {choices.map((c) => (
        <label key={c.mode} className="radio">
          <input type="radio" name={name} checked={mode === c.mode} onChange={() => choose(c.mode)} /> {c.label}
        </label>
      ))}
      {mode === 'custom' && <ExpressionEditor title={title} value={value} onChange={onChange} onValidity={onValidity} table={table} scope={scope} />}
      {mode !== 'custom' && mode !== 'none' && <pre className="code">{JSON.stringify(value, null, 2)}</pre>}
    </fieldset>
  );
}
