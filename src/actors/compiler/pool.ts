/**
 * The main-thread side of the compiler pools (piscina), one per backend: each translates
 * fields of its backend's sources into statements, off the front thread. A pool starts when a
 * snapshot first has a source of its backend (`start`), or on the first field of its backend:
 * starting a thread and loading its modules took the first request 0.17 s.
 */
import { Piscina } from 'piscina';
import { availableParallelism } from 'node:os';
import { translatingKind } from '../../backends/registry.js';
import { decode } from '../../protocol/codec.js';
import type { CompilerBootData, CompilerOptions, TranslateAnswer, TranslateTask } from '../../protocol/messages.js';
import { withDeadline } from '../task-deadline.js';

export class CompilerPools {
  private readonly pools = new Map<string, Piscina>();

  constructor(
    private readonly options: CompilerOptions,
    /** How long one field's translation may take. */
    private readonly timeoutMs: number,
  ) {}

  async translate(task: TranslateTask): Promise<TranslateAnswer> {
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

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((p) => p.destroy()));
  }
}
