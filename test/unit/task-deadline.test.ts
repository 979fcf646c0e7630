import { describe, expect, it } from 'vitest';
import { withDeadline } from '../../src/actors/task-deadline.js';

describe('a task with a deadline', () => {
  it('answers as the task does within the deadline', async () => {
    expect(await withDeadline('adding', 1000, async () => 42)).toBe(42);
    await expect(withDeadline('adding', 1000, async () => Promise.reject(new Error('its own error')))).rejects.toThrow('its own error');
  });

  it('fails with what took too long, and aborts the task, past the deadline', async () => {
    let aborted = false;
    const never = (signal: AbortSignal) =>
      new Promise<never>((_, reject) =>
        signal.addEventListener('abort', () => {
          aborted = true;
          reject(signal.reason);
        }),
      );
    await expect(withDeadline('analysing the request', 30, never)).rejects.toThrow('analysing the request did not finish within 30 ms');
    expect(aborted).toBe(true);
  });
});
