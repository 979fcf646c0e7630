/**
 * Opens GraphiQL with the Explorer plugin shown, as the well-known console does. GraphiQL 4
 * sizes its plugin pane from the plugin visible at its first render, and applies its own
 * `visiblePlugin` prop only after that render (its pane then stays hidden): so the plugin is
 * made visible in GraphiQL's plugin store (shared by every GraphiQL of the page) before GraphiQL
 * is rendered, through the store's own provider.
 */
import { PluginContextProvider, type GraphiQLPlugin } from '@graphiql/react';
import { useEffect, useState, type ReactNode } from 'react';

export function WithPluginShown({ plugins, plugin, children }: { plugins: GraphiQLPlugin[]; plugin: GraphiQLPlugin; children: ReactNode }) {
  const [ready, setReady] = useState(false);
  if (ready) return children;
  return (
    <PluginContextProvider plugins={plugins} visiblePlugin={plugin}>
      <Ready onReady={() => setReady(true)} />
    </PluginContextProvider>
  );
}

/** Its effect runs in the same commit as the provider's, which selects the plugin. */
function Ready({ onReady }: { onReady: () => void }) {
  useEffect(onReady, [onReady]);
  return null;
}
