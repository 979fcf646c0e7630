/**
 * The API section, as the well-known console's "API" tab: GraphiQL on the engine's `/v1/graphql`
 * (with its Prettify, History, Docs and the Explorer plugin), the request headers above it (admin
 * secret, role, session variables), and Explain and Copy as curl in GraphiQL's toolbar. GraphiQL
 * and its styles are imported here only, so they stay in this lazily loaded section's chunk.
 */
import { explorerPlugin } from '@graphiql/plugin-explorer';
import '@graphiql/plugin-explorer/style.css';
import { GraphiQL } from 'graphiql';
import 'graphiql/style.css';
import { useEffect, useMemo, useState } from 'react';
import { useMetadata } from '../../api/metadata';
import type { SectionPage } from '../../app/sections';
import { ErrorNote } from '../../ui/ErrorNote';
import { Page } from '../../ui/forms';
import type { GraphQLRequest } from './currentRequest';
import { curlCommand } from './curl';
import { CurlDialog, type CopyState } from './CurlDialog';
import { ExplainDialog } from './ExplainDialog';
import { WithPluginShown } from './WithPluginShown';
import { createFetcher, graphqlUrl } from './fetcher';
import { HeadersPanel } from './HeadersPanel';
import { headersOf, loadSettings, saveSettings, sessionOf } from './requestHeaders';
import { ToolbarButtons } from './ToolbarButtons';
import { useDebounced } from './useDebounced';

// Stable objects: GraphiQL resets the visible plugin whenever its `plugins` prop changes. The
// section opens with the Explorer shown, as the well-known console's does. GraphiQL is kept in
// its light theme (`forcedTheme`), as the console is, whatever the system's preference.
const EXPLORER = explorerPlugin();
const PLUGINS = [EXPLORER];

const DEFAULT_QUERY = '# Write a query (or pick fields in the Explorer) and run it with Ctrl-Enter.\n';

type Shown = { kind: 'explain'; request: GraphQLRequest; session: Record<string, string> } | { kind: 'curl'; command: string; copy: CopyState };

const Section: SectionPage = () => {
  const [settings, setSettings] = useState(loadSettings);
  useEffect(() => saveSettings(settings), [settings]);
  const headersKey = useDebounced(JSON.stringify(headersOf(settings)), 400);
  // A new metadata version (a table tracked, a permission changed) re-reads the schema, as a new
  // set of headers does: both make a new fetcher, which GraphiQL introspects again.
  const { resourceVersion } = useMetadata();
  const fetcher = useMemo(() => createFetcher(JSON.parse(headersKey) as Record<string, string>), [headersKey, resourceVersion]);
  const [shown, setShown] = useState<Shown | null>(null);
  const [problem, setProblem] = useState<unknown>(null);

  const onExplain = (request: GraphQLRequest) => {
    setProblem(null);
    setShown({ kind: 'explain', request, session: sessionOf(settings) });
  };
  const onCurl = (request: GraphQLRequest) => {
    setProblem(null);
    const command = curlCommand(graphqlUrl(), headersOf(settings), request);
    setShown({ kind: 'curl', command, copy: 'copying' });
    // No clipboard outside a secure context (plain http to another host than localhost).
    const copied = navigator.clipboard ? navigator.clipboard.writeText(command) : Promise.reject(new Error('no clipboard'));
    copied.then(
      () => setShown((s) => (s?.kind === 'curl' && s.command === command ? { ...s, copy: 'copied' } : s)),
      () => setShown((s) => (s?.kind === 'curl' && s.command === command ? { ...s, copy: 'refused' } : s)),
    );
  };

  return (
    <Page title="API">
      <div className="explorer-endpoint row">
        <span className="header-key">POST</span>
        <code aria-label="GraphQL endpoint">{graphqlUrl()}</code>
      </div>
      <HeadersPanel settings={settings} onChange={setSettings} />
      <ErrorNote error={problem} />
      <div className="explorer-graphiql">
        <WithPluginShown plugins={PLUGINS} plugin={EXPLORER}>
          <GraphiQL fetcher={fetcher} plugins={PLUGINS} visiblePlugin={EXPLORER} isHeadersEditorEnabled={false} shouldPersistHeaders={false} defaultQuery={DEFAULT_QUERY} forcedTheme="light">
            <GraphiQL.Logo>GraphiQL</GraphiQL.Logo>
            <GraphiQL.Toolbar>
              {({ prettify, merge, copy }) => (
                <>
                  {prettify}
                  {merge}
                  {copy}
                  <ToolbarButtons onExplain={onExplain} onCurl={onCurl} onInvalid={setProblem} />
                </>
              )}
            </GraphiQL.Toolbar>
          </GraphiQL>
        </WithPluginShown>
      </div>
      {shown?.kind === 'explain' && <ExplainDialog request={shown.request} session={shown.session} onClose={() => setShown(null)} />}
      {shown?.kind === 'curl' && <CurlDialog command={shown.command} copy={shown.copy} onClose={() => setShown(null)} />}
    </Page>
  );
};
export default Section;
