/**
 * "Relationships", as the well-known console's: the table's relationships, the ones its foreign
 * keys suggest (both ways, each to "Add" with `foreign_key_constraint_on`), a manual form, and
 * the remote relationships.
 */
import { sameTable, shownTable, tableOf, useMetadata, type QualifiedTable } from '../../../api/metadata';
import { ErrorNote } from '../../../ui/ErrorNote';
import { useLoad } from '../../../ui/useLoad';
import { readColumnNames, readForeignKeys } from '../../../api/catalog';
import { ExistingRelationships } from './ExistingRelationships';
import { ManualRelationshipForm } from './ManualRelationshipForm';
import { RemoteRelationships } from './RemoteRelationships';
import { useMetadataChange } from '../../../ui/useMetadataChange';
import { addSuggestion, suggestRelationships } from './suggestions';

export function RelationshipsTab({ source, table }: { source: string; table: QualifiedTable }) {
  const { metadata } = useMetadata();
  const entry = tableOf(metadata, source, table);
  const catalog = useLoad(async () => {
    const [fks, columns] = await Promise.all([readForeignKeys(source), readColumnNames(source)]);
    return { fks, columns };
  }, [source]);
  const add = useMetadataChange({});
  if (!entry) return <p>This table is not tracked.</p>;
  const suggestions = catalog.data ? suggestRelationships(metadata, source, catalog.data.fks, catalog.data.columns, table) : [];
  const columns = catalog.data?.columns.find((c) => sameTable(c.table, table))?.columns ?? [];
  return (
    <>
      <h3>Relationships</h3>
      <ExistingRelationships source={source} table={table} entry={entry} />
      <ErrorNote error={catalog.error} />
      {suggestions.length > 0 && (
        <section aria-label="Suggested relationships">
          <h3>Suggested from foreign keys</h3>
          <table>
            <tbody>
              {suggestions.map((s) => (
                <tr key={s.name}>
                  <td>{s.kind}</td>
                  <td>{s.name}</td>
                  <td>
                    {shownTable(s.table)} → {shownTable(s.to)} ({s.mapping.map(([a, b]) => `${a} → ${b}`).join(', ')})
                  </td>
                  <td>
                    <button type="button" disabled={add.busy} aria-label={`Add ${s.name}`} onClick={() => {
                        const call = addSuggestion(source, s);
                        void add.run(call.type, call.args);
                      }}>
                      Add
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <ErrorNote error={add.error} />
        </section>
      )}
      <ManualRelationshipForm source={source} table={table} columns={columns} />
      <RemoteRelationships source={source} table={table} entry={entry} columns={columns} />
    </>
  );
}
