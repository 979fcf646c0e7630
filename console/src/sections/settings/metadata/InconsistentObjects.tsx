/** Inconsistent objects as the engine reports them: type, name, reason, and the definition on demand. */

export interface InconsistentObject {
  type: string;
  name?: string;
  reason: string;
  definition: unknown;
}

/** The engine's `internal` detail of a refused `replace_metadata`, when it is a list of inconsistent objects. */
export const inconsistentObjectsOf = (internal: unknown): InconsistentObject[] =>
  Array.isArray(internal) ? internal.filter((o): o is InconsistentObject => typeof o === 'object' && o !== null && 'reason' in o && 'type' in o) : [];

export function InconsistentObjectsTable({ label, objects }: { label: string; objects: InconsistentObject[] }) {
  return (
    <table aria-label={label}>
      <thead>
        <tr>
          <th>Type</th>
          <th>Name</th>
          <th>Reason</th>
          <th>Definition</th>
        </tr>
      </thead>
      <tbody>
        {objects.map((o, i) => (
          // Two objects may share a type and a name (one per reason): the position tells them apart.
          <tr key={`${i}-${o.type}-${o.name ?? ''}`}>
            <td>{o.type}</td>
            <td>{o.name ?? ''}</td>
            <td>{o.reason}</td>
            <td>
              <details>
                <summary>Definition</summary>
                <pre className="code">{JSON.stringify(o.definition, null, 2)}</pre>
              </details>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
