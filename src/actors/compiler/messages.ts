/** The compiler pool's task and answer (msgpack-encoded across the thread boundary). */
import type { GraphQLErrorBody, Plan } from '../../protocol/plan.js';

/** The snapshot updates from the last whole one to the current one (`PublishedSnapshot.update`, in shared memory). */
export interface SnapshotChain {
  generations: number[];
  updates: SharedArrayBuffer[];
}

export interface CompileTask {
  /** The snapshot generation the plan is for, and how to get there. */
  generation: number;
  chain: SnapshotChain;
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
