/**
 * The request headers above GraphiQL, as in the well-known console: one row per header, each
 * with a checkbox saying whether it is sent. The admin secret's value is masked; the role field
 * left empty runs the request as admin; session variables are `x-service-*` name/value rows.
 */
import { ADMIN_SECRET_HEADER } from '../../api/client';
import { storedSecret } from '../../api/session';
import { ROLE_HEADER, variableNameProblem, type RequestSettings, type SessionVariable } from './requestHeaders';

export function HeadersPanel({ settings, onChange }: { settings: RequestSettings; onChange: (settings: RequestSettings) => void }) {
  const hasSecret = !!storedSecret();
  const setVariable = (id: number, change: Partial<SessionVariable>) => onChange({ ...settings, variables: settings.variables.map((v) => (v.id === id ? { ...v, ...change } : v)) });
  const addVariable = () => onChange({ ...settings, variables: [...settings.variables, { id: Math.max(0, ...settings.variables.map((v) => v.id + 1)), enabled: true, name: 'x-service-', value: '' }] });
  return (
    <details className="request-headers" open>
      <summary>Request headers</summary>
      <table>
        <thead>
          <tr>
            <th scope="col">Send</th>
            <th scope="col">Key</th>
            <th scope="col">Value</th>
            <th scope="col">
              <span className="visually-hidden">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {hasSecret && (
            <tr>
              <td>
                <input type="checkbox" aria-label={`Send ${ADMIN_SECRET_HEADER}`} checked={settings.sendSecret} onChange={(e) => onChange({ ...settings, sendSecret: e.target.checked })} />
              </td>
              <td className="header-key">{ADMIN_SECRET_HEADER}</td>
              <td>
                <span aria-label="Admin secret (hidden)">••••••••</span>
              </td>
              <td />
            </tr>
          )}
          <tr>
            <td>
              <input type="checkbox" aria-label={`Send ${ROLE_HEADER}`} checked={settings.sendRole} onChange={(e) => onChange({ ...settings, sendRole: e.target.checked })} />
            </td>
            <td className="header-key">{ROLE_HEADER}</td>
            <td>
              <input aria-label="Role" placeholder="admin" value={settings.role} onChange={(e) => onChange({ ...settings, role: e.target.value })} />
            </td>
            <td />
          </tr>
          {settings.variables.map((v, i) => (
            <VariableRow key={v.id} n={i + 1} variable={v} onChange={(change) => setVariable(v.id, change)} onRemove={() => onChange({ ...settings, variables: settings.variables.filter((w) => w.id !== v.id) })} />
          ))}
        </tbody>
      </table>
      <button type="button" className="secondary" onClick={addVariable}>
        Add session variable
      </button>
    </details>
  );
}

function VariableRow({ n, variable, onChange, onRemove }: { n: number; variable: SessionVariable; onChange: (change: Partial<SessionVariable>) => void; onRemove: () => void }) {
  const problem = variableNameProblem(variable.name);
  const problemId = `explorer-variable-${variable.id}-problem`;
  return (
    <tr>
      <td>
        <input type="checkbox" aria-label={`Send session variable ${n}`} checked={variable.enabled} onChange={(e) => onChange({ enabled: e.target.checked })} />
      </td>
      <td>
        <input aria-label={`Session variable ${n} name`} value={variable.name} aria-invalid={problem !== null} aria-describedby={problem ? problemId : undefined} onChange={(e) => onChange({ name: e.target.value })} />
        {problem && (
          <div id={problemId} className="field-problem">
            {problem}: not sent
          </div>
        )}
      </td>
      <td>
        <input aria-label={`Session variable ${n} value`} value={variable.value} onChange={(e) => onChange({ value: e.target.value })} />
      </td>
      <td>
        <button type="button" className="danger" aria-label={`Remove session variable ${n}`} onClick={onRemove}>
          Remove
        </button>
      </td>
    </tr>
  );
}
