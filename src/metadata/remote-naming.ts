/**
 * The names a remote schema's `customization` gives its types and fields (spec "Remote
 * schema": `type_names` prefix/suffix/mapping, `field_names` per parent type). A mapping
 * wins over prefix and suffix. Built-in scalars and introspection types keep their names, as
 * in the well-known engine. The remote's own names stay on the wire (compiler/remote.ts maps back).
 */
import type { RemoteCustomization } from './remote-schemas.js';

const BUILT_IN = new Set(['Int', 'Float', 'String', 'Boolean', 'ID']);

export interface RemoteNaming {
  typeName(name: string): string;
  /** `parent` is the remote's own name of the type the field is on. */
  fieldName(parent: string, name: string): string;
  namespace: string | null;
  /** The namespace field's type on a root (`query`, `mutation_frontend`): `<namespace>_query`, uncustomized. */
  namespaceType(rootSuffix: string): string;
}

export function remoteNaming(c: RemoteCustomization | undefined): RemoteNaming {
  const types = c?.type_names;
  const fields = new Map((c?.field_names ?? []).map((f) => [f.parent_type, f]));
  return {
    typeName: (name) => {
      if (BUILT_IN.has(name) || name.startsWith('__')) return name;
      const mapped = types?.mapping?.[name];
      return mapped ?? `${types?.prefix ?? ''}${name}${types?.suffix ?? ''}`;
    },
    fieldName: (parent, name) => {
      const f = fields.get(parent);
      if (!f || name.startsWith('__')) return name;
      return f.mapping?.[name] ?? `${f.prefix ?? ''}${name}${f.suffix ?? ''}`;
    },
    namespace: c?.root_fields_namespace ?? null,
    namespaceType: (rootSuffix) => `${c?.root_fields_namespace}_${rootSuffix}`,
  };
}
