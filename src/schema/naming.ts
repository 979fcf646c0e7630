/**
 * Every GraphQL name the engine generates, in one place: table identifiers, root
 * fields, type names, with `custom_name`, `identifier`, `custom_root_fields`,
 * `column_config` and the source's `customization` (prefix/suffix/namespace and
 * `naming_convention`) applied.
 */
import type { QualifiedName } from '../catalog/types.js';
import { isObject, type JsonObject } from '../util/decode.js';
import type { SourceMetadata, TableMetadata } from '../metadata/types.js';

export type NamingConvention = 'service-default' | 'graphql-default';

const words = (s: string) => s.split('_').filter((w) => w.length > 0);
const capitalise = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
export const pascalCase = (s: string) => words(s).map(capitalise).join('');
export const camelCase = (s: string) => {
  const p = pascalCase(s);
  return p.charAt(0).toLowerCase() + p.slice(1);
};

/** The suffix of a namespace field's type on each root (the well-known engine's names: `<namespace>_mutation_frontend`...). */
export const NAMESPACE_TYPE_SUFFIX = { query_root: 'query', subscription_root: 'subscription', mutation_root: 'mutation_frontend' } as const;

/** What puts root fields under one namespace field (a source, a remote schema): that field's name, and its type's on a root (`query`, `mutation_frontend`, `subscription`). */
export interface Namespacing {
  readonly namespace: string | null;
  namespaceType(rootSuffix: string): string;
}

export class SourceNaming implements Namespacing {
  readonly convention: NamingConvention;
  readonly namespace: string | null;
  private readonly rootPrefix: string;
  private readonly rootSuffix: string;
  private readonly typePrefix: string;
  private readonly typeSuffix: string;
  /** Tables of this schema are named without it (`public` on PostgreSQL, `dbo` on SQL Server). */
  readonly defaultSchema: string;

  constructor(
    source: SourceMetadata,
    defaultSchema: string,
  ) {
    this.defaultSchema = defaultSchema;
    const c = source.customization ?? {};
    const rf = isObject(c.root_fields) ? c.root_fields : {};
    const tn = isObject(c.type_names) ? c.type_names : {};
    this.convention = c.naming_convention === 'graphql-default' ? 'graphql-default' : 'service-default';
    this.namespace = typeof rf.namespace === 'string' ? rf.namespace : null;
    this.rootPrefix = typeof rf.prefix === 'string' ? rf.prefix : '';
    this.rootSuffix = typeof rf.suffix === 'string' ? rf.suffix : '';
    this.typePrefix = typeof tn.prefix === 'string' ? tn.prefix : '';
    this.typeSuffix = typeof tn.suffix === 'string' ? tn.suffix : '';
  }

  /** A root field name built from snake_case parts (`author`, `by_pk`), convention and prefix/suffix applied. */
  rootField(base: string): string {
    const name = this.convention === 'graphql-default' ? camelCase(base) : base;
    if (!this.rootPrefix) return name + this.rootSuffix;
    // With a prefix, graphql-default capitalises the original first word (`prefixAuthor`).
    return this.rootPrefix + (this.convention === 'graphql-default' ? capitalise(name) : name) + this.rootSuffix;
  }

  /** A custom root field name is used as given, with prefix/suffix. */
  customRootField(name: string): string {
    return this.rootPrefix + name + this.rootSuffix;
  }

  /** A generated type name from snake_case parts (`author_bool_exp`). */
  typeName(base: string): string {
    const name = this.convention === 'graphql-default' ? pascalCase(base) : base;
    return this.typePrefix + name + this.typeSuffix;
  }

  /**
   * The type of the namespace field (`my_source_query`) takes the source's type-name prefix and
   * suffix (`tpref_my_source_query_tsuff`), as in the well-known engine, which applies the
   * naming convention to it only along with them.
   */
  namespaceType(rootSuffix: string): string {
    const base = `${this.namespace}_${rootSuffix}`;
    return this.typePrefix || this.typeSuffix ? this.typeName(base) : base;
  }

  /** Field names of columns and relationships follow the convention. */
  fieldName(base: string): string {
    return this.convention === 'graphql-default' ? camelCase(base) : base;
  }

