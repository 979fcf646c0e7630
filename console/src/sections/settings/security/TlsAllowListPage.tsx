/**
 * The TLS allow-list (`network.tls_allowlist`): hosts (and a port, as `suffix`) whose HTTPS
 * certificates are accepted even when self-signed, for webhooks, actions and remote schemas
 * (`add_host_to_tls_allowlist`, `drop_host_from_tls_allowlist`).
 */
import { useState, type FormEvent } from 'react';
import { metadata } from '../../../api/client';
import { useMetadata } from '../../../api/metadata';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { ErrorNote } from '../../../ui/ErrorNote';
import { Page, TextField } from '../../../ui/forms';
import { useAction } from '../../../ui/useAction';
import { useMetadataChange } from '../../../ui/useMetadataChange';

interface TlsEntry {
  host: string;
  suffix?: string;
  permissions?: string[];
}

const entriesOf = (network: unknown): TlsEntry[] => {
  const list = (network as { tls_allowlist?: (TlsEntry | string)[] } | undefined)?.tls_allowlist ?? [];
  // An entry may be stored as the host name alone.
  return list.map((e) => (typeof e === 'string' ? { host: e } : e));
};

export function TlsAllowListPage() {
  const { metadata: m, refresh } = useMetadata();
  const [host, setHost] = useState('');
  const [suffix, setSuffix] = useState('');
  const change = useMetadataChange();
  const adding = useAction(async () => {
    await metadata('add_host_to_tls_allowlist', { host, ...(suffix ? { suffix } : {}), permissions: ['self-signed'] });
    await refresh();
    setHost('');
    setSuffix('');
  });
  const add = (e: FormEvent) => (e.preventDefault(), void adding.run());
  const entries = entriesOf(m?.network);
  return (
    <Page title="TLS allow-list">
      <p>HTTPS calls the engine makes (webhooks, actions, remote schemas) to these hosts accept a self-signed certificate.</p>
      <ErrorNote error={change.error} />
      {m && entries.length === 0 && <p>No host is on the TLS allow-list.</p>}
      {entries.length > 0 && (
        <table aria-label="TLS allow-list">
          <thead>
            <tr>
              <th>Host</th>
              <th>Suffix</th>
              <th>Permissions</th>
              <th>Actions</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={`${e.host}:${e.suffix ?? ''}`}>
                <td>{e.host}</td>
                <td>{e.suffix ?? ''}</td>
                <td>{(e.permissions ?? ['self-signed']).join(', ')}</td>
                <td>
                  <ConfirmButton label="Remove" question={`Remove ${e.host}${e.suffix ? ` (${e.suffix})` : ''}?`} busy={change.busy} onConfirm={() => change.run('drop_host_from_tls_allowlist', { host: e.host, ...(e.suffix ? { suffix: e.suffix } : {}) })} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form onSubmit={add} aria-label="Add a host">
        <h2>Add a host</h2>
        <TextField label="Host" placeholder="webhooks.internal" value={host} required onChange={(e) => setHost(e.target.value)} />
        <TextField label="Suffix (optional: a port)" placeholder="8443" value={suffix} onChange={(e) => setSuffix(e.target.value)} />
        <button type="submit" disabled={adding.busy}>
          Add host
        </button>
        <ErrorNote error={adding.error} />
      </form>
    </Page>
  );
}
