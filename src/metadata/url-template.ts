/**
 * URLs with `{{NAME}}` environment variables in them (`{{ACTION_BASE_URL}}/hello`), as the
 * well-known engine takes them wherever a webhook or server URL is given: actions' handlers,
 * event triggers' and scheduled triggers' webhooks, remote schemas' urls. The metadata keeps
 * the template as given; the URL is made from the engine's environment when it is resolved
 * (and again at each call), so an unset variable makes the object inconsistent, not the
 * document refused.
 */

const VARIABLE = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** The environment variables a template reads, in order (none for a plain URL). */
export const templateVariables = (template: string): string[] => [...template.matchAll(VARIABLE)].map((m) => m[1]!);

/**
 * The template's URL with its variables filled in from `env` (a plain URL as it is); an Error
 * naming what is missing (the well-known engine's words: "Value for environment variables not
 * found: A, B") or which variables made a URL that is not absolute http(s).
 */
export function fillUrlTemplate(template: string, env: NodeJS.ProcessEnv): string {
  const names = templateVariables(template);
  const missing = [...new Set(names.filter((name) => env[name] === undefined))];
  if (missing.length > 0) throw new Error(`Value for environment variables not found: ${missing.join(', ')}`);
  const text = template.replace(VARIABLE, (_, name: string) => env[name]!);
  let url: URL | null = null;
  try {
    url = new URL(text);
  } catch {
    // reported below
  }
  if (url && (url.protocol === 'http:' || url.protocol === 'https:')) return text;
  const from = names.length === 0 ? '' : ` (made from environment variable${names.length > 1 ? 's' : ''} ${[...new Set(names)].map((n) => JSON.stringify(n)).join(', ')})`;
  throw new Error(`${JSON.stringify(text)}${from} is not a valid http or https URL`);
}

/**
 * A URL or template as given in metadata: a plain URL is checked now (an Error saying why it
 * is not absolute http(s)); a template only once its variables are known (resolution).
 */
export function checkUrlOrTemplate(text: string): string {
  if (templateVariables(text).length === 0) fillUrlTemplate(text, {});
  return text;
}
