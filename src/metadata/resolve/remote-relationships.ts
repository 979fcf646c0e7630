/**
 * Remote relationships to remote schemas checked against the table and the remote (spec
 * "Remote relationship"): the columns of `lhs_fields` exist, the remote schema is consistent,
 * and each field of `remote_field` exists on the type the previous one gives (the query root
 * first) with the arguments it is given. Otherwise the relationship is inconsistent.
 */
import { getNamedType, isInterfaceType, isObjectType, type GraphQLField, type GraphQLInterfaceType, type GraphQLNamedType, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import type { Json } from '../../util/decode.js';
import { qualifiedKey } from '../catalog.js';
import { showTable, sameTable } from '../names.js';
import { remoteFieldChain, storedToRemoteSchema, type ToRemoteSchema } from '../remote-relationships.js';
import type { Metadata, TableMetadata } from '../types.js';
import type { Inconsistency, ResolvedMetadata } from './types.js';

export const remoteRelationshipObjectName = (name: string, table: TableMetadata['table'], source: string) => `remote_relationship ${name} of ${showTable(table)} in source ${source}`;

/** The remote field chain's problem, or null. */
export function remoteFieldProblem(to: ToRemoteSchema, schema: GraphQLSchema): string | null {
  let type: GraphQLObjectType | GraphQLInterfaceType | null | undefined = schema.getQueryType();
  let chain;
  try {
    chain = remoteFieldChain(to.remote_field, '$');
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  for (const step of chain) {
    if (!type) return `field ${JSON.stringify(step.field)} cannot be selected: the previous field is not of an object type`;
    const f: GraphQLField<unknown, unknown> | undefined = type.getFields()[step.field];
    if (!f) return `field ${JSON.stringify(step.field)} does not exist in type ${JSON.stringify(type.name)} of remote schema ${JSON.stringify(to.remote_schema)}`;
    for (const a of Object.keys(step.arguments)) if (!f.args.some((x) => x.name === a)) return `argument ${JSON.stringify(a)} does not exist in field ${type.name}.${f.name} of remote schema ${JSON.stringify(to.remote_schema)}`;
    const next: GraphQLNamedType = getNamedType(f.type);
    type = isObjectType(next) || isInterfaceType(next) ? next : null;
  }
  return null;
}

/** `schemaOf`: a consistent remote schema's schema, or null. */
export function remoteRelationshipInconsistencies(m: Metadata, resolved: ResolvedMetadata, schemaOf: (remote: string) => GraphQLSchema | null): Inconsistency[] {
  const out: Inconsistency[] = [];
  for (const src of m.sources) {
    const source = resolved.sources.get(src.name);
    for (const entry of src.tables) {
      for (const rr of entry.remote_relationships ?? []) {
        const to = storedToRemoteSchema(rr);
        if (!to) continue;
        const table = source?.tables.get(qualifiedKey(entry.table));
        // An inconsistent table is reported as such.
        if (!table) continue;
        const missing = to.lhs_fields.find((c) => !table.columns.has(c));
        const schema = schemaOf(to.remote_schema);
        const problem = missing
          ? `column ${JSON.stringify(missing)} does not exist in table ${JSON.stringify(showTable(entry.table))}`
          : !schema
            ? `remote schema ${JSON.stringify(to.remote_schema)} does not exist or is inconsistent`
            : remoteFieldProblem(to, schema);
        if (!problem) continue;
        const name = String(rr.name);
        const owner = entry.table;
        out.push({
          object: {
            type: 'remote_relationship',
            name: remoteRelationshipObjectName(name, owner, src.name),
            definition: { ...rr, source: src.name, table: owner as unknown as Json },
            reason: `Inconsistent object: remote relationship ${JSON.stringify(name)}: ${problem}`,
          },
          remove: (d) => {
            const t = d.sources.find((s) => s.name === src.name)?.tables.find((x) => sameTable(x.table, owner));
            if (!t?.remote_relationships) return;
            const left = t.remote_relationships.filter((x) => x.name !== name);
            if (left.length) t.remote_relationships = left;
            else delete t.remote_relationships;
          },
        });
      }
    }
  }
  return out;
}
