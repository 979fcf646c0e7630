/**
 * The browse tab's filters and sort as the arguments of `select` and `count` on `/v2/query`
 * (the well-known console's browser builds the same boolean expression): each filter is one
 * `{column: {operator: value}}` under `$and`. Values stay text for PostgreSQL to parse; `_in`
 * takes a comma-separated list, `_is_null` true or false.
 */
export const OPERATORS = ['_eq', '_neq', '_gt', '_lt', '_gte', '_lte', '_like', '_ilike', '_is_null', '_in'] as const;
export type Operator = (typeof OPERATORS)[number];

export interface Filter {
  column: string;
  operator: Operator;
  value: string;
}

export interface Sort {
  column: string;
  direction: 'asc' | 'desc';
}

function operand(f: Filter): unknown {
  if (f.operator === '_is_null') return f.value.trim().toLowerCase() !== 'false';
  if (f.operator === '_in') return f.value.split(',').map((v) => v.trim());
  return f.value;
}

export const whereOf = (filters: Filter[]): Record<string, unknown> => (filters.length === 0 ? {} : { $and: filters.map((f) => ({ [f.column]: { [f.operator]: operand(f) } })) });

export const orderByOf = (sort: Sort | null) => (sort ? [{ column: sort.column, type: sort.direction }] : undefined);
