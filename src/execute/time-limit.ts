/**
 * A request's time limit (`api_limits.time_limit`, seconds, fractions allowed): the request
 * fails with `time-limit-exceeded` at the deadline, whatever is still running (a remote
 * schema's or an action's call is left unanswered), and its statements are cancelled on the
 * database (`SourceConnection`'s `deadline`).
 */
import { LimitExceeded } from '../errors/request.js';

export const timeLimitExceeded = (seconds: number) => new LimitExceeded(`time limit of ${seconds} seconds exceeded`, 'time-limit-exceeded');

/** `run` gets the deadline (`performance.now()` time) to hand to its statements. */
export async function withinTimeLimit<T>(seconds: number, run: (deadline: number) => Promise<T>): Promise<T> {
  const ms = seconds * 1000;
  const deadline = performance.now() + ms;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timeLimitExceeded(seconds)), ms);
  });
  try {
    return await Promise.race([run(deadline), expired]);
  } catch (e) {
    // A statement cancelled at the deadline fails with the database's own words ("canceling statement due to user request").
    throw performance.now() >= deadline ? timeLimitExceeded(seconds) : e;
  } finally {
    clearTimeout(timer);
  }
}
