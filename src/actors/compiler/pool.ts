/** The main-thread side of the compiler pool (piscina): runs a compile off the front thread. */
import { Piscina } from 'piscina';
import { availableParallelism } from 'node:os';
import { decode } from '../../protocol/codec.js';
import type { PublishedSnapshot } from '../../protocol/snapshot.js';
import type { CompileAnswer, CompileTask, CompilerOptions } from '../../protocol/messages.js';

export class CompilerPool {
  private readonly pool: Piscina;

  constructor(options: CompilerOptions) {
    this.pool = new Piscina({
      filename: new URL('./worker.js', import.meta.url).href,
      minThreads: 1,
      maxThreads: Math.max(1, Math.min(4, availableParallelism() - 1)),
      workerData: options,
    });
  }

  private shared: { generation: number; buffer: SharedArrayBuffer } | null = null;

  /** The encoded snapshot in shared memory, copied there once per version and read by every compiler thread. */
  private snapshotBuffer(snapshot: PublishedSnapshot): SharedArrayBuffer {
    if (this.shared?.generation !== snapshot.generation) {
      const buffer = new SharedArrayBuffer(snapshot.encoded.byteLength);
      new Uint8Array(buffer).set(snapshot.encoded);
      this.shared = { generation: snapshot.generation, buffer };
    }
    return this.shared.buffer;
  }

  async compile(snapshot: PublishedSnapshot, req: Omit<CompileTask, 'generation' | 'snapshot'>): Promise<CompileAnswer> {
    const task: CompileTask = { ...req, generation: snapshot.generation, snapshot: this.snapshotBuffer(snapshot) };
    const bytes = (await this.pool.run(task)) as Uint8Array;
    return decode<CompileAnswer>(bytes);
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
