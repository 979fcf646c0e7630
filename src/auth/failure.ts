/**
 * A refused request, with the status, `code` and message the well-known engine answers
 * (`invalid-jwt`, `access-denied`, `invalid-headers`, ...). Inside `src/auth` a refusal is
 * thrown as an `AuthError`; `resolve.ts` hands it out as a plain `AuthFailure` value.
 */
export interface AuthFailure {
  status: number;
  code: string;
  message: string;
  /** Response headers to send with the refusal (`set-cookie` from a webhook's 401). */
  headers?: Record<string, string[]>;
}

export class AuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers?: Record<string, string[]>,
  ) {
    super(message);
  }

  failure(): AuthFailure {
    const f: AuthFailure = { status: this.status, code: this.code, message: this.message };
    if (this.headers) f.headers = this.headers;
    return f;
  }
}

export const isAuthFailure = (result: object): result is AuthFailure => 'status' in result && 'code' in result;

/** Anything the engine itself got wrong or could not reach: 500 `unexpected`, as upstream. */
export const internalError = (message: string) => new AuthError(500, 'unexpected', message);

export const invalidJwt = (reason: string) => new AuthError(400, 'invalid-jwt', `Could not verify JWT: ${reason}`);
export const invalidClaims = (message: string) => new AuthError(400, 'jwt-invalid-claims', message);
