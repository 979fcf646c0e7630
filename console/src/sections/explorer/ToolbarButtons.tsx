/**
 * The explorer's own buttons in GraphiQL's toolbar, beside Prettify, Merge and Copy: Explain
 * (the well-known console's "Analyze") and Copy as curl. They read the request in the editors.
 */
import { ToolbarButton } from '@graphiql/react';
import { useCurrentRequest, type GraphQLRequest } from './currentRequest';

export function ToolbarButtons({ onExplain, onCurl, onInvalid }: { onExplain: (request: GraphQLRequest) => void; onCurl: (request: GraphQLRequest) => void; onInvalid: (error: unknown) => void }) {
  const current = useCurrentRequest();
  const withRequest = (then: (request: GraphQLRequest) => void) => () => {
    try {
      then(current());
    } catch (e) {
      onInvalid(e);
    }
  };
  return (
    <>
      <ToolbarButton label="Explain query" onClick={withRequest(onExplain)}>
        <svg className="graphiql-toolbar-icon" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.5" aria-hidden="true">
          <ellipse cx="12" cy="5" rx="8" ry="3" />
          <path d="M4 5v14c0 1.7 3.6 3 8 3s8-1.3 8-3V5M4 12c0 1.7 3.6 3 8 3s8-1.3 8-3" />
        </svg>
      </ToolbarButton>
      <ToolbarButton label="Copy as curl" onClick={withRequest(onCurl)}>
        <svg className="graphiql-toolbar-icon" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.5" aria-hidden="true">
          <rect x="2" y="4" width="20" height="16" rx="2" />
          <path d="M6 9l3 3-3 3M11 15h6" />
        </svg>
      </ToolbarButton>
    </>
  );
}
