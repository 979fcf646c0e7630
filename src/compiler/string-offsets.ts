/**
 * `offset: "10"`: an offset written as a string of digits is read as that integer, as the
 * well-known engine does (it took 64-bit offsets as strings). Only where the argument is an
 * `Int` named `offset` (a table's rows, not a remote schema's own `offset: String`), and only
 * literals: a variable keeps its declared type. Anything else is left to validation.
 */
import { getNamedType, Kind, TypeInfo, visit, visitWithTypeInfo, type DocumentNode, type GraphQLSchema } from 'graphql';

const DIGITS = /^\d+$/;

export function stringOffsetsAsInts(schema: GraphQLSchema, doc: DocumentNode): DocumentNode {
  const typeInfo = new TypeInfo(schema);
  return visit(
    doc,
    visitWithTypeInfo(typeInfo, {
      Argument(node) {
        if (node.name.value !== 'offset' || node.value.kind !== Kind.STRING || !DIGITS.test(node.value.value)) return undefined;
        const type = typeInfo.getInputType();
        if (!type || getNamedType(type).name !== 'Int') return undefined;
        return { ...node, value: { kind: Kind.INT, value: node.value.value } };
      },
    }),
  );
}
