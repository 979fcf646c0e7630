/**
 * A log read a page at a time (a trigger's events, invocation logs), as the well-known engine's
 * console shows them all: "Refresh", the failure if any, the rows, and the pager.
 */
import { useState, type DependencyList, type ReactNode } from 'react';
import { ErrorNote } from '../../ui/ErrorNote';
import { useLoad } from '../../ui/useLoad';
import type { Invocation } from './api';
import { InvocationsTable } from './LogTables';
import { Pager } from './Pager';
import { RefreshBar } from './RefreshBar';

/** Page `page` of a log, read again when `deps` or the page change. */
export function usePagedLog<T>(load: (page: number) => Promise<T[]>, deps: DependencyList) {
  const [page, setPage] = useState(0);
  const rows = useLoad(() => load(page), [...deps, page]);
  return { ...rows, page, setPage };
}

type PagedLogState<T> = ReturnType<typeof usePagedLog<T>>;

/** `error`: a failure of what the rows' buttons did, shown with the log's own. */
export function PagedLog<T>({ log, error, children }: { log: PagedLogState<T>; error?: unknown; children: (rows: T[]) => ReactNode }) {
  return (
    <>
      <RefreshBar reload={log.reload} loading={log.loading} />
      <ErrorNote error={log.error ?? error} />
      {log.data && (
        <>
          {children(log.data)}
          <Pager page={log.page} setPage={log.setPage} shown={log.data.length} />
        </>
      )}
    </>
  );
}

/** The "Invocation logs" tab of any trigger. */
export function InvocationLogsTab({ load, deps }: { load: (page: number) => Promise<Invocation[]>; deps: DependencyList }) {
  const logs = usePagedLog(load, deps);
  return <PagedLog log={logs}>{(rows) => <InvocationsTable invocations={rows} />}</PagedLog>;
}
