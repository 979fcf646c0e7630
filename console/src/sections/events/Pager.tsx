/** Moving between the pages of a list of events or invocations (`PAGE` rows each, the first page first). */
import { PAGE } from './api';

/** `shown`: how many rows the page has (a full page may have a next one). */
export function Pager({ page, setPage, shown }: { page: number; setPage: (page: number) => void; shown: number }) {
  if (page === 0 && shown < PAGE) return null;
  return (
    <nav className="row pager" aria-label="Pages">
      <button type="button" className="secondary" disabled={page === 0} onClick={() => setPage(page - 1)}>
        Previous page
      </button>
      <span>Page {page + 1}</span>
      <button type="button" className="secondary" disabled={shown < PAGE} onClick={() => setPage(page + 1)}>
        Next page
      </button>
    </nav>
  );
}
