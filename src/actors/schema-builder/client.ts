/**
 * The main-thread side of the schema-builder actor: one thread (piscina keeps it and
 * replaces it if it dies) that owns the role schemas and compiles requests into plans, its
 * backends' compiler pools translating their fields (so a plan leaves it finished: the front
 * thread never sees a field's IR). Snapshot updates reach it through shared memory; after each
 * new snapshot it is asked to catch up while no request waits, so that the first request after
 * a change finds the snapshot resolved.
 */
import { Piscina } from 'piscina';
import { decode } from '../../protocol/codec.js';
import { log } from '../../log.js';
import type { PublishedSnapshot } from '../../protocol/snapshot.js';
import type { AnalyzeRequest, CompileAnswer, CompilerOptions, SchemaBuilderBoot, SchemaBuilderTask, SnapshotChain } from '../../protocol/messages.js';
import { withDeadline } from '../task-deadline.js';
import { SnapshotBus } from '../snapshot-bus.js';

export class SchemaBuilder {
  private readonly pool: Piscina;
  /**
   * The snapshot updates since the last whole one (in the shared memory the metadata actor
   * wrote them into): the thread applies those it has not seen yet (a restarted one, all of them).
   */
  private chain: SnapshotChain = { generations: [], updates: [] };
  /**
   * The snapshots it has in its chain, published on: whoever compiles follows these (the front
   * thread's GraphQL service), so a compile for a snapshot always finds it here.
   */
  readonly published = new SnapshotBus<PublishedSnapshot>();
  /** A catch-up task is queued or running; `again`: a snapshot came since it was queued. */
  private following = false;
  private again = false;

  /** `timeoutMs`: how long a compile may take, and each of its fields' translation (following a snapshot has no deadline: it is never waited for by a request alone). */
  constructor(
    compiler: CompilerOptions,
    private readonly timeoutMs: number,
  ) {
    this.pool = new Piscina({
      filename: new URL('./worker.js', import.meta.url).href,
      minThreads: 1,
      maxThreads: 1,
      idleTimeout: Number.MAX_SAFE_INTEGER,
      workerData: { compiler, translateTimeoutMs: timeoutMs } satisfies SchemaBuilderBoot,
      // A compile waits for its fields' translation in the compiler pools: meanwhile the thread
      // takes the next tasks (analysis itself runs to its end before the next task starts).
      concurrentTasksPerWorker: 16,
      // Between tasks the thread runs its event loop (not a blocking wait): it collects its garbage when idle.
      atomics: 'async',
      // Tasks run in the order sent: each brings the chain of its time, and one run after a later
      // one would take the thread back to an earlier snapshot (a whole one read again, 0.6 s at
      // 5,000 tables). By default a task the busy thread could not take goes to the queue's tail.
      stricterFIFO: true,
    });
  }

  /** Every published snapshot, in order: an update is only readable after those before it. */
  publish(snapshot: PublishedSnapshot): void {
    const { buffer } = snapshot.update;
    const last = this.chain.generations.at(-1);
    if (snapshot.base === null || snapshot.base !== last) {
      if (snapshot.base !== null) throw new Error(`snapshot ${snapshot.generation} follows ${snapshot.base}, not ${String(last)}`);
      this.chain = { generations: [], updates: [] };
    }
    // A new chain object: tasks already sent keep the one they were given.
    this.chain = { generations: [...this.chain.generations, snapshot.generation], updates: [...this.chain.updates, buffer] };
    this.catchUp();
    this.published.publish(snapshot);
  }

  /**
   * A change's snapshot while the store writes it: the thread takes it in now (parse and
   * resolution, a second at 5,000 tables), so that its publication finds it done; null drops it.
   * Only one that follows the chain can be taken in ahead.
   */
  stage(snapshot: PublishedSnapshot | null): void {
    if (snapshot !== null && snapshot.base !== null && snapshot.base !== this.chain.generations.at(-1)) return;
    const task: SchemaBuilderTask = snapshot ? { kind: 'stage', chain: this.chain, update: snapshot.update.buffer } : { kind: 'unstage' };
    this.pool.run(task).catch((e: unknown) => log.error('the schema builder failed to take in a staged snapshot', { error: e instanceof Error ? (e.stack ?? e.message) : String(e) }));
  }

  /** One catch-up at a time, to the latest snapshot: a burst of changes costs one resolution. */
  private catchUp(): void {
    if (this.following) {
      this.again = true;
      return;
    }
    this.following = true;
    this.again = false;
    const task: SchemaBuilderTask = { kind: 'follow', generation: this.chain.generations.at(-1)!, chain: this.chain };
    this.pool
      .run(task)
      .catch((e: unknown) => log.error('the schema builder failed to follow a snapshot', { error: e instanceof Error ? (e.stack ?? e.message) : String(e) }))
      .finally(() => {
        this.following = false;
        if (this.again) this.catchUp();
      });
  }

  /** The request's plan for the role, or its errors. */
  async compile(snapshot: PublishedSnapshot, req: AnalyzeRequest): Promise<CompileAnswer> {
    if (this.chain.generations.at(-1) !== snapshot.generation) throw new Error(`snapshot ${snapshot.generation} was not published to the schema builder`);
    const task: SchemaBuilderTask = { kind: 'compile', ...req, generation: snapshot.generation, chain: this.chain };
    const bytes = await withDeadline('compiling the request', this.timeoutMs, (signal) => this.pool.run(task, { signal }));
    return decode<CompileAnswer>(bytes as Uint8Array);
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
