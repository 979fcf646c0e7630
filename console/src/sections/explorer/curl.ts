/** A request as a `curl` command a POSIX shell runs as it is (every argument single-quoted). */
import type { GraphQLRequest } from './currentRequest';

const quote = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

export function curlCommand(url: string, headers: Record<string, string>, request: GraphQLRequest): string {
  const lines = [`curl ${quote(url)}`, `-H ${quote('content-type: application/json')}`, ...Object.entries(headers).map(([name, value]) => `-H ${quote(`${name}: ${value}`)}`), `--data-raw ${quote(JSON.stringify(request))}`];
  return lines.join(' \\\n  ');
}
