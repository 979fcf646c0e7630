/**
 * The compiler pools (piscina), one per backend, as the schema builder's thread uses them: each
 * translates fields of its backend's sources into statements, concurrently. A pool starts when a
 * snapshot first has a source of its backend (`start`), or on the first field of its backend:
 * starting a thread and loading its modules took the first request 0.17 s.
 */
import { Piscina } from 'piscina';
import { availableParallelism } from 'node:os';
import { translatingKind } from '../../backends/registry.js';
import { decode } from '../../protocol/codec.js';
import type { AnalyzedPlan, CompilerBootData, CompilerOptions, TranslateAnswer, TranslateTask } from '../../protocol/messages.js';
import type { Plan } from '../../protocol/plan.js';
import { translatePlan } from '../../compiler/translation.js';
import { withDeadline } from '../task-deadline.js';

export class CompilerPools {
  private readonly pools = new Map<string, Piscina>();

  constructor(
    private readonly options: CompilerOptions,
    /** How long one field's translation may take. */
    private readonly timeoutMs: number,
  ) {}

  /** An analysed plan with its fields' statements written, and the session variables they read. */
  translatePlan(plan: AnalyzedPlan): Promise<Plan> {
    return translatePlan(plan, (task) => this.translate(task));
  }

  private async translate(task: TranslateTask): Promise<TranslateAnswer> {
    const pool = this.pool(task.sourceKind);
    const bytes = await withDeadline(`translating a field of source ${JSON.stringify(task.source)}`, this.timeoutMs, (signal) => pool.run(task, { signal }));
    return decode<TranslateAnswer>(bytes as Uint8Array);
  }

  /** Starts the pools of these source kinds' backends, if not started yet. */
  start(sourceKinds: Iterable<string>): void {
    for (const kind of sourceKinds) this.pool(kind);
  }

  /** The pool of a source kind's backend (sources of kinds sharing a backend share its pool). */
  private pool(sourceKind: string): Piscina {
    const backend = translatingKind(sourceKind);
    let pool = this.pools.get(backend);
    if (!pool) {
      pool = new Piscina({
        filename: new URL('./worker.js', import.meta.url).href,
        minThreads: 1,
        maxThreads: Math.max(1, Math.min(4, availableParallelism() - 1)),
        workerData: { ...this.options, sourceKind: backend } satisfies CompilerBootData,
      });
      this.pools.set(backend, pool);
    }
    return pool;
  }
}
