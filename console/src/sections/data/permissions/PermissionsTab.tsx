/** A table's permissions: the role × action grid and the editor (to be built). */
import type { QualifiedTable } from '../../../api/metadata';

export function PermissionsTab(_props: { source: string; table: QualifiedTable }) {
  return <p>Not built yet.</p>;
}
