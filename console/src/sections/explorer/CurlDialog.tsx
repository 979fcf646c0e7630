/** The copied `curl` command, shown so it can be selected by hand when the clipboard refused it. */
import { Dialog } from './Dialog';

export type CopyState = 'copying' | 'copied' | 'refused';

export function CurlDialog({ command, copy, onClose }: { command: string; copy: CopyState; onClose: () => void }) {
  return (
    <Dialog title="Copy as curl" onClose={onClose}>
      <p role="status">{copy === 'copied' ? 'Copied to the clipboard.' : copy === 'refused' ? 'The browser refused the clipboard: select the command below to copy it.' : 'Copying…'}</p>
      <pre className="code" aria-label="curl command" tabIndex={0}>
        {command}
      </pre>
    </Dialog>
  );
}
