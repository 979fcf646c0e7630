/**
 * A PostgreSQL source's connection settings, as the well-known console's "Connect Database"
 * form asks them: a database URL or the name of the environment variable holding it, and the
 * pool's maximum connections and idle timeout. Editing keeps the settings the form does not show.
 */
import { useState, type FormEvent } from 'react';
import { Select, TextField } from '../../../ui/forms';

type Configuration = Record<string, unknown> & { connection_info?: Record<string, unknown> & { database_url?: unknown; pool_settings?: Record<string, unknown> } };

export interface SourceSettings {
  name: string;
  configuration: Configuration;
}

const fromEnvOf = (url: unknown): string | null => (url && typeof url === 'object' && typeof (url as { from_env?: unknown }).from_env === 'string' ? (url as { from_env: string }).from_env : null);

export function SourceForm({ initial, submitLabel, onSubmit, busy }: { initial?: SourceSettings; submitLabel: string; onSubmit: (s: SourceSettings) => unknown; busy: boolean }) {
  const info = initial?.configuration.connection_info ?? {};
  const env = fromEnvOf(info.database_url);
  const pool = info.pool_settings ?? {};
  const [name, setName] = useState(initial?.name ?? '');
  const [via, setVia] = useState(env !== null ? 'env' : 'url');
  const [url, setUrl] = useState(env ?? (typeof info.database_url === 'string' ? info.database_url : ''));
  const [max, setMax] = useState(pool.max_connections === undefined ? '' : String(pool.max_connections));
  const [idle, setIdle] = useState(pool.idle_timeout === undefined ? '' : String(pool.idle_timeout));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const poolSettings: Record<string, unknown> = { ...pool };
    for (const [key, value] of [['max_connections', max], ['idle_timeout', idle]] as const) {
      if (value.trim() === '') delete poolSettings[key];
      else poolSettings[key] = Number(value);
    }
    const connectionInfo: Record<string, unknown> = { ...info, database_url: via === 'env' ? { from_env: url.trim() } : url.trim() };
    if (Object.keys(poolSettings).length > 0) connectionInfo.pool_settings = poolSettings;
    else delete connectionInfo.pool_settings;
    void onSubmit({ name: name.trim(), configuration: { ...initial?.configuration, connection_info: connectionInfo } });
  };
  return (
    <form onSubmit={submit} aria-label={initial ? `Connection settings of ${initial.name}` : 'Connect a database'}>
      {!initial && <TextField label="Database name" value={name} onChange={(e) => setName(e.target.value)} required />}
      <Select label="Connect database via" value={via} onChange={(e) => setVia(e.target.value)} options={[{ value: 'url', label: 'Database URL' }, { value: 'env', label: 'Environment variable' }]} />
      <TextField label={via === 'env' ? 'Environment variable' : 'Database URL'} value={url} onChange={(e) => setUrl(e.target.value)} placeholder={via === 'env' ? 'PG_DATABASE_URL' : 'postgres://user:password@host:5432/database'} required />
      <div className="row">
        <TextField label="Max connections" type="number" min={1} value={max} onChange={(e) => setMax(e.target.value)} />
        <TextField label="Idle timeout (seconds)" type="number" min={0} value={idle} onChange={(e) => setIdle(e.target.value)} />
      </div>
      <button type="submit" disabled={busy}>
        {submitLabel}
      </button>
    </form>
  );
}
