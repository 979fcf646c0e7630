/** JSON typed by a user in a text area: empty is `undefined`; what does not parse is an error naming the field. */
export function parseJsonText(field: string, text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Error(`${field} is not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
}

export const jsonText = (value: unknown): string => (value === undefined ? '' : JSON.stringify(value, null, 2));
