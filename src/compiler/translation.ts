/**
 * How an analysed plan becomes a plan: each field's statements as its backend writes them (what a
 * compiler thread runs), and the plan assembled from them with the session variables they read.
 * Pure (the compiler threads and the schema builder run it; so do the golden tests, to compile
 * exactly as the engine does).
 */
import { createHash } from 'node:crypto';
import type { Translator } from '../backends/faces/translator.js';
import type { AnalyzedPlan, TranslateAnswer, TranslateTask } from '../protocol/messages.js';
import type { Plan, PlanStep } from '../protocol/plan.js';

/** A prepared statement's name: a hash of its text (each connection keeps a bounded set, see PreparedStatements). */
const statementName = (text: string): string => 's' + createHash('sha1').update(text).digest('base64url').slice(0, 20);
const preparedName = (task: TranslateTask, text: string): string | null => (task.prepared ? statementName(text) : null);

/** One field's statements, written by its source's backend. */
export function translateField(backend: Translator, task: TranslateTask, options: { stringifyNumeric: boolean }): TranslateAnswer {
  const { field } = task;
  if (field.kind === 'query') {
    const live = task.live && backend.translateLiveField ? backend.translateLiveField(field.root, options) : null;
    const t = live ?? backend.translateRootField(field.root, options);
    const run: TranslateAnswer['run'] = { kind: 'sql', source: task.source, text: t.text, params: t.params, statement: preparedName(task, t.text) };
    // Prepared whatever the source says (as upstream does): the same text runs every refetch interval.
    if (live) run.multiplexed = { text: live.multiplexed, statement: statementName(live.multiplexed) };
    if (live?.stream) run.stream = live.stream;
    return { run, sessionVariables: t.sessionVariables, wholeSession: t.wholeSession };
  }
  const t = backend.translateMutation(field.mutation, options);
  return {
    run: {
      kind: 'mutation',
      source: task.source,
      errorPath: field.errorPath,
      ops: t.ops.map((o) => ({ ...o, statement: preparedName(task, o.text) })),
      list: field.list,
      check: field.mutation.kind,
    },
    sessionVariables: t.sessionVariables,
    wholeSession: t.wholeSession,
  };
}

/** The plan of an analysed one: its fields translated by `translate` (concurrently), the session variables they read gathered. */
export async function translatePlan(plan: AnalyzedPlan, translate: (task: TranslateTask) => Promise<TranslateAnswer> | TranslateAnswer): Promise<Plan> {
  const sessionVariables = new Set<string>();
  let wholeSession = false;
  const live = plan.operation === 'subscription';
  const steps = await Promise.all(
    plan.steps.map(async ({ run, ...step }): Promise<PlanStep> => {
      if (run.kind !== 'translate') return { ...step, run };
      const translated = await translate({ sourceKind: run.sourceKind, prepared: run.prepared, source: run.source, field: run.field, live });
      for (const name of translated.sessionVariables) sessionVariables.add(name);
      wholeSession ||= translated.wholeSession;
      return { ...step, run: translated.run };
    }),
  );
  return { ...plan, steps, sessionVariables: [...sessionVariables].sort(), ...(wholeSession ? { wholeSession: true as const } : {}) };
}
