/** A remote schema's own schema (before customization), from `introspect_remote_schema`. */
import { buildClientSchema, printSchema, type GraphQLSchema, type IntrospectionQuery } from 'graphql';
import { metadata as callMetadata } from '../../api/client';

export async function remoteSchemaOf(name: string): Promise<GraphQLSchema> {
  const r = await callMetadata<{ data: IntrospectionQuery }>('introspect_remote_schema', { name });
  return buildClientSchema(r.data);
}

/** The schema as SDL (what a role's permission cuts down). */
export const sdlOf = (schema: GraphQLSchema): string => printSchema(schema);
