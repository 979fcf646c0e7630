/** The browse tab's filters (several) and sort, applied together by "Run query". */
import { useState, type FormEvent } from 'react';
import { Select, TextField } from '../../../ui/forms';
import type { Column } from '../../../api/catalog';
import { OPERATORS, type Filter, type Operator, type Sort } from './where';

export function QueryControls({ columns, onRun }: { columns: Column[]; onRun: (filters: Filter[], sort: Sort | null) => void }) {
  const names = columns.map((c) => c.name);
  const [filters, setFilters] = useState<Filter[]>([]);
  const [sortColumn, setSortColumn] = useState('');
  const [direction, setDirection] = useState<'asc' | 'desc'>('asc');
  const set = (i: number, change: Partial<Filter>) => setFilters((fs) => fs.map((f, j) => (j === i ? { ...f, ...change } : f)));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onRun(filters, sortColumn ? { column: sortColumn, direction } : null);
  };
  return (
    <form onSubmit={submit} aria-label="Filter and sort" className="query-controls">
      {filters.map((f, i) => (
        <div className="row" key={i}>
          <Select label={`Filter ${i + 1} column`} value={f.column} onChange={(e) => set(i, { column: e.target.value })} options={names} />
          <Select label={`Filter ${i + 1} operator`} value={f.operator} onChange={(e) => set(i, { operator: e.target.value as Operator })} options={[...OPERATORS]} />
          <TextField label={`Filter ${i + 1} value`} value={f.value} onChange={(e) => set(i, { value: e.target.value })} placeholder={f.operator === '_in' ? 'a, b, c' : f.operator === '_is_null' ? 'true' : ''} />
          <button type="button" className="secondary" onClick={() => setFilters((fs) => fs.filter((_, j) => j !== i))}>
            Remove filter {i + 1}
          </button>
        </div>
      ))}
      <div className="row">
        <button type="button" className="secondary" onClick={() => setFilters((fs) => [...fs, { column: names[0] ?? '', operator: '_eq', value: '' }])}>
          Add filter
        </button>
        <Select label="Sort by" value={sortColumn} onChange={(e) => setSortColumn(e.target.value)} options={[{ value: '', label: '(none)' }, ...names]} />
        <Select label="Sort order" value={direction} onChange={(e) => setDirection(e.target.value as 'asc' | 'desc')} options={[{ value: 'asc', label: 'ascending' }, { value: 'desc', label: 'descending' }]} />
        <button type="submit">Run query</button>
      </div>
    </form>
  );
}
