/**
 * What one delivery attempt of an event records and what follows from it, the same for a
 * trigger's event (in its source's event log, `backends/`) and a scheduled one (in the metadata
 * database, `scheduled-events.ts`): the shape of the invocation logs, as the well-known engine's.
 */

/** One delivery attempt, as recorded. */
export interface InvocationRecord {
  status: number | null;
  request: unknown;
  response: unknown;
  durationMs: number;
}

export type EventOutcome = { kind: 'delivered' } | { kind: 'retry'; afterSeconds: number } | { kind: 'error' };
