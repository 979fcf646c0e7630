/** What the engine wrote into the console's page (`src/http/console.ts`): whether it has an admin secret to ask for. */
export interface PageSettings {
  adminSecretSet: boolean;
}

export function pageSettings(): PageSettings {
  const content = document.querySelector('meta[name="service-console-settings"]')?.getAttribute('content');
  try {
    const parsed = JSON.parse(content ?? 'null') as Partial<PageSettings> | null;
    return { adminSecretSet: parsed?.adminSecretSet !== false };
  } catch {
    // A page served by something else: ask for the secret, as with one set.
    return { adminSecretSet: true };
  }
}
