/** The main-thread side of the compiler pool (piscina): runs a compile off the front thread. */
import { Piscina } from 'piscina';
import { availableParallelism } from 'node:os';
import { decode } from '../../protocol/codec.js';
import type { PublishedSnapshot } from '../../protocol/snapshot.js';
import type { CompileAnswer, CompileTask, CompilerOptions, SnapshotChain } from '../../protocol/messages.js';

export class CompilerPool {
  private readonly pool: Piscina;
  /**
   * The snapshot updates since the last whole one, each copied once into shared memory and
   * read by every compiler thread: a thread applies those it has not seen yet.
   */
  private chain: SnapshotChain = { generations: [], updates: [] };

  constructor(options: CompilerOptions) {
    this.pool = new Piscina({
      filename: new URL('./worker.js', import.meta.url).href,
      minThreads: 1,
      maxThreads: Math.max(1, Math.min(4, availableParallelism() - 1)),
      workerData: options,
    });
  }

  /** Every published snapshot, in order: an update is only readable after those before it. */
  publish(snapshot: PublishedSnapshot): void {
    const buffer = new SharedArrayBuffer(snapshot.update.byteLength);
    new Uint8Array(buffer).set(snapshot.update);
    const last = this.chain.generations.at(-1);
    if (snapshot.base === null || snapshot.base !== last) {
      if (snapshot.base !== null) throw new Error(`snapshot ${snapshot.generation} follows ${snapshot.base}, not ${String(last)}`);
      this.chain = { generations: [], updates: [] };
    }
    // A new chain object: tasks already sent keep the one they were given.
    this.chain = { generations: [...this.chain.generations, snapshot.generation], updates: [...this.chain.updates, buffer] };
  }

  async compile(snapshot: PublishedSnapshot, req: Omit<CompileTask, 'generation' | 'chain'>): Promise<CompileAnswer> {
    if (this.chain.generations.at(-1) !== snapshot.generation) throw new Error(`snapshot ${snapshot.generation} was not published to the compiler pool`);
    const task: CompileTask = { ...req, generation: snapshot.generation, chain: this.chain };
    const bytes = (await this.pool.run(task)) as Uint8Array;
    return decode<CompileAnswer>(bytes);
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
