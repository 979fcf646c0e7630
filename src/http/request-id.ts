/** A request's id: the client's `x-request-id` when it sends one, else a new one (as the well-known engine does). */
import { randomUUID } from 'node:crypto';

export const requestId = (headers: Record<string, string>): string => headers['x-request-id'] || randomUUID();
