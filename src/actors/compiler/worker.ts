/** A compiler pool thread (piscina): a request and a role in, a Plan or GraphQL errors out. */
import { encode } from '../../protocol/codec.js';
import { SnapshotReader } from '../../protocol/snapshot.js';
import { compile } from '../../compiler/compile.js';
import { RequestError } from '../../compiler/errors.js';
import { createTranslateContext } from '../../compiler/translate-context.js';
import { backendFor } from '../../backends/registry.js';
import type { CompileAnswer, CompileTask, CompilerOptions, SnapshotChain } from '../../protocol/messages.js';
import { workerData } from 'piscina';
import { RoleSchemas } from './role-schemas.js';

const schemas = new RoleSchemas();
const options = workerData as CompilerOptions;
const reader = new SnapshotReader();

/** The chain's last snapshot: the updates after the one this thread holds (all of them when it holds none of the chain). */
function follow(chain: SnapshotChain) {
  // Each read from a private copy: text decoding reads plain memory.
  for (let i = chain.generations.indexOf(reader.generation ?? -1) + 1; i < chain.updates.length; i++) reader.apply(new Uint8Array(chain.updates[i]!).slice());
  return reader.snapshot;
}

export default function compileTask(task: CompileTask): Uint8Array {
  const tracked = schemas.use(task.generation, () => follow(task.chain));
  let answer: CompileAnswer;
  try {
    const rs = schemas.get(task.role, task.backendOnly);
    const sourceOf = (name: string) => tracked.snapshot.metadata.sources.find((x) => x.name === name);
    const plan = compile(rs, task, {
      translateContext: (r, source) => createTranslateContext(tracked, r, source, options.stringifyNumericTypes),
      backend: (source) => {
        const backend = backendFor(sourceOf(source)?.kind ?? '');
        // Schemas hold only tables of sources that were introspected, which needs a backend.
        if (!backend) throw new Error(`source ${JSON.stringify(source)} has no backend`);
        return backend;
      },
      prepared: (source) => {
        const s = sourceOf(source);
        return s ? (backendFor(s.kind)?.usesPreparedStatements(s.configuration) ?? false) : false;
      },
    });
    answer = { ok: true, plan };
  } catch (e) {
    if (!(e instanceof RequestError)) throw e;
    answer = { ok: false, errors: [e.body()] };
  }
  return encode(answer);
}
