/**
 * The engine's graceful shutdown (docs/operations.md "Graceful shutdown"): at the first SIGTERM
 * or SIGINT its parts stop in order, one phase after the other, each by its own deadline and
 * logged in one line when it is done; then the process exits 0. A second signal exits at once,
 * with the shell's code for the signal (128 + its number: 130 for SIGINT, 143 for SIGTERM).
 */
import { constants } from 'node:os';
import { log } from '../log.js';

export interface ShutdownPhase {
  /** What the phase's log line says once it is done (`shutdown: <done>`). */
  done: string;
  /** Runs by `deadline` (epoch ms); what it returns goes into its log line. */
  run(deadline: number): Promise<object | void> | object | void;
  /**
   * Its deadline: this many ms from its start; without it, the drain's deadline
   * (`SERVICE_GRAPHQL_GRACEFUL_SHUTDOWN_TIMEOUT` after the signal), which the phases that let
   * work in flight end share.
   */
  limitMs?: number;
}

/** A phase still running this long after its deadline is left behind (logged), and the next one starts. */
const OVERRUN_MS = 5_000;

/**
 * `phases` are made when the signal comes (with the parts started by then); `atOnce` runs
 * before a second signal's exit (it must not wait for anything).
 */
export function stopOnSignals(timeoutMs: number, phases: () => ShutdownPhase[], atOnce: () => void): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) {
      log.warn('shutdown: second signal, exiting at once', { signal });
      atOnce();
      process.exit(128 + constants.signals[signal]);
    }
    stopping = true;
    void run(signal, timeoutMs, phases()).then(() => process.exit(0));
  };
  process.on('SIGINT', handle);
  process.on('SIGTERM', handle);
}

async function run(signal: NodeJS.Signals, timeoutMs: number, phases: ShutdownPhase[]): Promise<void> {
  const drainDeadline = Date.now() + timeoutMs;
  log.info('shutdown: started', { signal, timeoutSeconds: timeoutMs / 1000 });
  for (const phase of phases) {
    const started = Date.now();
    const deadline = phase.limitMs === undefined ? drainDeadline : started + phase.limitMs;
    let timer: NodeJS.Timeout | undefined;
    const overrun = new Promise<'overrun'>((r) => (timer = setTimeout(() => r('overrun'), Math.max(0, deadline - started) + OVERRUN_MS)));
    try {
      const result = await Promise.race([Promise.resolve(phase.run(deadline)), overrun]);
      if (result === 'overrun') log.warn(`shutdown: left behind past its deadline, before: ${phase.done}`, { ms: Date.now() - started });
      else log.info(`shutdown: ${phase.done}`, { ms: Date.now() - started, ...result });
    } catch (e) {
      log.warn(`shutdown: failed, before: ${phase.done}`, { error: e instanceof Error ? e.message : String(e) });
    } finally {
      clearTimeout(timer);
    }
  }
}
