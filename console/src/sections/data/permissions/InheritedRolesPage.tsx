/** Inherited roles (`add_inherited_role`, `drop_inherited_role`): to be built. */
import { Page } from '../../../ui/forms';

export function InheritedRolesPage() {
  return (
    <Page title="Inherited roles">
      <p>Not built yet.</p>
    </Page>
  );
}
