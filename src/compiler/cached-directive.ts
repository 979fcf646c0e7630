/**
 * The well-known engine's `@cached(ttl: Int = 60, refresh: Boolean = false)` directive on a
 * query operation: its response is kept in the response cache (graphql/service.ts, cache/). The
 * role schemas do not declare it (introspection stays as it is): graphql-js's rule for known
 * directives is given one exception, and the directive's place and arguments are checked here.
 */
import { createHash } from 'node:crypto';
import { Kind, KnownDirectivesRule, print, visit, type ASTVisitor, type DirectiveNode, type DocumentNode, type OperationDefinitionNode, type ValidationRule } from 'graphql';
import { RequestError } from '../errors/request.js';
import type { PlanCache } from '../protocol/plan.js';

const NAME = 'cached';
/** The directive's defaults (the well-known engine's). */
const DEFAULT_TTL = 60;

const isCached = (d: DirectiveNode) => d.name.value === NAME;

/** graphql-js's `KnownDirectivesRule`, letting `@cached` stand on any operation (its place is checked by `cachedDirectiveError`). */
export const KnownDirectivesExceptCached: ValidationRule = (context) => {
  const inner = KnownDirectivesRule(context) as ASTVisitor & { Directive: (...a: unknown[]) => unknown };
  return {
    Directive(node, key, parent, path, ancestors) {
      if (isCached(node) && (ancestors.at(-1) as { kind?: string } | undefined)?.kind === Kind.OPERATION_DEFINITION) return;
      return inner.Directive(node, key, parent, path, ancestors);
    },
  };
};

/** Why an operation's `@cached` is refused (not a query, arguments of the wrong type), or null. */
export function cachedDirectiveError(doc: DocumentNode): RequestError | null {
  for (const def of doc.definitions) {
    if (def.kind !== Kind.OPERATION_DEFINITION) continue;
    const found = (def.directives ?? []).filter(isCached);
    if (found.length === 0) continue;
    if (def.operation !== 'query') return new RequestError(`the @cached directive applies to queries only, not to a ${def.operation}`, '$', 'validation-failed');
    if (found.length > 1) return new RequestError('the @cached directive can only be used once on an operation', '$', 'validation-failed');
    for (const a of found[0]!.arguments ?? []) {
      const kind = a.name.value === 'ttl' ? Kind.INT : a.name.value === 'refresh' ? Kind.BOOLEAN : null;
      if (kind === null) return new RequestError(`the @cached directive has no argument "${a.name.value}"`, '$', 'validation-failed');
      if (a.value.kind !== kind) return new RequestError(`the argument "${a.name.value}" of @cached must be ${kind === Kind.INT ? 'an Int' : 'a Boolean'} literal`, '$', 'validation-failed');
      if (kind === Kind.INT && Number(print(a.value)) < 0) return new RequestError('the argument "ttl" of @cached cannot be negative', '$', 'validation-failed');
    }
  }
  return null;
}

/**
 * The operation's cache settings (its `@cached`, checked by `cachedDirectiveError`), or null. The
 * document's hash leaves the directive out, so that `refresh: true` refreshes the entry the
 * same query without it reads, and prints the document whitespace-insensitively.
 */
export function planCache(doc: DocumentNode, op: OperationDefinitionNode, dependsOnCaller: boolean): PlanCache | null {
  const d = op.directives?.find(isCached);
  if (!d) return null;
  const arg = (name: string) => d.arguments?.find((a) => a.name.value === name)?.value;
  const ttl = arg('ttl');
  const refresh = arg('refresh');
  const bare = visit(doc, { Directive: (n) => (isCached(n) ? null : undefined) });
  return {
    ttl: ttl?.kind === Kind.INT ? Number(ttl.value) : DEFAULT_TTL,
    refresh: refresh?.kind === Kind.BOOLEAN && refresh.value,
    document: createHash('sha256').update(print(bare)).digest('hex'),
    ...(dependsOnCaller ? { caller: true as const } : {}),
  };
}
