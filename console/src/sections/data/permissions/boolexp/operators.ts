/**
 * The comparison operators the builder offers for a column, by its type (as the engine accepts
 * them: text operators on strings, JSON ones on jsonb, containment on arrays, comparisons with
 * another column everywhere), and how a value
 * typed in a field becomes JSON: a session variable (`X-Service-…`) stays a string, numbers and
 * booleans of such columns become JSON numbers and booleans, lists split on commas.
 */
import type { Json } from '../model';
import type { TypedColumn } from '../../../../api/catalog';

const COMPARISON = ['_eq', '_neq', '_gt', '_lt', '_gte', '_lte', '_in', '_nin', '_is_null'];
const TEXT = ['_like', '_nlike', '_ilike', '_nilike', '_similar', '_nsimilar', '_regex', '_iregex', '_nregex', '_niregex'];
const CONTAINMENT = ['_contains', '_contained_in'];
const JSONB = [...CONTAINMENT, '_has_key', '_has_keys_any', '_has_keys_all'];

/** Comparisons with another column of the same table (of the same type), named as the value. */
export const COLUMN_OPERATORS = ['_ceq', '_cne', '_cgt', '_clt', '_cgte', '_clte'];

function ownOperators(column: TypedColumn | undefined): string[] {
  if (!column) return COMPARISON;
  if (column.category === 'S') return [...COMPARISON, ...TEXT];
  if (column.category === 'A') return [...COMPARISON, ...CONTAINMENT];
  if (column.typeName === 'jsonb') return [...COMPARISON, ...JSONB];
  return COMPARISON;
}

export const operatorsFor = (column: TypedColumn | undefined): string[] => [...ownOperators(column), ...COLUMN_OPERATORS];

/** Operators whose value is a list. */
export const LIST_OPERATORS = new Set(['_in', '_nin', '_has_keys_any', '_has_keys_all']);

export const SESSION_PREFIX = 'x-service-';
export const isSessionVariable = (v: unknown): v is string => typeof v === 'string' && v.toLowerCase().startsWith(SESSION_PREFIX);

function scalar(text: string, column: TypedColumn | undefined): Json {
  const t = text.trim();
  if (column?.category === 'N' && t !== '' && !Number.isNaN(Number(t))) return Number(t);
  if (column?.category === 'B' && (t === 'true' || t === 'false')) return t === 'true';
  return text;
}

/** The JSON a typed value stands for. */
export function parseValue(text: string, operator: string, column: TypedColumn | undefined): Json {
  if (isSessionVariable(text.trim())) return text.trim();
  if (LIST_OPERATORS.has(operator)) {
    if (text.trim().startsWith('[')) {
      try {
        return JSON.parse(text) as Json;
      } catch {
        // Not JSON yet (still being typed): read it as a comma-separated list.
      }
    }
    return text.trim() === '' ? [] : text.split(',').map((part) => scalar(part.trim(), column));
  }
  // Containment and other JSON operands are JSON when they parse.
  if (CONTAINMENT.includes(operator)) {
    try {
      return JSON.parse(text) as Json;
    } catch {
      return text;
    }
  }
  return scalar(text, column);
}

/** How a value is shown in its field. */
export function formatValue(value: Json, operator: string): string {
  if (typeof value === 'string') return value;
  if (LIST_OPERATORS.has(operator) && Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number')) return value.join(', ');
  return JSON.stringify(value);
}
