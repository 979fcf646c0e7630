/** JSON a user types in a text area or gives as a file, and a value shown in a text area to edit. */

/** The parsed value, or an error naming what (`what`: a field's label, a file's name) is not JSON. */
export function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Error(`${what} is not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** As `parseJson`, but an optional field left blank is `undefined`. */
export const parseOptionalJson = (text: string, what: string): unknown => (text.trim() === '' ? undefined : parseJson(text, what));

/** A value as a text area shows it (none: blank). */
export const jsonText = (value: unknown): string => (value === undefined ? '' : JSON.stringify(value, null, 2));
