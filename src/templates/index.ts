/**
 * The request-transformation template language (the spec's `Tmpl`, Hasura's Kriti):
 * JSON text with `{{ ... }}` expressions. Parse once with `parseTemplate`, or parse and
 * evaluate in one step with `renderTemplate`.
 */
import type { TemplateError } from './errors.js';
import { evaluate } from './evaluate.js';
import { BASIC_FUNCTIONS, getSessionVariable, type TemplateFunction, type TemplateFunctions } from './functions.js';
import type { JsonValue } from './json.js';
import { parse, type Node } from './parser.js';

export type { SourcePosition, TemplateError } from './errors.js';
export type { FunctionResult, TemplateFunction, TemplateFunctions } from './functions.js';
export type { JsonValue } from './json.js';
export type { Node as TemplateAst } from './parser.js';

export type ParseTemplateResult = { ok: true; ast: Node } | { ok: false; errors: TemplateError[] };
export type RenderResult = { ok: true; value: JsonValue } | { ok: false; errors: TemplateError[] };

export function parseTemplate(template: string): ParseTemplateResult {
  const r = parse(template);
  return r.ok ? r : { ok: false, errors: [r.error] };
}

/**
 * Evaluates a parsed template. `env` binds variables by their full name (`$body`,
 * `$session_variables`, ...). The built-in functions come first, then
 * `getSessionVariable` (reading `env.$session_variables`), then `functions`, so a
 * caller cannot shadow a built-in, as in Hasura.
 */
export function evaluateTemplate(ast: Node, env: Record<string, unknown>, functions: TemplateFunctions = {}): RenderResult {
  const bindings = new Map<string, JsonValue>();
  for (const [k, v] of Object.entries(env)) if (v !== undefined) bindings.set(k, v as JsonValue);
  const fns = new Map<string, TemplateFunction>(Object.entries(functions));
  fns.set('getSessionVariable', getSessionVariable(bindings.get('$session_variables')));
  for (const [name, f] of Object.entries(BASIC_FUNCTIONS)) fns.set(name, f);
  const r = evaluate(ast, bindings, fns);
  return r.ok ? r : { ok: false, errors: [r.error] };
}

export function renderTemplate(
  template: string,
  env: Record<string, unknown>,
  functions: TemplateFunctions = {},
): RenderResult {
  const parsed = parseTemplate(template);
  return parsed.ok ? evaluateTemplate(parsed.ast, env, functions) : parsed;
}
