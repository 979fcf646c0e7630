/**
 * What a command prints: for people, short lines and tables (bold and colours only on a
 * terminal, and never with `--no-color` or `NO_COLOR`); for scripts, with `--output json|yaml`,
 * one document on stdout. Progress and warnings go to stderr, so stdout stays parseable.
 */
import { stringify } from 'yaml';
import type { OutputFormat } from './project.js';

export class Output {
  private readonly colour: boolean;

  constructor(
    readonly format: OutputFormat,
    noColor = false,
    private readonly out: NodeJS.WriteStream = process.stdout,
    private readonly err: NodeJS.WriteStream = process.stderr,
  ) {
    this.colour = !noColor && !process.env.NO_COLOR && out.isTTY === true;
  }

  /** The command's result: `human` prints `text` (when given), the others the value itself. */
  result(value: unknown, text?: string | string[]): void {
    if (this.format === 'json') this.out.write(`${JSON.stringify(value, null, 2)}\n`);
    else if (this.format === 'yaml') this.out.write(stringify(value));
    else if (text !== undefined) this.out.write(`${Array.isArray(text) ? text.join('\n') : text}\n`);
  }

  /** A line for people on stderr (progress, notes); nothing in json/yaml mode. */
  info(line: string): void {
    if (this.format === 'human') this.err.write(`${line}\n`);
  }

  /** A warning, on stderr in every mode. */
  warn(line: string): void {
    this.err.write(`${this.paint('33', 'warning')}: ${line}\n`);
  }

  /** A failure, on stderr; with json/yaml also as `{error, detail}` on stdout. */
  error(message: string, detail?: unknown): void {
    this.err.write(`${this.paint('31', 'error')}: ${message}\n`);
    if (this.format !== 'human') this.result({ error: message, ...(detail === undefined ? {} : { detail }) });
  }

  /** Rows under a header, columns padded; for people only (scripts read `result`). */
  table(header: string[], rows: string[][]): string[] {
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
    const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
    return [this.paint('1', line(header)), ...rows.map(line)];
  }

  success(line: string): string {
    return `${this.paint('32', '✔')} ${line}`;
  }

  private paint(code: string, text: string): string {
    return this.colour ? `\u001b[${code}m${text}\u001b[0m` : text;
  }
}
