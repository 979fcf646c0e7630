/**
 * The table's foreign keys, as the well-known console's "Modify" shows them: each to remove
 * (`ALTER TABLE … DROP CONSTRAINT`, the relationships built on it cascaded on request), and a
 * form to add one (`ALTER TABLE … ADD FOREIGN KEY … REFERENCES … ON UPDATE … ON DELETE …`).
 */
import { useState, type FormEvent } from 'react';
import { runSql } from '../../../api/client';
import { sameTable, shownTable, useMetadata, type QualifiedTable } from '../../../api/metadata';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { ErrorNote } from '../../../ui/ErrorNote';
import { Checkbox, Select } from '../../../ui/forms';
import { useAction } from '../../../ui/useAction';
import { useLoad } from '../../../ui/useLoad';
import { readColumns, readForeignKeys, type ForeignKey } from '../../../api/catalog';
import { sqlIdent, sqlTable } from '../../../api/sql';
import { ColumnMapping, type Pair } from '../relationships/ColumnMapping';
import { tableByKey, tableOptions, trackedTables } from '../relationships/tableChoice';

const ACTIONS = ['restrict', 'no action', 'cascade', 'set null', 'set default'];

function ForeignKeyRow({ source, table, fk, onChanged }: { source: string; table: QualifiedTable; fk: ForeignKey; onChanged: () => Promise<void> }) {
  const [cascade, setCascade] = useState(false);
  const drop = useAction(async () => {
    await runSql(`ALTER TABLE ${sqlTable(table)} DROP CONSTRAINT ${sqlIdent(fk.constraint)}`, { source, cascade });
    await onChanged();
  });
  return (
    <li className="row">
      <span>
        <strong>{fk.constraint}</strong>: ({fk.columns.join(', ')}) → {shownTable(fk.ref)} ({fk.refColumns.join(', ')})
      </span>
      <ConfirmButton label={`Remove ${fk.constraint}`} question={`Remove the foreign key ${fk.constraint}?`} confirmLabel="Yes, remove foreign key" busy={drop.busy} onConfirm={() => drop.run()}>
        <Checkbox label="Cascade metadata" checked={cascade} onChange={(e) => setCascade(e.target.checked)} />
      </ConfirmButton>
      <ErrorNote error={drop.error} />
    </li>
  );
}

export function ForeignKeys({ source, table, columns }: { source: string; table: QualifiedTable; columns: string[] }) {
  const { metadata, refresh } = useMetadata();
  const fks = useLoad(async () => (await readForeignKeys(source)).filter((fk) => sameTable(fk.table, table)), [source, table.schema, table.name]);
  const tables = trackedTables(metadata, source);
  const [ref, setRef] = useState('');
  const [pairs, setPairs] = useState<Pair[]>([['', '']]);
  const [onUpdate, setOnUpdate] = useState('restrict');
  const [onDelete, setOnDelete] = useState('restrict');
  const refTable = tableByKey(tables, ref);
  const refColumns = useLoad(async () => (refTable ? (await readColumns(source, refTable)).map((c) => c.name) : []), [source, ref]);
  const changed = async () => {
    await Promise.all([fks.reload(), refresh()]);
  };
  const add = useAction(async () => {
    if (!refTable) return;
    const used = pairs.filter(([a, b]) => a && b);
    const list = (names: string[]) => names.map(sqlIdent).join(', ');
    await runSql(
      `ALTER TABLE ${sqlTable(table)} ADD FOREIGN KEY (${list(used.map(([a]) => a))}) REFERENCES ${sqlTable(refTable)} (${list(used.map(([, b]) => b))}) ON UPDATE ${onUpdate.toUpperCase()} ON DELETE ${onDelete.toUpperCase()}`,
      { source },
    );
    setRef('');
    setPairs([['', '']]);
    await changed();
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void add.run();
  };
  return (
    <section aria-label="Foreign keys">
      <h3>Foreign keys</h3>
      <ErrorNote error={fks.error} />
      <ul>
        {fks.data?.map((fk) => (
          <ForeignKeyRow key={fk.constraint} source={source} table={table} fk={fk} onChanged={changed} />
        ))}
      </ul>
      <form onSubmit={submit} aria-label="Add a foreign key">
        <div className="row">
          <Select label="Reference table" value={ref} onChange={(e) => setRef(e.target.value)} options={tableOptions(tables)} required />
          <Select label="On update" value={onUpdate} onChange={(e) => setOnUpdate(e.target.value)} options={ACTIONS} />
          <Select label="On delete" value={onDelete} onChange={(e) => setOnDelete(e.target.value)} options={ACTIONS} />
        </div>
        <ColumnMapping from={columns} to={refColumns.data ?? []} pairs={pairs} onChange={setPairs} />
        <button type="submit" disabled={add.busy}>
          Add foreign key
        </button>
      </form>
      <ErrorNote error={add.error} />
    </section>
  );
}
