/**
 * The remote's types and their fields as the server describes them (its own names, before
 * customization), read with `introspect_remote_schema`; the whole schema as SDL below.
 */
import { useState } from 'react';
import { isEnumType, isInputObjectType, isInterfaceType, isObjectType, isUnionType, type GraphQLNamedType } from 'graphql';
import { ErrorNote } from '../../ui/ErrorNote';
import { TextField } from '../../ui/forms';
import { useLoad } from '../../ui/useLoad';
import { remoteSchemaOf, sdlOf } from './introspection';

function kindOf(t: GraphQLNamedType): string {
  if (isObjectType(t)) return 'type';
  if (isInputObjectType(t)) return 'input';
  if (isEnumType(t)) return 'enum';
  if (isInterfaceType(t)) return 'interface';
  if (isUnionType(t)) return 'union';
  return 'scalar';
}

/** A type's members, one line each: `field(arg: T): T`, an input field, an enum value or a union member. */
function membersOf(t: GraphQLNamedType): string[] {
  if (isObjectType(t) || isInterfaceType(t))
    return Object.values(t.getFields()).map((f) => `${f.name}${f.args.length ? `(${f.args.map((a) => `${a.name}: ${a.type.toString()}`).join(', ')})` : ''}: ${f.type.toString()}`);
  if (isInputObjectType(t)) return Object.values(t.getFields()).map((f) => `${f.name}: ${f.type.toString()}`);
  if (isEnumType(t)) return t.getValues().map((v) => v.name);
  if (isUnionType(t)) return t.getTypes().map((m) => m.name);
  return [];
}

export function BrowseTypesTab({ name }: { name: string }) {
  const { data: schema, error, loading } = useLoad(() => remoteSchemaOf(name), [name]);
  const [filter, setFilter] = useState('');
  if (loading) return <p className="loading">Introspecting…</p>;
  if (!schema) return <ErrorNote error={error} />;
  const roots = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].filter(Boolean).map((t) => t!.name));
  const types = Object.values(schema.getTypeMap())
    .filter((t) => !t.name.startsWith('__') && t.name.toLowerCase().includes(filter.toLowerCase()))
    .sort((a, b) => Number(roots.has(b.name)) - Number(roots.has(a.name)) || a.name.localeCompare(b.name));
  return (
    <>
      <TextField label="Filter types" type="search" value={filter} onChange={(e) => setFilter(e.target.value)} />
      <ul className="type-list" aria-label="Types">
        {types.map((t) => (
          <li key={t.name}>
            <h3>
              <span className="muted">{kindOf(t)}</span> {t.name}
              {roots.has(t.name) && <span className="muted"> (root)</span>}
            </h3>
            {t.description && <p className="muted">{t.description}</p>}
            <ul>
              {membersOf(t).map((m) => (
                <li key={m}>
                  <code>{m}</code>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
      <details>
        <summary>The schema as SDL</summary>
        <pre className="code" aria-label="Schema SDL">
          {sdlOf(schema)}
        </pre>
      </details>
    </>
  );
}
