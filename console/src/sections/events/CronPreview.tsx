/**
 * The next runs of a cron schedule (in UTC, as the engine schedules them), shown under the
 * schedule field as the well-known engine's console does; a schedule that does not parse is
 * left for the engine to name (its five fields are checked there).
 */
import { Cron } from 'croner';
import { utcTime } from './time';

const RUNS = 5;

function nextRuns(schedule: string): Date[] | null {
  if (schedule.trim().split(/\s+/).length !== 5) return null;
  try {
    const job = new Cron(schedule, { paused: true, timezone: 'Etc/UTC' });
    const runs = job.nextRuns(RUNS);
    job.stop();
    return runs;
  } catch {
    return null;
  }
}

export function CronPreview({ schedule }: { schedule: string }) {
  const runs = nextRuns(schedule);
  if (!runs) return <p className="muted">Not a cron schedule of five fields (minute hour day-of-month month day-of-week).</p>;
  return (
    <div className="cron-preview">
      <span className="muted">Next runs (UTC):</span>
      <ul aria-label="Next runs">
        {runs.map((d) => (
          <li key={d.toISOString()}>{utcTime(d)}</li>
        ))}
      </ul>
    </div>
  );
}