  enumValue(value: string): string {
    return this.convention === 'graphql-default' ? value.toUpperCase() : value;
  }
}

/** The identifier a table's names are built from. */
export function tableIdentifier(t: TableMetadata, defaultSchema: string): string {
  const cfg = t.configuration ?? {};
  if (typeof cfg.custom_name === 'string') return cfg.custom_name;
  if (typeof cfg.identifier === 'string') return cfg.identifier;
  return defaultIdentifier(t.table, defaultSchema);
}

export const defaultIdentifier = (t: QualifiedName, defaultSchema: string) => (t.schema === defaultSchema ? t.name : `${t.schema}_${t.name}`);

export type RootFieldKind =
  | 'select'
  | 'select_by_pk'
  | 'select_aggregate'
  | 'select_stream'
  | 'insert'
  | 'insert_one'
  | 'update'
  | 'update_by_pk'
  | 'update_many'
  | 'delete'
  | 'delete_by_pk';

/** How a root field's default name is made from the identifier: [prefix, suffix]. */
const ROOT_AFFIXES: Record<RootFieldKind, [string, string]> = {
  select: ['', ''],
  select_by_pk: ['', '_by_pk'],
  select_aggregate: ['', '_aggregate'],
  select_stream: ['', '_stream'],
  insert: ['insert_', ''],
  insert_one: ['insert_', '_one'],
  update: ['update_', ''],
  update_by_pk: ['update_', '_by_pk'],
  update_many: ['update_', '_many'],
  delete: ['delete_', ''],
  delete_by_pk: ['delete_', '_by_pk'],
};

const defaultRootName = (naming: SourceNaming, t: TableMetadata, kind: RootFieldKind) => ROOT_AFFIXES[kind][0] + tableIdentifier(t, naming.defaultSchema) + ROOT_AFFIXES[kind][1];

/** Name and description of one generated root field of a table. */
export function tableRootField(naming: SourceNaming, t: TableMetadata, kind: RootFieldKind): { name: string; comment: string | null } {
  const custom = (t.configuration?.custom_root_fields as JsonObject | undefined)?.[kind];
  if (typeof custom === 'string') return { name: naming.customRootField(custom), comment: null };
  if (isObject(custom)) {
    const comment = typeof custom.comment === 'string' ? custom.comment : null;
    if (typeof custom.name === 'string') return { name: naming.customRootField(custom.name), comment };
    return { name: naming.rootField(defaultRootName(naming, t, kind)), comment };
  }
  return { name: naming.rootField(defaultRootName(naming, t, kind)), comment: null };
}

/** A tracked function's root fields (`custom_name`, `custom_root_fields` of its configuration). */
export function functionRootFields(naming: SourceNaming, fn: QualifiedName, config: Readonly<Record<string, unknown>>): { rootName: string; aggregateName: string } {
  const base = typeof config.custom_name === 'string' ? config.custom_name : fn.schema === 'public' ? fn.name : `${fn.schema}_${fn.name}`;
  const roots = isObject(config.custom_root_fields) ? config.custom_root_fields : {};
  return {
    rootName: typeof roots.function === 'string' ? naming.customRootField(roots.function) : naming.rootField(base),
    aggregateName: typeof roots.function_aggregate === 'string' ? naming.customRootField(roots.function_aggregate) : naming.rootField(`${base}_aggregate`),
  };
}

/** The GraphQL field name of a column (column_config custom_name wins). */
export function columnFieldName(naming: SourceNaming, t: TableMetadata, column: string): string {
  const cc = t.configuration?.column_config;
  const entry = isObject(cc) ? cc[column] : undefined;
  if (isObject(entry) && typeof entry.custom_name === 'string') return entry.custom_name;
  const legacy = t.configuration?.custom_column_names;
  if (isObject(legacy) && typeof legacy[column] === 'string') return legacy[column] as string;
  return naming.fieldName(column);
}

export function columnComment(t: TableMetadata, column: string): string | null {
  const cc = t.configuration?.column_config;
  const entry = isObject(cc) ? cc[column] : undefined;
  return isObject(entry) && typeof entry.comment === 'string' ? entry.comment : null;
}
