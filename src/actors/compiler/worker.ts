/**
 * A backend compiler thread (piscina; one pool per backend): a field's IR in, its
 * statements out. It holds no metadata: the IR carries all translation reads (ir/).
 */
import { workerData } from 'piscina';
import { loadFaces, translatorFor } from '../../backends/registry.js';
import { encode } from '../../protocol/codec.js';
import type { CompilerBootData, TranslateTask } from '../../protocol/messages.js';
import { translateField } from '../../compiler/translation.js';

const boot = workerData as CompilerBootData;
const options = { stringifyNumeric: boot.stringifyNumericTypes };
// The pool's backend's translator is loaded as the thread starts (pools start with the first snapshot naming
// their kind), not by the first request's field; a failure is the first task's to report.
void loadFaces('translator', [boot.sourceKind])?.catch(() => {});

export default async function translateTask(task: TranslateTask): Promise<Uint8Array> {
  // Loaded already, or being loaded since the thread started (this thread never loads another).
  await loadFaces('translator', [task.sourceKind]);
  const backend = translatorFor(task.sourceKind);
  // Analysis only sends fields of sources that were introspected, which needs a backend.
  if (!backend) throw new Error(`source ${JSON.stringify(task.source)} has no backend`);
  return encode(translateField(backend, task, options));
}
