/**
 * An action's form and the calls it makes: the SDL parsed (sdl.ts) into `create_action` or
 * `update_action`'s definition, sent in one bulk after `set_custom_types` with the form's types
 * merged into the existing ones (as the well-known console does), so that either both apply
 * or neither does.
 */
import { metadata as callMetadata } from '../../api/client';
import { linesOf, pairsOf } from './pairs';
import { configuredHeaders, headerRows, type HeaderRow } from '../../ui/HeaderListEditor';
import { mergeCustomTypes, parseActionDefinition, parseCustomTypes, printActionDefinition, printUsedTypes, SdlError, type ParsedAction } from './sdl';
import type { ActionDefinition, ActionEntry, BodyTransform, CustomTypes, RequestTransform, ResponseTransform } from './types';

export interface TransformForm {
  enabled: boolean;
  /** '' keeps the method (POST). */
  method: string;
  url: string;
  /** `name=template` lines. */
  queryParams: string;
  /** `name=template` lines. */
  addHeaders: string;
  /** Names, comma-separated. */
  removeHeaders: string;
  body: string;
  responseBody: string;
}

export interface ActionForm {
  actionSdl: string;
  typesSdl: string;
  handler: string;
  kind: 'synchronous' | 'asynchronous';
  headers: HeaderRow[];
  forwardClientHeaders: boolean;
  /** Seconds, as typed ('' for the engine's default). */
  timeout: string;
  transform: TransformForm;
}

export const NEW_ACTION: ActionForm = {
  actionSdl: 'type Mutation {\n  """Log a user in"""\n  actionName(arg1: SampleInput!): SampleOutput\n}\n',
  typesSdl: 'type SampleOutput {\n  accessToken: String!\n}\n\ninput SampleInput {\n  username: String!\n  password: String!\n}\n',
  handler: '',
  kind: 'synchronous',
  headers: [],
  forwardClientHeaders: false,
  timeout: '',
  transform: { enabled: false, method: '', url: '', queryParams: '', addHeaders: '', removeHeaders: '', body: '', responseBody: '' },
};

const template = (b: BodyTransform | string | undefined) => (typeof b === 'string' ? b : (b?.template ?? ''));

export function formOf(entry: ActionEntry, types: CustomTypes): ActionForm {
  const d = entry.definition;
  const rt = d.request_transform;
  return {
    actionSdl: printActionDefinition(entry.name, d, entry.comment),
    typesSdl: printUsedTypes(d, types),
    handler: d.handler,
    kind: d.kind ?? 'synchronous',
    headers: headerRows(d.headers),
    forwardClientHeaders: d.forward_client_headers ?? false,
    timeout: d.timeout !== undefined ? String(d.timeout) : '',
    transform: {
      enabled: rt !== undefined,
      method: rt?.method ?? '',
      url: rt?.url ?? '',
      // A query string template (rather than a map) is shown as its one line.
      queryParams: typeof rt?.query_params === 'string' ? rt.query_params : linesOf(rt?.query_params),
      addHeaders: linesOf(rt?.request_headers?.add_headers),
      removeHeaders: (rt?.request_headers?.remove_headers ?? []).join(', '),
      body: template(rt?.body),
      responseBody: template(d.response_transform?.body),
    },
  };
}

/** The request transform the form describes (version 2, Kriti templates), or undefined. */
export function requestTransformOf(t: TransformForm): RequestTransform | undefined {
  if (!t.enabled) return undefined;
  const remove = t.removeHeaders.split(',').map((h) => h.trim()).filter(Boolean);
  return {
    version: 2,
    template_engine: 'Kriti',
    ...(t.method ? { method: t.method } : {}),
    ...(t.url.trim() ? { url: t.url.trim() } : {}),
    ...(t.queryParams.trim() ? { query_params: t.queryParams.includes('=') ? pairsOf(t.queryParams) : t.queryParams.trim() } : {}),
    ...(t.addHeaders.trim() || remove.length ? { request_headers: { add_headers: pairsOf(t.addHeaders), remove_headers: remove } } : {}),
    ...(t.body.trim() ? { body: { action: 'transform', template: t.body } } : {}),
  };
}

function responseTransformOf(t: TransformForm): ResponseTransform | undefined {
  if (!t.enabled || !t.responseBody.trim()) return undefined;
  return { version: 2, template_engine: 'Kriti', body: { action: 'transform', template: t.responseBody } };
}

export function definitionOf(form: ActionForm, parsed: ParsedAction): ActionDefinition {
  const headers = configuredHeaders(form.headers);
  const request = requestTransformOf(form.transform);
  const response = responseTransformOf(form.transform);
  return {
    kind: form.kind,
    type: parsed.type,
    arguments: parsed.arguments,
    output_type: parsed.output_type,
    handler: form.handler.trim(),
    ...(headers.length ? { headers } : {}),
    ...(form.forwardClientHeaders ? { forward_client_headers: true } : {}),
    // An unparsable timeout is sent as typed, for the engine to refuse with its path.
    ...(form.timeout.trim() ? { timeout: /^\d+$/.test(form.timeout.trim()) ? Number(form.timeout.trim()) : (form.timeout.trim() as unknown as number) } : {}),
    ...(request ? { request_transform: request } : {}),
    ...(response ? { response_transform: response } : {}),
  };
}

/** What the handler would be sent for the action (`test_webhook_transform`'s sample body), as the engine builds it. */
export function samplePayload(form: ActionForm): string {
  let input: Record<string, unknown> = {};
  let name = 'actionName';
  try {
    const parsed = parseActionDefinition(form.actionSdl);
    name = parsed.name;
    input = Object.fromEntries(parsed.arguments.map((a) => [a.name, /^\[/.test(a.type) ? [] : /^(Int|Float)\b/.test(a.type) ? 0 : /^Boolean\b/.test(a.type) ? false : /^(String|ID)\b/.test(a.type) ? a.name : {}]));
  } catch {
    // A definition that does not parse yet gets a sample without its arguments.
  }
  return JSON.stringify({ action: { name }, input, session_variables: { 'x-service-role': 'user' }, request_query: '' }, null, 2);
}

/**
 * Creates the action or replaces its definition (`update_action`, whose name cannot change:
 * the well-known engine has no rename). Throws `SdlError` for SDL that does not parse, the
 * engine's `ApiFailure` otherwise.
 */
export async function saveAction(form: ActionForm, existingTypes: CustomTypes, existingName?: string): Promise<string> {
  const parsed = parseActionDefinition(form.actionSdl);
  if (existingName !== undefined && parsed.name !== existingName) throw new SdlError(`Action definition: the action is named "${existingName}"; create a new action for another name`);
  const types = mergeCustomTypes(existingTypes, parseCustomTypes(form.typesSdl));
  const args = { name: parsed.name, definition: definitionOf(form, parsed), ...(parsed.comment ? { comment: parsed.comment } : {}) };
  await callMetadata('bulk', [
    { type: 'set_custom_types', args: types },
    { type: existingName === undefined ? 'create_action' : 'update_action', args },
  ]);
  return parsed.name;
}
