/**
 * `websocket-log` lines of a WebSocket's operations, in the well-known engine's shape: one when an
 * operation starts, and one when it completes, is stopped by the client or fails, each
 * `{user_vars, connection_info: {websocket_id, token_expiry, msg}, event: {type: 'operation',
 * detail: {request_id, operation_id, operation_name, operation_type: {type, detail?}, query}}}`.
 * `operation_type` is upstream's name for what happened (`started`, `completed`, `stopped`,
 * `query_err` with the error, `proto_err` with the message). The request is written only when
 * `query-log` is on, as upstream does. Nothing is built while `websocket-log` is off.
 */
import { logs, writeLog } from '../../log.js';
import { firstError } from './graphql-operation.js';

/** What an operation's lines say of it. */
export interface WsOperationInfo {
  websocketId: string;
  requestId: string;
  operationId: string;
  /** The request's payload (`query`, `operationName`, `variables`). */
  request: Record<string, unknown>;
  /** Null when the connection has no session yet (a legacy `start` before `connection_init`). */
  userVars: Record<string, string> | null;
  /** When the connection's credential expires (ms since the epoch). */
  expiresAt: number | undefined;
}

export type WsOperationEvent = { type: 'started' | 'completed' | 'stopped' } | { type: 'query_err'; detail: unknown } | { type: 'proto_err'; detail: string };

export function writeWsOperationLog(op: WsOperationInfo, event: WsOperationEvent): void {
  const level = event.type === 'query_err' || event.type === 'proto_err' ? 'error' : 'info';
  if (!logs('websocket-log', level)) return;
  const name = op.request.operationName;
  writeLog('websocket-log', level, {
    user_vars: op.userVars,
    connection_info: { websocket_id: op.websocketId, token_expiry: op.expiresAt === undefined ? null : new Date(op.expiresAt).toISOString(), msg: null },
    event: {
      type: 'operation',
      detail: {
        request_id: op.requestId,
        operation_id: op.operationId,
        operation_name: typeof name === 'string' ? name : null,
        operation_type: event,
        query: logs('query-log', 'info') ? op.request : null,
      },
    },
  });
}

/** The end of a query or mutation, from its answer's text: `completed`, or `query_err` with its first error. */
export function writeWsAnswerLog(op: WsOperationInfo, answer: string): void {
  if (!logs('websocket-log', 'error')) return;
  const error = firstError(answer);
  writeWsOperationLog(op, error === null ? { type: 'completed' } : { type: 'query_err', detail: error });
}
