/**
 * "Modify", as the well-known console's: the table's name (`TableName`), the columns
 * (`ColumnsEditor`), the foreign keys (`ForeignKeys`), the GraphQL names (`Customization`),
 * "Set as enum" (`pg_set_table_is_enum`), the computed fields, "Untrack table"
 * (`pg_untrack_table`, cascading on request) and "Delete table" (`DROP` through `run_sql`, with
 * the metadata that depends on it: `cascade`).
 */
import { useState } from 'react';
import { navigate, pathOf } from '../../../app/router';
import { runSql } from '../../../api/client';
import { tableOf, useMetadata, type QualifiedTable } from '../../../api/metadata';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { ErrorNote } from '../../../ui/ErrorNote';
import { Checkbox } from '../../../ui/forms';
import { useAction } from '../../../ui/useAction';
import { relationKeyword, type Column } from '../../../api/catalog';
import { sqlTable } from '../../../api/sql';
import { WithColumns } from '../columns';
import { useMetadataChange } from '../../../ui/useMetadataChange';
import { ColumnsEditor } from './ColumnsEditor';
import { ComputedFields } from './ComputedFields';
import { Customization } from './Customization';
import { ForeignKeys } from './ForeignKeys';
import { TableName } from './TableName';

function Modify({ source, table, columns, onColumnsChanged }: { source: string; table: QualifiedTable; columns: Column[]; onColumnsChanged: () => Promise<void> }) {
  const { metadata, refresh } = useMetadata();
  const entry = tableOf(metadata, source, table);
  const [cascade, setCascade] = useState(false);
  const schemaPath = pathOf('data', source, 'schema', table.schema);
  const setEnum = useMetadataChange({ source, table });
  const untrack = useMetadataChange({ source, table });
  const drop = useAction(async () => {
    await runSql(`DROP ${await relationKeyword(source, table)} ${sqlTable(table)}`, { source, cascade: true });
    await refresh();
    navigate(schemaPath);
  });
  return (
    <>
      <TableName source={source} table={table} />
      <ColumnsEditor source={source} table={table} columns={columns} onChanged={onColumnsChanged} />
      <ForeignKeys source={source} table={table} columns={columns.map((c) => c.name)} />
      {entry ? (
        <>
          <Customization source={source} table={table} entry={entry} columns={columns} />
          <h3>Enum</h3>
          <Checkbox label="Set as enum" checked={entry.is_enum === true} disabled={setEnum.busy} onChange={(e) => void setEnum.run('pg_set_table_is_enum', { is_enum: e.target.checked })} />
          <ErrorNote error={setEnum.error} />
          <ComputedFields source={source} table={table} entry={entry} />
          <h3>Untrack or delete</h3>
          <div className="row">
            <ConfirmButton label="Untrack table" question={`Untrack ${table.name}?`} busy={untrack.busy} onConfirm={async () => (await untrack.run('pg_untrack_table', { cascade })) && navigate(schemaPath)}>
              <Checkbox label="Cascade" checked={cascade} onChange={(e) => setCascade(e.target.checked)} />
            </ConfirmButton>
            <ConfirmButton label="Delete table" question={`Delete ${table.name} and its rows for good?`} busy={drop.busy} onConfirm={() => drop.run()} />
          </div>
          <ErrorNote error={untrack.error} />
          <ErrorNote error={drop.error} />
        </>
      ) : (
        <p>This table is not tracked.</p>
      )}
    </>
  );
}

export const ModifyTab = ({ source, table }: { source: string; table: QualifiedTable }) => (
  <WithColumns source={source} table={table}>
    {(columns, reload) => <Modify source={source} table={table} columns={columns} onColumnsChanged={reload} />}
  </WithColumns>
);
