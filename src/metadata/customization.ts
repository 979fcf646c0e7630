/** Validation of naming customizations: source `customization` and table `configuration` (TableConfig). */
import { badRequest } from '../errors/admin.js';
import { isObject, ObjectReader, oneOf, str, type JsonObject } from '../util/decode.js';
import { graphqlName, graphqlNamePart } from './names.js';


export const NAMING_CONVENTIONS = ['service-default', 'graphql-default'] as const;

/** An object of optional name parts (`namespace`, `prefix`, `suffix`), each with its validator. */
function nameParts(parts: Record<string, (v: unknown, path: string) => string>) {
  return (v: unknown, path: string): JsonObject => {
    const o = ObjectReader.of(v, path);
    const res: JsonObject = {};
    for (const [key, decode] of Object.entries(parts)) {
      const value = o.optional(key, decode);
      if (value !== undefined) res[key] = value;
    }
    o.done();
    return res;
  };
}

export function sourceCustomization(v: unknown, path: string): JsonObject {
  const r = ObjectReader.of(v, path);
  const out: JsonObject = {};
  const rf = r.optional('root_fields', nameParts({ namespace: graphqlName, prefix: graphqlName, suffix: graphqlNamePart(false) }));
  if (rf) out.root_fields = rf;
  const tn = r.optional('type_names', nameParts({ prefix: graphqlName, suffix: graphqlNamePart(false) }));
  if (tn) out.type_names = tn;
  const nc = r.optional('naming_convention', oneOf(NAMING_CONVENTIONS, 'naming convention'));
  if (nc) out.naming_convention = nc;
  r.done();
  return out;
}

export const ROOT_FIELD_KEYS = [
  'select',
  'select_by_pk',
  'select_aggregate',
  'select_stream',
  'insert',
  'insert_one',
  'update',
  'update_by_pk',
  'update_many',
  'delete',
  'delete_by_pk',
] as const;

/** `{name, comment}` or a plain name; stored as given. */
function customRootField(v: unknown, path: string): JsonObject | string {
  if (typeof v === 'string') return graphqlName(v, path);
  const o = ObjectReader.of(v, path);
  const res: JsonObject = {};
  const name = o.optional('name', graphqlName);
  if (name !== undefined) res.name = name;
  const comment = o.optional('comment', str);
  if (comment !== undefined) res.comment = comment;
  o.done();
  return res;
}

/** "a", "a and b", "a, b and c". */
const englishList = (names: string[]) => (names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`);

/**
 * A table's custom root fields name each field once: the well-known engine refuses the
 * configuration when parsing it, naming the duplicated names.
 */
function refuseDuplicatedRootFields(roots: JsonObject, path: string): void {
  const names = Object.values(roots).flatMap((f) => (typeof f === 'string' ? [f] : isObject(f) && typeof f.name === 'string' ? [f.name] : []));
  const duplicated = [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];
  if (duplicated.length > 0) throw badRequest('parse-failed', `the following custom root field names are duplicated: ${englishList(duplicated)}`, path);
}

/** Validates a TableConfig against the table's columns; returns it in stored (export) form. */
export function tableConfiguration(v: unknown, path: string, columns: ReadonlySet<string> | null): JsonObject {
  const r = ObjectReader.of(v, path);
  const out: JsonObject = {};
  const customName = r.optional('custom_name', graphqlName);
  if (customName !== undefined) out.custom_name = customName;
  const identifier = r.optional('identifier', graphqlName);
  if (identifier !== undefined) out.identifier = identifier;
  const comment = r.optional('comment', str);
  if (comment !== undefined) out.comment = comment;

  const roots = r.optional('custom_root_fields', (x, p) => {
    const o = ObjectReader.of(x, p);
    const res: JsonObject = {};
    for (const key of ROOT_FIELD_KEYS) {
      const f = o.optional(key, customRootField);
      if (f !== undefined) res[key] = f;
    }
    o.done();
    refuseDuplicatedRootFields(res, p);
    return res;
  });
  if (roots && Object.keys(roots).length > 0) out.custom_root_fields = roots;

  const checkColumn = (name: string, p: string) => {
    if (columns && !columns.has(name)) throw badRequest('not-exists', `the following columns in the table configuration do not exist: ${JSON.stringify(name)}`, p);
  };
  const columnConfig: JsonObject = {};
  r.optional('column_config', (x, p) => {
    const o = ObjectReader.of(x, p);
    for (const [col, cfg] of Object.entries(o.value)) {
      const cp = o.at(col);
      checkColumn(col, cp);
      const c = ObjectReader.of(cfg, cp);
      const res: JsonObject = {};
      const cn = c.optional('custom_name', graphqlName);
      if (cn !== undefined) res.custom_name = cn;
      const cc = c.optional('comment', str);
      if (cc !== undefined) res.comment = cc;
      c.done();
      columnConfig[col] = res;
    }
  });
  // The older `custom_column_names` map folds into column_config.
  r.optional('custom_column_names', (x, p) => {
    const o = ObjectReader.of(x, p);
    for (const [col, name] of Object.entries(o.value)) {
      checkColumn(col, o.at(col));
      const prev = columnConfig[col];
      columnConfig[col] = { ...(isObject(prev) ? prev : {}), custom_name: graphqlName(name, o.at(col)) };
    }
  });
  if (Object.keys(columnConfig).length > 0) out.column_config = columnConfig;
  r.done();
  return out;
}
