/**
 * Invoking a trigger from the console (`enable_manual`): the table's rows, each with "Invoke",
 * which sends the row as the event's payload (`<kind>_invoke_event_trigger`), as the well-known
 * engine's console does from a row of the table.
 */
import { useState } from 'react';
import { ErrorNote } from '../../ui/ErrorNote';
import { useAction } from '../../ui/useAction';
import { useLoad } from '../../ui/useLoad';
import { invokeEventTrigger, tableRows, type TriggerAt } from './api';
import { RefreshBar } from './RefreshBar';

export function InvokeTab({ at }: { at: TriggerAt }) {
  const rows = useLoad(() => tableRows(at.source, at.table), [at.source, at.table.schema, at.table.name]);
  const [invoked, setInvoked] = useState<string | null>(null);
  const invoke = useAction(async (row: Record<string, unknown>) => {
    setInvoked(null);
    const r = await invokeEventTrigger(at, row);
    setInvoked(r.event_id);
  });
  const columns = rows.data?.[0] ? Object.keys(rows.data[0]) : [];
  return (
    <>
      <RefreshBar reload={rows.reload} loading={rows.loading} />
      <ErrorNote error={rows.error ?? invoke.error} />
      {invoked && (
        <p className="notice" role="status">
          Invoked: event {invoked}
        </p>
      )}
      {rows.data && rows.data.length === 0 && <p className="empty">The table has no rows.</p>}
      {rows.data && rows.data.length > 0 && (
        <table aria-label="Rows">
          <thead>
            <tr>
              <th>Invoke</th>
              {columns.map((c) => (
                <th key={c}>{c}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.data.map((row, i) => (
              // Rows need not have a key of their own: their place in this read is their identity.
              <tr key={i}>
                <td>
                  <button type="button" onClick={() => void invoke.run(row)} disabled={invoke.busy} aria-label={`Invoke on row ${i + 1}`}>
                    Invoke
                  </button>
                </td>
                {columns.map((c) => (
                  <td key={c}>{typeof row[c] === 'object' && row[c] !== null ? JSON.stringify(row[c]) : String(row[c] ?? 'NULL')}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
