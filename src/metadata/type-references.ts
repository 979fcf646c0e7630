/**
 * GraphQL type references as actions and custom types write them (`[Foo!]!`): checked when
 * stored, and the named type under the wrappers.
 */
import { parseType, type TypeNode } from 'graphql';
import { badRequest } from '../errors/admin.js';
import { nonEmptyStr } from '../util/decode.js';

/** A GraphQL type text (`[Foo!]!`), parsed; its parse error at `path`. */
export function typeText(v: unknown, path: string): string {
  const s = nonEmptyStr(v, path);
  try {
    parseType(s);
  } catch {
    throw badRequest('parse-failed', `${JSON.stringify(s)} is not a valid GraphQL type`, path);
  }
  return s;
}

/** The named type under any list and non-null wrappers. */
export function namedTypeOf(text: string): string {
  let t: TypeNode = parseType(text);
  while (t.kind !== 'NamedType') t = t.type;
  return t.name.value;
}
