/** The compiler pool's task and answer (msgpack-encoded across the thread boundary). */
import type { GraphQLErrorBody, Plan } from '../../protocol/plan.js';

export interface CompileTask {
  /** The snapshot generation the plan is for, and the encoded snapshot itself (JSON text in shared memory). */
  generation: number;
  snapshot: SharedArrayBuffer;
  role: string;
  /** The request may use `backend_only` mutation permissions. */
  backendOnly: boolean;
  query: string;
  operationName: string | null;
  variables: Record<string, unknown>;
}

export type CompileAnswer = { ok: true; plan: Plan } | { ok: false; errors: GraphQLErrorBody[] };

/** Settings every compiler thread starts with (piscina `workerData`). */
export interface CompilerOptions {
  stringifyNumericTypes: boolean;
}
