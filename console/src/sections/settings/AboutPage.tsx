/** The engine's version (`/v1/version`) and the settings it runs with (`/v1alpha1/config`, admin only). */
import { get } from '../../api/client';
import { ErrorNote } from '../../ui/ErrorNote';
import { Page } from '../../ui/forms';
import { useLoad } from '../../ui/useLoad';

const shown = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

export function AboutPage() {
  const version = useLoad(() => get<{ version: string }>('/v1/version'), []);
  const config = useLoad(() => get<Record<string, unknown>>('/v1alpha1/config'), []);
  return (
    <Page title="About">
      <ErrorNote error={version.error} />
      {version.data && (
        <p>
          Engine version: <strong>{version.data.version}</strong>
        </p>
      )}
      <h2>Configuration</h2>
      <ErrorNote error={config.error} />
      {config.data && (
        <table aria-label="Configuration">
          <tbody>
            {Object.entries(config.data).map(([key, value]) => (
              <tr key={key}>
                <th scope="row">{key}</th>
                <td>
                  <code>{shown(value)}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Page>
  );
}
