/** A time as the Events section shows it: UTC to the second (the engine schedules and logs in UTC). */
export function utcTime(value: string | Date): string {
  const d = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(d.getTime())) return String(value);
  return `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
