/**
 * A GraphQL request analysed for one role (the schema builder's part of compiling): parse,
 * pick the operation, validate, then one step per root field: the IR of a query or
 * mutation field, for the source's backend to translate (actors/compiler), or constant
 * JSON (introspection fields are answered here: they depend only on the role's schema),
 * a remote schema's or an action's call; and a step per relationship to another source or
 * server met in a field's selection, joined into that field's rows by the executor.
 */
import {
  getVariableValues,
  Kind,
  print,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type OperationDefinitionNode,
  type VariableDefinitionNode,
} from 'graphql';
import type { RootField } from '../ir/select.js';
import type { VariableSpec } from '../protocol/plan.js';
import type { AnalyzedPlan, AnalyzedRun, AnalyzedStep } from '../protocol/messages.js';
import type { RoleSchema } from '../schema/build.js';
import { fieldKey } from '../schema/types.js';
import { collectFields, type CollectedField } from './collect.js';
import { InvalidDocumentError, RequestError } from '../errors/request.js';
import { Inputs } from './inputs.js';
import { SelectionCompiler, type PendingJoin } from './selection.js';
import { MutationCompiler } from './mutation.js';
import { graphqlErrorToRequestError } from './validation-errors.js';
import { validationError } from './validate-document.js';
import { fragmentCycle } from './fragment-cycles.js';
import { stringOffsetsAsInts } from './string-offsets.js';
import { parseDocument } from './document-limits.js';
import { NotAllowedError } from './allowlist.js';
import { addTablesRead } from './reads.js';
import { streamField } from './stream.js';
import { remoteJoinRun, remoteRun } from './remote.js';
import { actionRun } from './action.js';
import { introspect } from './introspection.js';
import { parameterizedQueryHash } from './query-hash.js';
import { planCache } from './cached-directive.js';
import { operationSize } from './operation-size.js';

/** What may be an offset written as a string (the walk that finds them runs only then). */
const STRING_OFFSET = /\boffset\s*:\s*"/;

export interface CompileRequest {
  query: string;
  operationName: string | null;
  variables: Record<string, unknown>;
}

export interface AnalyzeOptions {
  /** A source's kind (which backend translates its fields) and whether its statements are prepared. */
  source(name: string): { kind: string; prepared: boolean };
  /** With the allow-list enforced for the request's role: whether it allows the document. */
  allowed?: ((doc: DocumentNode) => boolean) | undefined;
}

function pickOperation(doc: DocumentNode, name: string | null): OperationDefinitionNode {
  const ops = doc.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (name) {
    const op = ops.find((o) => o.name?.value === name);
    if (!op) throw new RequestError(`no such operation found in the document: ${JSON.stringify(name)}`, '$');
    return op;
  }
  if (ops.length !== 1) throw new RequestError('exactly one operation has to be present in the document when operationName is not specified', '$');
  return ops[0]!;
}

function variableSpecs(op: OperationDefinitionNode): VariableSpec[] {
  return (op.variableDefinitions ?? []).map((d: VariableDefinitionNode) => ({
    name: d.variable.name.value,
    type: print(d.type),
    hasDefault: d.defaultValue !== undefined,
    defaultValue: d.defaultValue ? new Inputs({}).resolve(new Inputs({}).tree(d.defaultValue)) : null,
  }));
}

/** Request variables with declared defaults applied (what the compiled values see). */
export function withDefaults(specs: VariableSpec[], given: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...given };
  for (const s of specs) if (out[s.name] === undefined && s.hasDefault) out[s.name] = s.defaultValue;
  return out;
}

/** The request's document and operation, checked against the role's schema; what fails here fails for any variables. */
function checkedDocument(rs: RoleSchema, req: CompileRequest, opts: AnalyzeOptions): { doc: DocumentNode; op: OperationDefinitionNode } {
  const parsed = parseDocument(req.query);
  // Before validation, as in the well-known engine: a refused document learns nothing of the schema.
  if (opts.allowed && !opts.allowed(parsed)) throw new NotAllowedError();
  const doc = STRING_OFFSET.test(req.query) ? stringOffsetsAsInts(rs.schema, parsed) : parsed;
  const op = pickOperation(doc, req.operationName);
  if (op.operation === 'mutation' && !rs.schema.getMutationType()) throw new RequestError('no mutations exist', '$', 'validation-failed');
  const cycle = fragmentCycle(doc, op);
  if (cycle) throw cycle;
  const invalid = validationError(rs.schema, doc, op);
  if (invalid) throw invalid;
  return { doc, op };
}

