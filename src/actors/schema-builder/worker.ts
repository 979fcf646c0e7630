/**
 * The schema builder's thread: it follows the metadata snapshots, resolves each one (the
 * metadata layer's resolution, the only one), owns every role's schema (role-schemas.ts)
 * and analyses requests against them into plans whose fields are IR (compiler/compile.ts).
 * Statements are written by the backends' compiler pools.
 */
import { encode } from '../../protocol/codec.js';
import { SnapshotReader } from '../../protocol/snapshot.js';
import { analyze } from '../../compiler/compile.js';
import { InvalidDocumentError, RequestError } from '../../errors/request.js';
import { allowlistOf, NotAllowedError } from '../../compiler/allowlist.js';
import type { AnalyzeAnswer, SchemaBuilderTask, SnapshotChain } from '../../protocol/messages.js';
import { RoleSchemas } from './role-schemas.js';
import { collectGarbageWhenIdle } from '../../util/collect-garbage.js';

const schemas = new RoleSchemas();
const reader = new SnapshotReader();

/** The chain's last snapshot: the updates after the one this thread holds (all of them when it holds none of the chain). */
function follow(chain: SnapshotChain) {
  // Read where the metadata actor wrote it: an update is never written again once published.
  for (let i = chain.generations.indexOf(reader.generation ?? -1) + 1; i < chain.updates.length; i++) reader.apply(new Uint8Array(chain.updates[i]!));
  return reader.snapshot;
}

export default function schemaBuilderTask(task: SchemaBuilderTask): Uint8Array | null {
  try {
    return runTask(task);
  } finally {
    // A whole snapshot update leaves the previous snapshot behind; role schemas leave their builds'.
    collectGarbageWhenIdle();
  }
}

function runTask(task: SchemaBuilderTask): Uint8Array | null {
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
  if (task.kind === 'follow') return null;
  let answer: AnalyzeAnswer;
  try {
    const rs = schemas.get(task.role, task.backendOnly);
    const allowlist = task.allowlist ? allowlistOf(tracked.snapshot.metadata) : null;
    const plan = analyze(rs, task, {
      allowed: allowlist ? (doc) => allowlist.allows(task.role, doc) : undefined,
      // This thread loads no backend: the metadata actor says what it needs of each source.
      source: (name) => {
        const s = tracked.snapshot.sources[name];
        return { kind: s?.kind ?? '', prepared: s?.preparesStatements === true };
      },
    });
    answer = { ok: true, plan };
  } catch (e) {
    if (!(e instanceof RequestError)) throw e;
    const holds = e instanceof NotAllowedError ? 'allowlist' : e instanceof InvalidDocumentError ? 'schema' : null;
    answer = { ok: false, errors: [e.body()], ...(holds ? { holds } : {}) };
  }
  return encode(answer);
}
