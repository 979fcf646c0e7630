/**
 * graphql-js validation errors in the well-known engine's words and paths
 * (`field 'x' not found in type: 'T'` at `$.selectionSet.a.selectionSet.x`; an error about the
 * operation as a whole at `$`).
 */
import { Kind, type ASTNode, type GraphQLError, type OperationDefinitionNode, type SelectionSetNode, type ValueNode } from 'graphql';
import { RequestError } from '../errors/request.js';

/** The path of `target` inside an argument value (object fields by name, list items by index). */
function valuePath(value: ValueNode, target: ASTNode, path: string): string | null {
  if (value === target) return path;
  if (value.kind === Kind.OBJECT) {
    for (const f of value.fields) {
      if (f === target) return `${path}.${f.name.value}`;
      const found = valuePath(f.value, target, `${path}.${f.name.value}`);
      if (found) return found;
    }
  } else if (value.kind === Kind.LIST) {
    for (let i = 0; i < value.values.length; i++) {
      const found = valuePath(value.values[i]!, target, `${path}[${i}]`);
      if (found) return found;
    }
  }
  return null;
}

/** The JSON path of a node inside the operation, following fields by response key. */
function pathOf(target: ASTNode, op: OperationDefinitionNode): string {
  const search = (set: SelectionSetNode, path: string): string | null => {
    for (const sel of set.selections) {
      if (sel === target) return sel.kind === Kind.FIELD ? `${path}.selectionSet.${sel.alias?.value ?? sel.name.value}` : path;
      if (sel.kind === Kind.FIELD) {
        const p = `${path}.selectionSet.${sel.alias?.value ?? sel.name.value}`;
        for (const a of sel.arguments ?? []) {
          if (a === target) return `${p}.args.${a.name.value}`;
          const found = valuePath(a.value, target, `${p}.args.${a.name.value}`);
          if (found) return found;
        }
        if (sel.selectionSet) {
          const found = search(sel.selectionSet, p);
          if (found) return found;
        }
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        const found = search(sel.selectionSet, path);
        if (found) return found;
      }
    }
    return null;
  };
  return search(op.selectionSet, '$') ?? '$';
}

const kindOf = (literal: string) => (literal.startsWith('"') ? 'a string' : /^-?\d+$/.test(literal) ? 'an integer' : /^-?[\d.eE+-]+$/.test(literal) ? 'a float' : literal === 'true' || literal === 'false' ? 'a boolean' : literal.startsWith('[') ? 'a list' : literal.startsWith('{') ? 'an object' : 'a value');

/** Errors about the operation as a whole: upstream raises them outside any selection, at `$`. */
const OPERATION_RULES: [RegExp, string][] = [[/^(Anonymous Subscription|Subscription ".+?") must select only one top level field\.$/, 'subscriptions must select one top level field']];

const RULES: [RegExp, (m: RegExpExecArray) => string][] = [
  [/Value "(.+?)" does not exist in "(.+?)" enum\./, (m) => `unexpected value ${JSON.stringify(m[1])} for enum: '${m[2]}'`],
  [/^Enum "(.+?)" cannot represent non-enum value: (.+?)\.( Did you mean.*)?$/, (m) => `expected an enum value for type ${JSON.stringify(m[1])}, but found ${kindOf(m[2]!)}`],
  [/^Int cannot represent non-integer value: (.+)$/, (m) => `expected a 32-bit integer for type "Int", but found ${kindOf(m[1]!)}`],
  [/^Int cannot represent non 32-bit signed integer value: (.+)$/, () => 'expected a 32-bit integer for type "Int", but found an integer out of range'],
  [/^Float cannot represent non numeric value: (.+)$/, (m) => `expected a float for type "Float", but found ${kindOf(m[1]!)}`],
  [/^String cannot represent a non string value: (.+)$/, (m) => `expected a string for type "String", but found ${kindOf(m[1]!)}`],
  [/^Boolean cannot represent a non boolean value: (.+)$/, (m) => `expected a boolean for type "Boolean", but found ${kindOf(m[1]!)}`],
  [/^Cannot query field "(.+?)" on type "(.+?)"\./, (m) => `field '${m[1]}' not found in type: '${m[2]}'`],
  [/^Field "(.+?)" is not defined by type "(.+?)"\./, (m) => `field '${m[1]}' not found in type: '${m[2]}'`],
  [/^Unknown argument "(.+?)" on field "(.+?)\.(.+?)"\./, (m) => `'${m[3]}' has no argument named '${m[1]}'`],
  [/^Field "(.+?)" of type "(.+?)" must have a selection of subfields\./, (m) => `missing selection set for '${m[2]}'`],
  [/^Field "(.+?)" must not have a selection since type "(.+?)" has no subfields\./, (m) => `unexpected subselection set for non-object field ${JSON.stringify(m[1])}`],
  [/^Variable "\$(.+?)" of required type "(.+?)" was not provided\./, (m) => `expecting a value for non-nullable variable: ${JSON.stringify(m[1])}`],
  [/^Variable "\$(.+?)" of non-null type "(.+?)" must not be null\./, (m) => `null value found for non-nullable type: ${JSON.stringify(m[2])}`],
];

export function graphqlErrorToRequestError(e: GraphQLError, op: OperationDefinitionNode): RequestError {
  for (const [re, message] of OPERATION_RULES) if (re.test(e.message)) return new RequestError(message, '$');
  const node = e.nodes?.[0];
  // Errors in variable values point into the request's variables.
  const variable = /^Variable "\$([^"]+)" got invalid value/.exec(e.message);
  const path = variable ? `$.variableValues.${variable[1]}` : node ? pathOf(node, op) : '$';
  for (const [re, message] of RULES) {
    const m = re.exec(e.message);
    if (m) return new RequestError(message(m), path);
  }
  return new RequestError(e.message, path);
}
