/**
 * The well-known console's "Analyze": the SQL the engine generates for the query in the editor
 * and PostgreSQL's plan of it (`/v1/graphql/explain`), run as the role and session variables of
 * the request headers (the explain call itself is an admin one).
 */
import { explain, type Explained } from '../../api/client';
import { ErrorNote } from '../../ui/ErrorNote';
import { useLoad } from '../../ui/useLoad';
import type { GraphQLRequest } from './currentRequest';
import { Dialog } from './Dialog';

const entriesOf = (answer: Explained[] | Explained): Explained[] => (Array.isArray(answer) ? answer : [answer]);

export function ExplainDialog({ request, session, onClose }: { request: GraphQLRequest; session: Record<string, string>; onClose: () => void }) {
  const { data, error, loading } = useLoad(
    async () => entriesOf(await explain({ query: request, ...(Object.keys(session).length > 0 ? { user: session } : {}) })),
    [request, session],
  );
  return (
    <Dialog title="Explain" onClose={onClose}>
      {loading && <p className="loading">Explaining…</p>}
      <ErrorNote error={error} />
      {data?.map((entry, i) => (
        <section key={entry.field ?? i} aria-label={`Explained ${entry.field ?? 'subscription'}`}>
          {entry.field && <h3>{entry.field}</h3>}
          <h4>Generated SQL</h4>
          <pre className="code">{entry.sql}</pre>
          <h4>Execution plan</h4>
          <pre className="code">{entry.plan.join('\n')}</pre>
        </section>
      ))}
      {data?.length === 0 && <p>Nothing to explain: the query selects no database field.</p>}
    </Dialog>
  );
}
