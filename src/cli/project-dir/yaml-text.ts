/**
 * How the project's YAML files are written: block style, no folding of long lines, no anchors,
 * strings quoted only when they must be (an `!include` reference is one: the well-known tool
 * writes it as the quoted string `"!include public_author.yaml"`).
 */
import { stringify } from 'yaml';

export type JsonMap = Record<string, unknown>;

export function yamlText(value: unknown): string {
  return stringify(value, { lineWidth: 0, aliasDuplicateObjects: false });
}

export const includeOf = (file: string): string => `!include ${file}`;

/** The file an `!include` reference names, or undefined for any other value. */
export function includedFile(value: unknown): string | undefined {
  return typeof value === 'string' ? /^!include\s+(\S.*)$/.exec(value)?.[1]?.trim() : undefined;
}

export const isEmpty = (v: unknown): boolean =>
  v === null || v === undefined || (Array.isArray(v) ? v.length === 0 : typeof v === 'object' && Object.keys(v).length === 0);
