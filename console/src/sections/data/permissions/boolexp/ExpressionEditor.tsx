/**
 * A custom check, edited with the builder or as raw JSON (switchable both ways, as in the
 * well-known engine's console). JSON that does not parse to an object is reported and blocks
 * saving (`onValidity`) and the way back to the builder until it is fixed.
 */
import { useState } from 'react';
import type { QualifiedTable } from '../../../../api/metadata';
import type { BoolExp } from '../model';
import { TextArea } from '../../../../ui/forms';
import { BoolExpBuilder } from './BoolExpBuilder';
import type { BuilderScope } from './scope';

function parse(text: string): BoolExp | string {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as BoolExp) : 'a boolean expression is a JSON object';
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

export interface ExpressionEditorProps {
  title: string;
  value: BoolExp;
  onChange(v: BoolExp): void;
  onValidity(valid: boolean): void;
  table: QualifiedTable;
  scope: BuilderScope;
}

export function ExpressionEditor({ title, value, onChange, onValidity, table, scope }: ExpressionEditorProps) {
  const [raw, setRaw] = useState<string | null>(null);
  const problem = raw === null ? null : parse(raw);
  const invalid = typeof problem === 'string' ? problem : null;
  const edit = (text: string) => {
    setRaw(text);
    const parsed = parse(text);
    onValidity(typeof parsed !== 'string');
    if (typeof parsed !== 'string') onChange(parsed);
  };
  return (
    <div className="expression-editor">
      <div className="row">
        {raw === null ? (
          <button type="button" className="secondary" aria-label={`Edit ${title} as JSON`} onClick={() => setRaw(JSON.stringify(value, null, 2))}>
            Edit as JSON
          </button>
        ) : (
          <button type="button" className="secondary" aria-label={`Edit ${title} with the builder`} disabled={invalid !== null} onClick={() => setRaw(null)}>
            Edit with the builder
          </button>
        )}
      </div>
      {raw === null ? (
        <BoolExpBuilder exp={value} onChange={onChange} table={table} where={[]} scope={scope} />
      ) : (
        <>
          <TextArea label={`${title} (JSON)`} value={raw} onChange={(e) => edit(e.target.value)} />
          {invalid !== null && (
            <p className="error-note" role="status">
              Not a valid boolean expression: {invalid}
            </p>
          )}
        </>
      )}
    </div>
  );
}
