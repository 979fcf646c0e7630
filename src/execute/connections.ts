/** What the executor needs of the sources a plan runs on. */
import type { Runtime } from '../backends/faces/runtime.js';
import type { SourceConnection } from '../backends/faces/runtime.js';
import type { RemoteServer } from '../remote/server.js';
import type { ActionCalls } from './action.js';
import type { QueryTags } from './query-tags.js';

/** A source's open connection, and its backend (which reads the errors the connection raises). */
export interface ConnectedSource {
  connection: SourceConnection;
  backend: Runtime;
  /** The source has event triggers: its mutations carry their session variables (a transaction even for one statement). */
  capturesEvents?: boolean;
  /** The source's query tags (null: disabled); absent where statements are never tagged. */
  queryTags?: QueryTags | null;
}

/** The connected sources, by name (a `Map` will do). */
export interface SourceConnections {
  get(source: string): ConnectedSource | undefined;
  /** A remote schema's server (remote steps); absent where no plan forwards to one. */
  remote?(name: string): RemoteServer | undefined;
  /** Where action steps run; absent where no plan calls one. */
  actions?: ActionCalls;
}
