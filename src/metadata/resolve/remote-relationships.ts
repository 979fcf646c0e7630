/**
 * Remote relationships to remote schemas checked against the table and the remote (spec
 * "Remote relationship"): the columns of `lhs_fields` exist, the remote schema is consistent,
 * and each field of `remote_field` exists on the type the previous one gives (the query root
 * first) with the arguments it is given. Otherwise the relationship is inconsistent.
 */
import { getNamedType, isInterfaceType, isObjectType, type GraphQLField, type GraphQLInterfaceType, type GraphQLNamedType, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import type { Json } from '../../util/decode.js';
import { qualifiedKey } from '../../catalog/types.js';
import { showTable, sameTable } from '../names.js';
import { remoteFieldChain, storedToRemoteSchema, storedToSource, type ToRemoteSchema } from '../remote-relationships.js';
import type { JsonObject } from '../../util/decode.js';
import type { Metadata, TableMetadata } from '../types.js';
import type { Inconsistency, ResolvedMetadata, ResolvedTable } from './types.js';
import { entriesWith } from '../entries-with.js';

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

const noColumn = (c: string, t: ResolvedTable) => `column ${JSON.stringify(c)} does not exist in table ${JSON.stringify(showTable(t.name))}`;

function toRemoteSchemaProblem(rr: JsonObject, table: ResolvedTable, schemaOf: (remote: string) => GraphQLSchema | null): string | null {
  const to = storedToRemoteSchema(rr);
  if (!to) return null;
  const missing = to.lhs_fields.find((c) => !table.columns.has(c));
  if (missing) return noColumn(missing, table);
  const schema = schemaOf(to.remote_schema);
  return schema ? remoteFieldProblem(to, schema) : `remote schema ${JSON.stringify(to.remote_schema)} does not exist or is inconsistent`;
}

/** A `to_source` relationship: the target table is tracked and consistent, the mapped columns exist on both sides. */
function toSourceProblem(rr: JsonObject, table: ResolvedTable, resolved: ResolvedMetadata): string | null {
  const to = storedToSource(rr);
  if (!to) return null;
  const target = resolved.sources.get(to.source)?.tables.get(qualifiedKey(to.table));
  if (!target) return `table ${JSON.stringify(showTable(to.table))} in source ${JSON.stringify(to.source)} is not tracked or is inconsistent`;
  for (const [lhs, rhs] of Object.entries(to.field_mapping)) {
    if (!table.columns.has(lhs)) return noColumn(lhs, table);
    if (!target.columns.has(rhs)) return noColumn(rhs, target);
  }
  return null;
}

/** `schemaOf`: a consistent remote schema's schema, or null. */
export function remoteRelationshipInconsistencies(m: Metadata, resolved: ResolvedMetadata, schemaOf: (remote: string) => GraphQLSchema | null): Inconsistency[] {
  const out: Inconsistency[] = [];
  for (const src of m.sources) {
    const source = resolved.sources.get(src.name);
    for (const i of entriesWith(src.tables, 'remote_relationships')) {
      const entry = src.tables[i]!;
      for (const rr of entry.remote_relationships!) {
        const table = source?.tables.get(qualifiedKey(entry.table));
        // An inconsistent table is reported as such.
        if (!table) continue;
        const problem = toSourceProblem(rr, table, resolved) ?? toRemoteSchemaProblem(rr, table, schemaOf);
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
