/**
 * How the well-known engine explains why an object cannot be used: "because <reason>"
 * for one reason, else a bulleted list, one reason per line.
 */
export function reasonMessage(reasons: readonly string[]): string {
  if (reasons.length === 1) return `because ${reasons[0]}`;
  return `for the following reasons:\n${reasons.map((r) => `  • ${r}\n`).join('')}`;
}
