/** `<Scalar>_comparison_exp` input types: which operators each scalar family gets (as the well-known engine does). */
import { GraphQLBoolean, GraphQLList, GraphQLNonNull, GraphQLString, type GraphQLInputFieldConfigMap, type GraphQLInputType } from 'graphql';
import { inputObjectType } from './graphql-types.js';
import type { TypeFamily } from '../catalog/types.js';

const list = (t: GraphQLInputType) => new GraphQLList(new GraphQLNonNull(t));

export function comparisonFields(family: TypeFamily, scalar: GraphQLInputType, extra: { cast?: GraphQLInputType | undefined; scalarOf(name: string): GraphQLInputType }): GraphQLInputFieldConfigMap {
  const f: GraphQLInputFieldConfigMap = {
    ...(extra.cast ? { _cast: { type: extra.cast } } : {}),
    _eq: { type: scalar },
    _gt: { type: scalar },
    _gte: { type: scalar },
    _in: { type: list(scalar) },
    _is_null: { type: GraphQLBoolean },
    _lt: { type: scalar },
    _lte: { type: scalar },
    _neq: { type: scalar },
    _nin: { type: list(scalar) },
  };
  if (family === 'text') {
    for (const op of ['_ilike', '_iregex', '_like', '_nilike', '_niregex', '_nlike', '_nregex', '_nsimilar', '_regex', '_similar']) {
      f[op] = { type: scalar, description: describe(op) };
    }
  }
  if (family === 'binary-json') {
    f._contained_in = { type: scalar, description: 'is the column contained in the given json value' };
    f._contains = { type: scalar, description: 'does the column contain the given json value at the top level' };
    f._has_key = { type: GraphQLString, description: 'does the string exist as a top-level key in the column' };
    f._has_keys_all = { type: list(GraphQLString), description: 'do all of these strings exist as top-level keys in the column' };
    f._has_keys_any = { type: list(GraphQLString), description: 'do any of these strings exist as top-level keys in the column' };
  }
  if (family === 'label-tree') {
    f._ancestor = { type: scalar, description: 'is the left argument an ancestor of right (or equal)?' };
    f._ancestor_any = { type: list(scalar), description: 'does array contain an ancestor of `ltree`?' };
    f._descendant = { type: scalar, description: 'is the left argument a descendant of right (or equal)?' };
    f._descendant_any = { type: list(scalar), description: 'does array contain a descendant of `ltree`?' };
    f._matches = { type: extra.scalarOf('lquery'), description: 'does `ltree` match `lquery`?' };
    f._matches_any = { type: list(GraphQLString), description: 'does `ltree` match any `lquery` in array?' };
    f._matches_fulltext = { type: extra.scalarOf('ltxtquery'), description: 'does `ltree` match `ltxtquery`?' };
  }
  if (family === 'geometry' || family === 'geography') {
    const ops = family === 'geometry' ? ['_st_contains', '_st_crosses', '_st_equals', '_st_intersects', '_st_overlaps', '_st_touches', '_st_within', '_st_3d_intersects'] : ['_st_intersects'];
    for (const op of ops) f[op] = { type: scalar };
    const input = family === 'geometry' ? extra.scalarOf('st_d_within_input') : extra.scalarOf('st_d_within_geography_input');
    f._st_d_within = { type: input };
    if (family === 'geometry') f._st_3d_d_within = { type: input };
  }
  return f;
}

function describe(op: string): string {
  const d: Record<string, string> = {
    _ilike: 'does the column match the given case-insensitive pattern',
    _iregex: 'does the column match the given POSIX regular expression, case insensitive',
    _like: 'does the column match the given pattern',
    _nilike: 'does the column NOT match the given case-insensitive pattern',
    _niregex: 'does the column NOT match the given POSIX regular expression, case insensitive',
    _nlike: 'does the column NOT match the given pattern',
    _nregex: 'does the column NOT match the given POSIX regular expression, case sensitive',
    _nsimilar: 'does the column NOT match the given SQL regular expression',
    _regex: 'does the column match the given POSIX regular expression, case sensitive',
    _similar: 'does the column match the given SQL regular expression',
  };
  return d[op]!;
}

export const comparisonTypeFor = (name: string, fields: () => GraphQLInputFieldConfigMap) =>
  inputObjectType({ name, description: `Boolean expression to compare columns of type "${name.replace(/_comparison_exp$/, '')}". All fields are combined with logical 'AND'.`, fields });
