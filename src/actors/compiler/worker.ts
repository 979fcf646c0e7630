/**
 * A backend compiler thread (piscina; one pool per backend): a field's IR in, its
 * statements out. It holds no metadata: the IR carries all translation reads (ir/).
 */
import { createHash } from 'node:crypto';
import { workerData } from 'piscina';
import { backendFor, loadBackends } from '../../backends/registry.js';
import { encode } from '../../protocol/codec.js';
import type { CompilerBootData, TranslateAnswer, TranslateTask } from '../../protocol/messages.js';

const boot = workerData as CompilerBootData;
const options = { stringifyNumeric: boot.stringifyNumericTypes };
// The pool's backend is loaded as the thread starts (pools start with the first snapshot naming
// their kind), not by the first request's field; a failure is the first task's to report.
void loadBackends([boot.sourceKind])?.catch(() => {});

/** A prepared statement's name: a hash of its text (each connection keeps a bounded set, see PreparedStatements). */
const statementName = (text: string): string => 's' + createHash('sha1').update(text).digest('base64url').slice(0, 20);
const preparedName = (task: TranslateTask, text: string): string | null => (task.prepared ? statementName(text) : null);

export default async function translateTask(task: TranslateTask): Promise<Uint8Array> {
  // Loaded already, or being loaded since the thread started (this thread never loads another).
  await loadBackends([task.sourceKind]);
  const backend = backendFor(task.sourceKind);
  // Analysis only sends fields of sources that were introspected, which needs a backend.
  if (!backend) throw new Error(`source ${JSON.stringify(task.source)} has no backend`);
  const { field } = task;
  let answer: TranslateAnswer;
  if (field.kind === 'query') {
    const live = task.live && backend.translateLiveField ? backend.translateLiveField(field.root, options) : null;
    const t = live ?? backend.translateRootField(field.root, options);
    const run: TranslateAnswer['run'] = { kind: 'sql', source: task.source, text: t.text, params: t.params, statement: preparedName(task, t.text) };
    // Prepared whatever the source says (as upstream does): the same text runs every refetch interval.
    if (live) run.multiplexed = { text: live.multiplexed, statement: statementName(live.multiplexed) };
    if (live?.stream) run.stream = live.stream;
    answer = { run, sessionVariables: t.sessionVariables, wholeSession: t.wholeSession };
  } else {
    const t = backend.translateMutation(field.mutation, options);
    answer = {
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
  return encode(answer);
}
