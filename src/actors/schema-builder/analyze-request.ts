/** A request analysed for its role against the schema builder's schemas: the first half of a compile (the thread's, and the golden tests'). */
import { allowlistOf, NotAllowedError } from '../../compiler/allowlist.js';
import { analyze } from '../../compiler/compile.js';
import { InvalidDocumentError, RequestError } from '../../errors/request.js';
import type { AnalyzedPlan, AnalyzeRequest, CompileFailure } from '../../protocol/messages.js';
import type { MetadataSnapshot } from '../../protocol/snapshot.js';
import type { RoleSchemas } from './role-schemas.js';

/** The request analysed for its role: a plan whose fields are still IR, or the request's errors. */
export function analyzeRequest(schemas: RoleSchemas, task: AnalyzeRequest, snapshot: MetadataSnapshot): { ok: true; plan: AnalyzedPlan } | CompileFailure {
  try {
    const rs = schemas.get(task.role, task.backendOnly);
    const allowlist = task.allowlist ? allowlistOf(snapshot.metadata) : null;
    const plan = analyze(rs, task, {
      allowed: allowlist ? (doc) => allowlist.allows(task.role, doc) : undefined,
      // This thread loads no backend: the metadata actor says what it needs of each source.
      source: (name) => {
        const s = snapshot.sources[name];
        return { kind: s?.kind ?? '', prepared: s?.preparesStatements === true };
      },
    });
    return { ok: true, plan };
  } catch (e) {
    if (!(e instanceof RequestError)) throw e;
    const holds = e instanceof NotAllowedError ? 'allowlist' : e instanceof InvalidDocumentError ? 'schema' : null;
    return { ok: false, errors: [e.body()], ...(holds ? { holds } : {}) };
  }
}
