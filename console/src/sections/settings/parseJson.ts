/** JSON the user gave (a file, a text field), or an error naming what was not JSON. */
export function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Error(`${what} cannot be read as JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
}
