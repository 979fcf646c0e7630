/**
 * A permission being edited (the editor's state) and the body `pg_create_<action>_permission`
 * takes from it, as the engine stores it: `columns: '*'` is shown as every column ticked, and
 * saved as the list, as the well-known engine's console does; what the editor does not show
 * (`validate_input`) is kept as it was.
 */
import type { Permission } from '../../../api/metadata';
import type { Action, BoolExp, Json } from './model';
import { isSessionVariable } from './boolexp/operators';

export interface Preset {
  column: string;
  kind: 'static' | 'session';
  value: string;
}

export interface Draft {
  filter: BoolExp;
  check: BoolExp;
  columns: string[];
  computedFields: string[];
  presets: Preset[];
  /** As typed; empty: no limit. */
  limit: string;
  allowAggregations: boolean;
  /** null: every root field (the key left out). */
  queryRootFields: string[] | null;
  subscriptionRootFields: string[] | null;
  backendOnly: boolean;
  kept: Record<string, Json>;
}

export const QUERY_ROOT_FIELDS = ['select', 'select_by_pk', 'select_aggregate'];
export const SUBSCRIPTION_ROOT_FIELDS = ['select', 'select_by_pk', 'select_aggregate', 'select_stream'];

const exp = (v: unknown): BoolExp => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as BoolExp) : {});
const strings = (v: unknown): string[] | null => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : null);

export function draftOf(permission: Permission | undefined, allColumns: string[], computedFields: string[]): Draft {
  const p = permission?.permission ?? {};
  const presets = Object.entries(exp(p.set)).map(([column, value]): Preset =>
    isSessionVariable(value) ? { column, kind: 'session', value } : { column, kind: 'static', value: typeof value === 'string' ? value : JSON.stringify(value) },
  );
  return {
    filter: exp(p.filter),
    check: exp(p.check),
    columns: p.columns === '*' ? allColumns : (strings(p.columns) ?? []),
    computedFields: p.columns === '*' ? computedFields : (strings(p.computed_fields) ?? []),
    presets,
    limit: typeof p.limit === 'number' ? String(p.limit) : '',
    allowAggregations: p.allow_aggregations === true,
    queryRootFields: strings(p.query_root_fields),
    subscriptionRootFields: strings(p.subscription_root_fields),
    backendOnly: p.backend_only === true,
    kept: p.validate_input !== undefined ? { validate_input: p.validate_input as Json } : {},
  };
}

const presetsOf = (d: Draft): Record<string, Json> | undefined =>
  d.presets.length ? Object.fromEntries(d.presets.filter((x) => x.column).map((x) => [x.column, x.value])) : undefined;

/** The limit as typed: a number when it reads as one (the engine reports anything else). */
const limitOf = (text: string): Json | undefined => (text.trim() === '' ? undefined : Number.isInteger(Number(text)) ? Number(text) : text);

/** The permission body for the action, leaving out what is unset. */
export function bodyOf(d: Draft, action: Action): Record<string, Json> {
  const body: Record<string, Json | undefined> = {};
  if (action === 'insert') Object.assign(body, { check: d.check, columns: d.columns, set: presetsOf(d) });
  if (action === 'select')
    Object.assign(body, {
      columns: d.columns,
      computed_fields: d.computedFields.length ? d.computedFields : undefined,
      filter: d.filter,
      limit: limitOf(d.limit),
      allow_aggregations: d.allowAggregations || undefined,
      query_root_fields: d.queryRootFields ?? undefined,
      subscription_root_fields: d.subscriptionRootFields ?? undefined,
    });
  if (action === 'update') Object.assign(body, { columns: d.columns, filter: d.filter, check: Object.keys(d.check).length ? d.check : undefined, set: presetsOf(d) });
  if (action === 'delete') body.filter = d.filter;
  if (action !== 'select' && d.backendOnly) body.backend_only = true;
  Object.assign(body, d.kept);
  return Object.fromEntries(Object.entries(body).filter((e): e is [string, Json] => e[1] !== undefined));
}
