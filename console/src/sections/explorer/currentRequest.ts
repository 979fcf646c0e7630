/** The request in GraphiQL's editors (the query, its variables, the operation under the cursor). */
import { useEditorContext } from '@graphiql/react';
import { useCallback } from 'react';

export interface GraphQLRequest {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
}

/** A reader of the editors' request; it throws when the variables are not a JSON object. */
export function useCurrentRequest(): () => GraphQLRequest {
  const { queryEditor, variableEditor } = useEditorContext({ nonNull: true });
  return useCallback(() => {
    const query = queryEditor?.getValue() ?? '';
    const text = variableEditor?.getValue().trim() ?? '';
    let variables: unknown;
    try {
      variables = text === '' ? undefined : JSON.parse(text);
    } catch {
      throw new Error('the variables are not valid JSON');
    }
    if (variables !== undefined && (typeof variables !== 'object' || variables === null || Array.isArray(variables))) throw new Error('the variables must be a JSON object');
    const operationName = queryEditor?.operationName ?? undefined;
    return { query, ...(variables ? { variables: variables as Record<string, unknown> } : {}), ...(operationName ? { operationName } : {}) };
  }, [queryEditor, variableEditor]);
}
