/** Saves a value as a JSON file through the browser's download (a Blob behind an `<a download>`). */
export function downloadJson(fileName: string, value: unknown): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(value, null, 2)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked a moment later: revoking at once can cancel a download the browser has not started.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
