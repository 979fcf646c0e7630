/**
 * The schema builder's thread: it follows the metadata snapshots, resolves each one (the
 * metadata layer's resolution, the only one), owns every role's schema (role-schemas.ts),
 * analyses requests against them into plans whose fields are IR (compiler/compile.ts) and has
 * the fields' statements written by its backends' compiler pools (actors/compiler/), which it
 * starts as snapshots name their source kinds: a plan leaves this thread finished.
 */
import { workerData } from 'piscina';
import { encode } from '../../protocol/codec.js';
import { SnapshotReader } from '../../protocol/snapshot.js';
import type { CompileAnswer, SchemaBuilderBoot, SchemaBuilderTask, SnapshotChain } from '../../protocol/messages.js';
import { analyzeRequest } from './analyze-request.js';
import { CompilerPools } from '../compiler/client.js';
import { RoleSchemas } from './role-schemas.js';
import { collectGarbageAfterBurst } from '../../util/collect-garbage.js';

const boot = workerData as SchemaBuilderBoot;
const schemas = new RoleSchemas();
const reader = new SnapshotReader();
const compilers = new CompilerPools(boot.compiler, boot.translateTimeoutMs);

/** The chain's last snapshot: the updates after the one this thread holds (all of them when it holds none of the chain). */
function follow(chain: SnapshotChain) {
  // Read where the metadata actor wrote it: an update is never written again once published.
  for (let i = chain.generations.indexOf(reader.generation ?? -1) + 1; i < chain.updates.length; i++) reader.apply(new Uint8Array(chain.updates[i]!));
  return reader.snapshot;
}

export default async function schemaBuilderTask(task: SchemaBuilderTask): Promise<Uint8Array | null> {
  try {
    return await runTask(task);
  } finally {
    // A whole snapshot update leaves the previous snapshot behind; role schemas leave their builds'.
    collectGarbageAfterBurst();
  }
}

async function runTask(task: SchemaBuilderTask): Promise<Uint8Array | null> {
  switch (task.kind) {
    case 'unstage':
      reader.unstage();
      schemas.unstage();
      return null;
    case 'stage': {
      // From the chain's last snapshot, which the staged one follows (or replaces, if whole).
      const last = task.chain.generations.at(-1);
      if (last !== undefined) schemas.use(last, () => follow(task.chain));
      schemas.stage(reader.stage(new Uint8Array(task.update)));
      return null;
    }
  }
  const tracked = schemas.use(task.generation, () => follow(task.chain));
  if (task.kind === 'follow') {
    // The pools of the snapshot's backends start with it, not with their first request.
    compilers.start(Object.values(tracked.snapshot.sources).map((s) => s.kind));
    return null;
  }
  const analysed = analyzeRequest(schemas, task, tracked.snapshot);
  return encode((analysed.ok ? { ok: true, plan: await compilers.translatePlan(analysed.plan) } : analysed) satisfies CompileAnswer);
}
