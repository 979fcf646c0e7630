/**
 * The engine's admin API as the tool calls it: `/v1/metadata` and `/v2/query` with the admin
 * secret. An answer the engine refuses becomes a `CliError` carrying its `{path, error, code}`;
 * an engine that cannot be reached, one with exit code `EXIT.unreachable`.
 */
import { CliError, EXIT } from './errors.js';
import type { Project } from './project.js';

export interface AdminError {
  path?: string;
  error?: string;
  code?: string;
}

export class EngineClient {
  constructor(private readonly project: Pick<Project, 'endpoint' | 'adminSecret'>) {}

  /** A `/v1/metadata` call; its answer, or a `CliError` with the engine's error. */
  metadata<T = unknown>(type: string, args: unknown, extra: Record<string, unknown> = {}): Promise<T> {
    return this.post<T>('/v1/metadata', { type, args, ...extra });
  }

  /** A `/v2/query` call (`run_sql` and the other schema operations). */
  query<T = unknown>(type: string, args: unknown): Promise<T> {
    return this.post<T>('/v2/query', { type, args });
  }

  /** `/v1alpha1/pg_dump`: the text `pg_dump` writes with these options, for the source's database. */
  pgDump(opts: string[], source: string): Promise<string> {
    return this.post<string>('/v1alpha1/pg_dump', { opts, clean_output: true, source }, false);
  }

  /** `json`: the answer is JSON (else text, as `pg_dump` answers); an error answer is JSON either way. */
  async post<T>(path: string, body: unknown, json = true): Promise<T> {
    const url = this.project.endpoint + path;
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(this.project.adminSecret ? { 'x-service-admin-secret': this.project.adminSecret } : {}) },
        body: JSON.stringify(body),
      });
    } catch (e) {
      const cause = (e as { cause?: { message?: string } }).cause?.message ?? (e as Error).message;
      throw new CliError(`cannot reach the engine at ${this.project.endpoint}: ${cause}`, EXIT.unreachable);
    }
    const text = await res.text();
    if (res.ok && !json) return text as T;
    let answer: unknown;
    try {
      answer = JSON.parse(text);
    } catch {
      throw new CliError(`${url} answered ${res.status} with something that is not JSON: ${text.slice(0, 200)}`);
    }
    if (!res.ok) {
      const e = answer as AdminError;
      const where = e.path && e.path !== '$' ? ` (at ${e.path})` : '';
      throw new CliError(`${e.error ?? `status ${res.status}`}${where}${e.code ? ` [${e.code}]` : ''}`, EXIT.failed, answer);
    }
    return answer as T;
  }
}
