/** A compiler pool thread (piscina): a request and a role in, a Plan or GraphQL errors out. */
import { encode } from '../../protocol/codec.js';
import { decodeSnapshot } from '../../protocol/snapshot.js';
import { compile } from '../../compiler/compile.js';
import { RequestError } from '../../compiler/errors.js';
import { createTranslateContext } from '../../compiler/translate-context.js';
import { connectionInfo } from '../../backends/pg/connection.js';
import type { CompileAnswer, CompileTask, CompilerOptions } from '../../protocol/messages.js';
import { workerData } from 'piscina';
import { RoleSchemas } from './role-schemas.js';

const schemas = new RoleSchemas();
const options = workerData as CompilerOptions;

export default function compileTask(task: CompileTask): Uint8Array {
  // Decoded from a private copy: text decoding reads plain memory.
  const tracked = schemas.use(task.generation, () => decodeSnapshot(new Uint8Array(task.snapshot).slice()));
  let answer: CompileAnswer;
  try {
    const rs = schemas.get(task.role, task.backendOnly);
    const plan = compile(rs, task, {
      translateContext: (r, source) => createTranslateContext(tracked, r, source, options.stringifyNumericTypes),
      prepared: (source) => {
        const s = tracked.snapshot.metadata.sources.find((x) => x.name === source);
        return s ? connectionInfo(s.configuration).use_prepared_statements : false;
      },
    });
    answer = { ok: true, plan };
  } catch (e) {
    if (!(e instanceof RequestError)) throw e;
    answer = { ok: false, errors: [e.body()] };
  }
  return encode(answer);
}
