/** Errors as they cross threads (whole), and as the administration API's shape answers them (one mapping). */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors/admin.js';
import { toAdminReply } from '../../src/errors/admin-reply.js';
import { ExecutionError } from '../../src/errors/execution.js';
import { InvalidDocumentError, MethodNotAllowed, RequestError } from '../../src/errors/request.js';
import { errorFromWire, errorToWire } from '../../src/errors/wire.js';
import { decode, encode } from '../../src/protocol/codec.js';

/** Through the codec, as an actor's reply carries it. */
const across = (e: unknown) => errorFromWire(decode(encode(errorToWire(e))));

describe('errors across threads', () => {
  it('keep their kind, status, code, path, message and internal', () => {
    const api = across(new ApiError(409, 'conflict', 'metadata resource version referenced (1) did not match', '$.resource_version', { current: 2 }));
    expect(api).toBeInstanceOf(ApiError);
    expect((api as ApiError).body()).toEqual({ path: '$.resource_version', error: 'metadata resource version referenced (1) did not match', code: 'conflict', internal: { current: 2 } });
    expect((api as ApiError).status).toBe(409);

    const invalid = across(new InvalidDocumentError("field 'x' not found in type: 'query_root'", '$.selectionSet.x', 'validation-failed'));
    expect(invalid).toBeInstanceOf(InvalidDocumentError);
    expect((invalid as RequestError).body()).toEqual({ message: "field 'x' not found in type: 'query_root'", extensions: { path: '$.selectionSet.x', code: 'validation-failed' } });
    expect(across(new MethodNotAllowed('mutations are not allowed over GET', '$', 'method-not-allowed'))).toBeInstanceOf(MethodNotAllowed);

    const execution = across(new ExecutionError(new ApiError(400, 'constraint-violation', 'duplicate key', '$.selectionSet.insert_a'), { code: 'x' }));
    expect(execution).toBeInstanceOf(ExecutionError);
    expect((execution as ExecutionError).error.code).toBe('constraint-violation');
    expect((execution as ExecutionError).extensions).toEqual({ code: 'x' });
  });

  it('keep a bug as an Error with the stack of the thread that met it', () => {
    const bug = new TypeError('cannot read properties of undefined');
    const back = across(bug);
    expect(back).toBeInstanceOf(Error);
    expect(back.message).toBe('cannot read properties of undefined');
    expect(back.stack).toBe(bug.stack);
  });
});

describe('administration replies', () => {
  const reply = (e: unknown, internal = true) => {
    const r = toAdminReply(e, { where: 'a test', internal });
    return { status: r.status, body: JSON.parse(r.body) };
  };

  it("answer an ApiError with its status and body, `internal` only where it is the caller's to see", () => {
    const e = new ApiError(400, 'postgres-error', 'query execution failed', '$.args', { statement: 'SELECT 1' });
    expect(reply(e)).toEqual({ status: 400, body: { path: '$.args', error: 'query execution failed', code: 'postgres-error', internal: { statement: 'SELECT 1' } } });
    expect(reply(e, false)).toEqual({ status: 400, body: { path: '$.args', error: 'query execution failed', code: 'postgres-error' } });
  });

  it('answer request and execution errors in the same shape, and a bug 500 without its details', () => {
    expect(reply(new RequestError('expected a string', '$.variables.x', 'validation-failed'))).toEqual({ status: 400, body: { path: '$.variables.x', error: 'expected a string', code: 'validation-failed' } });
    expect(reply(new ExecutionError(new ApiError(400, 'data-exception', 'invalid input syntax', '$.selectionSet.a')))).toEqual({ status: 400, body: { path: '$.selectionSet.a', error: 'invalid input syntax', code: 'data-exception' } });
    expect(reply(new Error('secret detail'))).toEqual({ status: 500, body: { path: '$', error: 'unexpected error in a test', code: 'unexpected' } });
  });
});
