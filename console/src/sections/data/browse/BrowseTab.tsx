/**
 * "Browse rows", as the well-known console's: the rows (`select` on `/v2/query`) under the
 * filters and sort of "Run query", a page at a time (10, 50 or 100 rows) with the total
 * (`count`), each row with "Edit" (an `update` of the changed columns) and "Delete" (a `delete`,
 * asked first). A row is found again by its primary key, or by all its columns without one.
 */
import { useState } from 'react';
import { query } from '../../../api/client';
import type { QualifiedTable } from '../../../api/metadata';
import { ErrorNote } from '../../../ui/ErrorNote';
import { Select } from '../../../ui/forms';
import { useLoad } from '../../../ui/useLoad';
import { WithColumns } from '../columns';
import type { Column } from '../../../api/catalog';
import { QueryControls } from './QueryControls';
import { RowsTable, type Row } from './RowsTable';
import { orderByOf, whereOf, type Filter, type Sort } from './where';

const PAGE_SIZES = ['10', '50', '100'];

function Rows({ source, table, columns }: { source: string; table: QualifiedTable; columns: Column[] }) {
  const [applied, setApplied] = useState<{ filters: Filter[]; sort: Sort | null }>({ filters: [], sort: null });
  const [pageSize, setPageSize] = useState(10);
  const [page, setPage] = useState(0);
  const rows = useLoad(async () => {
    const where = whereOf(applied.filters);
    const [data, count] = await Promise.all([
      query<Row[]>('select', { source, table, columns: columns.map((c) => c.name), where, order_by: orderByOf(applied.sort), limit: pageSize, offset: page * pageSize }),
      query<{ count: number }>('count', { source, table, where }),
    ]);
    return { data, count: count.count };
  }, [source, table.schema, table.name, applied, pageSize, page]);
  const total = rows.data?.count ?? 0;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <>
      <QueryControls columns={columns} onRun={(filters, sort) => (setApplied({ filters, sort }), setPage(0))} />
      <ErrorNote error={rows.error} />
      {rows.data && <RowsTable source={source} table={table} columns={columns} rows={rows.data.data} onChanged={rows.reload} />}
      <nav className="row pagination" aria-label="Pages">
        <button type="button" className="secondary" disabled={page === 0} onClick={() => setPage(page - 1)}>
          Previous
        </button>
        <span role="status">
          Page {page + 1} of {pages} ({total} rows)
        </span>
        <button type="button" className="secondary" disabled={page + 1 >= pages} onClick={() => setPage(page + 1)}>
          Next
        </button>
        <Select label="Rows per page" value={String(pageSize)} onChange={(e) => (setPageSize(Number(e.target.value)), setPage(0))} options={PAGE_SIZES} />
      </nav>
    </>
  );
}

export const BrowseTab = ({ source, table }: { source: string; table: QualifiedTable }) => (
  <WithColumns source={source} table={table}>
    {(columns) => <Rows source={source} table={table} columns={columns} />}
  </WithColumns>
);
