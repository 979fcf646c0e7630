/**
 * "Refresh" for a page of logs, and an auto-refresh every few seconds while its box is ticked
 * (the well-known engine's console polls its event logs the same way).
 */
import { useEffect, useState } from 'react';
import { Checkbox } from '../../ui/forms';

const EVERY_MS = 3000;

export function RefreshBar({ reload, loading }: { reload: () => Promise<void>; loading: boolean }) {
  const [auto, setAuto] = useState(false);
  useEffect(() => {
    if (!auto) return;
    const timer = setInterval(() => void reload(), EVERY_MS);
    return () => clearInterval(timer);
  }, [auto, reload]);
  return (
    <div className="row refresh-bar">
      <button type="button" className="secondary" onClick={() => void reload()} disabled={loading}>
        Refresh
      </button>
      <Checkbox label="Auto-refresh" checked={auto} onChange={(e) => setAuto(e.target.checked)} />
    </div>
  );
}
