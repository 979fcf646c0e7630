/**
 * Whether two role schemas are the same to every client: the same types in the same order,
 * with the same names, descriptions, fields, arguments, input fields and enum values. Roles
 * that see the same tables, columns and root fields (an inherited role and the parent whose
 * grants cover the others', a role and its backend-only variant) then share one
 * GraphQLSchema; what a field means for each role (its table and filter) stays in the role's
 * own FieldInfo.
 */
import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLObjectType,
  isListType,
  isNonNullType,
  type GraphQLArgument,
  type GraphQLEnumValue,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type GraphQLType,
} from 'graphql';

const sameMap = <T>(a: Record<string, T>, b: Record<string, T>, same: (x: T, y: T) => boolean): boolean => {
  const keys = Object.keys(a);
  const other = Object.keys(b);
  return keys.length === other.length && keys.every((k, i) => k === other[i] && same(a[k]!, b[k]!));
};

const sameList = <T>(a: readonly T[], b: readonly T[], same: (x: T, y: T) => boolean): boolean => a.length === b.length && a.every((x, i) => same(x, b[i]!));

/** A named type is referred to by name: each is compared once, through the type map. */
function sameReference(a: GraphQLType, b: GraphQLType): boolean {
  if (isNonNullType(a)) return isNonNullType(b) && sameReference(a.ofType, b.ofType);
  if (isListType(a)) return isListType(b) && sameReference(a.ofType, b.ofType);
  return !isNonNullType(b) && !isListType(b) && a.name === b.name;
}

const sameValue = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

const sameInput = (a: GraphQLArgument | GraphQLInputField, b: GraphQLArgument | GraphQLInputField) =>
  a.name === b.name && a.description === b.description && a.deprecationReason === b.deprecationReason && sameReference(a.type, b.type) && sameValue(a.defaultValue, b.defaultValue);

const sameField = (a: GraphQLField<unknown, unknown>, b: GraphQLField<unknown, unknown>) =>
  a.name === b.name && a.description === b.description && a.deprecationReason === b.deprecationReason && sameReference(a.type, b.type) && sameList(a.args, b.args, sameInput);

const sameEnumValue = (a: GraphQLEnumValue, b: GraphQLEnumValue) => a.name === b.name && a.value === b.value && a.description === b.description && a.deprecationReason === b.deprecationReason;

function sameType(a: GraphQLNamedType, b: GraphQLNamedType): boolean {
  if (a === b) return true;
  if (a.constructor !== b.constructor || a.name !== b.name || a.description !== b.description) return false;
  if (a instanceof GraphQLObjectType) return sameMap(a.getFields(), (b as GraphQLObjectType).getFields(), sameField);
  if (a instanceof GraphQLInputObjectType) return sameMap(a.getFields(), (b as GraphQLInputObjectType).getFields(), sameInput);
  if (a instanceof GraphQLEnumType) return sameList(a.getValues(), (b as GraphQLEnumType).getValues(), sameEnumValue);
  // Scalars are one object per name.
  return false;
}

export function sameSchema(a: GraphQLSchema, b: GraphQLSchema): boolean {
  return (
    a.getQueryType()?.name === b.getQueryType()?.name &&
    a.getMutationType()?.name === b.getMutationType()?.name &&
    a.getSubscriptionType()?.name === b.getSubscriptionType()?.name &&
    sameMap(a.getTypeMap(), b.getTypeMap(), sameType)
  );
}
