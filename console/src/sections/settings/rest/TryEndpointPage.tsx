/**
 * Trying a REST endpoint, as the well-known console's endpoint page does: fill its URL
 * variables (and other variables as JSON: the query string of a GET, the body otherwise), send
 * the request to `/api/rest/<url>` with the admin headers and the request headers given (a
 * role, session variables), and show the JSON answer as it came.
 */
import { useState, type FormEvent } from 'react';
import { callRestEndpoint } from '../../../api/client';
import { useMetadata } from '../../../api/metadata';
import { Link } from '../../../app/router';
import { ErrorNote } from '../../../ui/ErrorNote';
import { Page, Select, TextArea, TextField } from '../../../ui/forms';
import { useAction } from '../../../ui/useAction';
import { PairRows, type Pair } from '../PairRows';
import { parseJson } from '../../../ui/jsonText';
import { endpointQuery, fillUrl, urlVariables } from './endpoints';

function readVariables(text: string): Record<string, unknown> {
  const value = parseJson(text || '{}', 'Other variables');
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('Other variables must be a JSON object.');
  return value as Record<string, unknown>;
}

const queryString = (variables: Record<string, unknown>): string => {
  const params = new URLSearchParams(Object.entries(variables).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
  const text = params.toString();
  return text ? `?${text}` : '';
};

export function TryEndpointPage({ name }: { name: string }) {
  const { metadata: m } = useMetadata();
  const endpoint = m?.rest_endpoints?.find((e) => e.name === name);
  const [method, setMethod] = useState<string | null>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const [others, setOthers] = useState('{}');
  const [headers, setHeaders] = useState<Pair[]>([]);
  const [answer, setAnswer] = useState<{ request: string; status: number; body: unknown } | null>(null);
  const chosen = method ?? endpoint?.methods[0] ?? 'GET';
  const sending = useAction(async () => {
    if (!endpoint) return;
    const variables = readVariables(others);
    const path = fillUrl(endpoint.url, values) + (chosen === 'GET' ? queryString(variables) : '');
    const sent = Object.fromEntries(headers.filter((h) => h.name.trim() !== '').map((h) => [h.name.trim(), h.value]));
    const r = await callRestEndpoint(chosen, path, chosen === 'GET' ? undefined : variables, sent);
    setAnswer({ request: `${chosen} ${path}`, ...r });
  });
  if (!m) return <p className="loading">Loading…</p>;
  if (!endpoint)
    return (
      <Page title={name}>
        <p>
          No REST endpoint is named {name}. <Link to="/settings/rest-endpoints">All endpoints</Link>
        </p>
      </Page>
    );
  const submit = (e: FormEvent) => (e.preventDefault(), void sending.run());
  return (
    <Page title={`REST endpoint ${endpoint.name}`} actions={<Link to="/settings/rest-endpoints">All endpoints</Link>}>
      <p>
        <code>/api/rest/{endpoint.url}</code> ({endpoint.methods.join(', ')})
      </p>
      <pre className="code" aria-label="Query of the endpoint">
        {endpointQuery(m, endpoint) ?? 'The query of this endpoint is missing from its collection.'}
      </pre>
      <form onSubmit={submit} aria-label="Try the endpoint">
        <h2>Try it</h2>
        <Select label="Method" value={chosen} options={endpoint.methods} onChange={(e) => setMethod(e.target.value)} />
        {urlVariables(endpoint.url).map((v) => (
          <TextField key={v} label={`URL variable ${v}`} value={values[v] ?? ''} onChange={(e) => setValues((vs) => ({ ...vs, [v]: e.target.value }))} />
        ))}
        <TextArea label="Other variables (JSON)" value={others} onChange={(e) => setOthers(e.target.value)} />
        <p className="hint">Sent with the admin secret; add x-service-role (and session variables) to run as a role.</p>
        <PairRows title="Request header" rows={headers} onChange={setHeaders} />
        <button type="submit" disabled={sending.busy}>
          Send request
        </button>
      </form>
      <ErrorNote error={sending.error} />
      {answer && (
        <div>
          <p role="status">
            {answer.request}: HTTP {answer.status}
          </p>
          <pre className="code" aria-label="Response">
            {JSON.stringify(answer.body, null, 2)}
          </pre>
        </div>
      )}
    </Page>
  );
}
