/**
 * Errors of a GraphQL request as the well-known engine reports them: message, JSON path into the
 * request, code.
 */

/** A GraphQL error as answered (and as it crosses threads): message, and its path and code. */
export interface GraphQLErrorBody {
  message: string;
  extensions: { path: string; code: string; internal?: unknown };
}

export class RequestError extends Error {
  constructor(
    message: string,
    readonly path: string,
    readonly code = 'validation-failed',
  ) {
    super(message);
  }

  body(): GraphQLErrorBody {
    return { message: this.message, extensions: { path: this.path, code: this.code } };
  }
}

/**
 * The document itself does not hold for the role's schema (it does not parse, names no such
 * operation, fails validation), whatever the variables: the same request fails the same way
 * until the schema changes, so the verdict is kept beside the plans.
 */
export class InvalidDocumentError extends RequestError {}

/** A mutation or subscription over GET (GraphQL over HTTP: GET is for queries only): 405. */
export class MethodNotAllowed extends RequestError {}

/**
 * A request over one of the API limits (`api_limits`): its code names the limit
 * (`rate-limit-exceeded`, `depth-limit-exceeded`...). `status` under
 * `application/graphql-response+json` and on RESTified endpoints: 429 for the rate limit, else 400.
 */
export class LimitExceeded extends RequestError {
  constructor(
    message: string,
    code: string,
    readonly status = 400,
  ) {
    super(message, '$', code);
  }
}