export function analyze(rs: RoleSchema, req: CompileRequest, opts: AnalyzeOptions): AnalyzedPlan {
  let checked: { doc: DocumentNode; op: OperationDefinitionNode };
  try {
    checked = checkedDocument(rs, req, opts);
  } catch (e) {
    if (!(e instanceof RequestError) || e instanceof NotAllowedError) throw e;
    throw new InvalidDocumentError(e.message, e.path, e.code);
  }
  const { doc, op } = checked;

  // Variable values against their declared types (the front thread re-checks scalars on every request).
  const coerced = getVariableValues(rs.schema, op.variableDefinitions ?? [], req.variables);
  if (coerced.errors?.length) throw graphqlErrorToRequestError(coerced.errors[0]!, op);
  const specs = variableSpecs(op);
  const inputs = new Inputs(withDefaults(specs, req.variables));
  const fragments = new Map(doc.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]));
  const selection = new SelectionCompiler(rs, fragments, inputs);
  const rootType = op.operation === 'subscription' ? 'subscription_root' : op.operation === 'mutation' ? 'mutation_root' : 'query_root';
  const mutations = new MutationCompiler(selection);

  const steps: AnalyzedStep[] = [];
  /** A remote schema's or an action's field: its answer may depend on the whole session and the client's headers. */
  let callsOut = false;
  // Mutation fields run in request order: each depends on the one before.
  let lastMutation: number | null = null;
  const addStep = (run: AnalyzedRun, path: string[]): void => {
    const id = steps.length;
    const mutation = (run.kind === 'translate' && run.field.kind === 'mutation') || (run.kind === 'remote' && run.operation === 'mutation') || (run.kind === 'action' && op.operation === 'mutation');
    steps.push({ id, dependsOn: mutation && lastMutation !== null ? [lastMutation] : [], run, output: { kind: 'response', path } });
    if (mutation) lastMutation = id;
  };
  const translate = (source: string, field: Extract<AnalyzedRun, { kind: 'translate' }>['field']): AnalyzedRun => {
    const { kind, prepared } = opts.source(source);
    return { kind: 'translate', source, sourceKind: kind, prepared, field };
  };
  const reads = { everything: false, sources: new Set<string>(), tables: new Set<string>() };
  /** The GraphQL type of a field the role's schema has (`rs.fields` found it). */
  const fieldType = (typeName: string, field: string) => (rs.schema.getType(typeName) as GraphQLObjectType).getFields()[field]!.type;
  const compileRoot = (typeName: string, f: CollectedField, path: string[]): void => {
    const p = `$.selectionSet.${[...path, f.alias].join('.selectionSet.')}`;
    if (f.name === '__typename') {
      addStep({ kind: 'constant', json: JSON.stringify(typeName) }, [...path, f.alias]);
      return;
    }
    if (f.name === '__schema' || f.name === '__type') {
      reads.everything = true;
      addStep({ kind: 'constant', json: introspect(rs, doc, op, f, inputs) }, [...path, f.alias]);
      return;
    }
    const info = rs.fields.get(fieldKey(typeName, f.name));
    if (!info) throw new RequestError(`field '${f.name}' not found in type: '${typeName}'`, p);
    if (info.kind === 'namespace') {
      const nsType = fieldType(typeName, f.name).toString().replace(/!$/, '');
      for (const inner of collectFields(nsType, f.selections, fragments, inputs, p)) compileRoot(nsType, inner, [...path, f.alias]);
      return;
    }
    if (info.kind === 'remote') {
      callsOut = true;
      addStep(remoteRun(info.remote, info.root, info.field, f, { schema: rs.schema, op, fragments, inputs }, p), [...path, f.alias]);
      return;
    }
    if (info.kind === 'action' || info.kind === 'action_result') {
      const type = fieldType(typeName, f.name);
      callsOut = true;
      const mode = info.kind === 'action_result' ? 'result' : info.action.definition.kind === 'asynchronous' ? 'enqueue' : 'call';
      addStep(actionRun(info.action, mode, f, type, { rs, query: req.query, fragments, inputs, selection }, p), [...path, f.alias]);
      addJoins(steps.length - 1, [...path, f.alias]);
      return;
    }
    if ('mtable' in info) {
      const field = mutations.compile(info, f, p);
      const source = info.mtable.source.name;
      reads.sources.add(source);
      addTablesRead(field, source, reads.tables);
      addStep(translate(source, { kind: 'mutation', mutation: field, errorPath: p, list: field.kind === 'update' && field.many }), [...path, f.alias]);
      addJoins(steps.length - 1, [...path, f.alias]);
      return;
    }
    let root: Exclude<RootField, { kind: 'typename' }>;
    // The field table may be shared by roles of the same schema shape: the table as this role sees it.
    const t = 'table' in info ? (rs.model.tables.get(info.table.key) ?? null) : null;
    if (!t) throw new RequestError(`field '${f.name}' not found in type: '${typeName}'`, p);
    const source = t.source.name;
    switch (info.kind) {
      case 'root_select':
        root = { kind: 'select', alias: f.alias, source, rows: selection.rows(t, f.node, p), fields: selection.fields(t, f.selections, p) };
        break;
      case 'root_select_aggregate':
        root = { kind: 'aggregate', alias: f.alias, source, rows: selection.rows(t, f.node, p), aggregate: selection.aggregate(t, f.selections, p) };
        break;
      case 'root_select_stream':
        root = streamField(selection, t, f, p);
        break;
      case 'root_function':
      case 'root_function_aggregate': {
        const given = new Map((f.node.arguments ?? []).map((a) => [a.name.value, inputs.tree(a.value)])).get('args');
        const fnArgs = given === undefined ? {} : (inputs.object(given, `${p}.args.args`) ?? {});
        const sessionArgument = info.fn.sessionArgument;
        const from = selection.functionCall(info.fn.fn, fnArgs, (a) => (a.name !== null && a.name === sessionArgument ? 'session' : null));
        const rows = selection.rows(t, f.node, p);
        root =
          info.kind === 'root_function'
            ? { kind: 'select', alias: f.alias, source, rows, fields: selection.fields(t, f.selections, p), from }
            : { kind: 'aggregate', alias: f.alias, source, rows, aggregate: selection.aggregate(t, f.selections, p), from };
        break;
      }
      case 'root_select_by_pk': {
        const args = new Map((f.node.arguments ?? []).map((a) => [a.name.value, inputs.tree(a.value)]));
        const items = t.catalog.primaryKey!.columns.map((c) => {
          const col = t.columns.find((x) => x.column.name === c)!;
          const v = inputs.scalar(args.get(col.fieldName) ?? null);
          if (!v) throw new RequestError(`missing required field ${JSON.stringify(col.fieldName)}`, `${p}.args`);
          return { kind: 'column' as const, column: c, type: col.column.type, ops: [{ op: '_eq', value: v }] };
        });
        root = {
          kind: 'select_one',
          alias: f.alias,
          source,
          rows: { table: { schema: t.catalog.schema, name: t.catalog.name }, permission: t.permission.filter, where: { kind: 'and', items }, orderBy: [], distinctOn: [], limit: null, offset: null, limitCap: 1 },
          fields: selection.fields(t, f.selections, p),
        };
        break;
      }
      default:
        throw new RequestError(`field '${f.name}' not found in type: '${typeName}'`, p);
    }
    reads.sources.add(source);
    addTablesRead(root, source, reads.tables);
    addStep(translate(source, { kind: 'query', root }), [...path, f.alias]);
    addJoins(steps.length - 1, [...path, f.alias]);
  };
  /** A `to_source` relationship's step: its rows for every key tuple, on the target's source. */
  const sourceJoinRun = (to: Extract<PendingJoin['to'], { kind: 'source' }>, alias: string): AnalyzedRun => {
    const source = to.target.source.name;
    const keys = to.join.mapping.map(([child, column]) => ({ child, column, type: to.target.catalog.columns.find((c) => c.name === column)!.type }));
    const root: Extract<RootField, { kind: 'join' }> = { kind: 'join', alias, source, rows: to.rows, fields: to.fields, keys, many: to.join.many };
    reads.sources.add(source);
    addTablesRead(root, source, reads.tables);
    return translate(source, { kind: 'query', root });
  };
  /** The remote relationships met in the root field just compiled (step `parent` at `rootPath`): one step each, joined into its rows. */
  const addJoins = (parent: number, rootPath: string[]): void => {
    const pending = selection.pendingJoins;
    selection.pendingJoins = [];
    // A live query re-runs its statement alone: a joined answer (a remote relationship, an
    // action's output relationship) would not be watched.
    if (pending.length > 0 && op.operation === 'subscription') throw new RequestError('remote relationships cannot be selected in subscriptions', pending[0]!.path, 'not-supported');
    for (const j of pending) {
      const keys = j.path.slice('$.selectionSet.'.length).split('.selectionSet.').slice(rootPath.length);
      const run = j.to.kind === 'remote' ? remoteJoinRun(j.to.join, j.field, { schema: rs.schema, op, fragments, inputs }, j.path) : sourceJoinRun(j.to, j.field.alias);
      steps.push({ id: steps.length, dependsOn: [parent], run, output: { kind: 'join', join: { parent, at: keys.slice(0, -1), field: keys.at(-1)!, keys: j.keys, hidden: j.keys.map((k) => k.parent) } } });
    }
  };
  for (const f of collectFields(rootType, [op.selectionSet], fragments, inputs, '$')) compileRoot(rootType, f, []);
  const cache = planCache(doc, op, callsOut || steps.some((s) => s.run.kind === 'remote'));
  return {
    operation: op.operation,
    steps,
    variables: specs,
    shape: inputs.shapeVariables(),
    queryHash: parameterizedQueryHash(op, fragments),
    size: operationSize(op, fragments),
    reads: { everything: reads.everything, sources: [...reads.sources], tables: [...reads.tables] },
    ...(cache ? { cache } : {}),
  };
}
