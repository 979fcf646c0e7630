/**
 * A deadline for a piscina task, as actor requests have one (`SERVICE_GRAPHQL_ACTOR_TIMEOUT`):
 * a task still queued is dropped, one running ends with its thread (piscina starts another), and
 * the request fails with a message that says which work took too long, instead of hanging.
 */
export async function withDeadline<T>(what: string, timeoutMs: number, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    return await run(signal);
  } catch (e) {
    if (signal.aborted) throw new Error(`${what} did not finish within ${timeoutMs} ms`);
    throw e;
  }
}
