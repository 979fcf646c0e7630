/** Asks for the admin secret once; the console keeps it for the browser session. */
import { useState, type FormEvent } from 'react';
import { checkSecret } from '../api/client';
import { storeSecret } from '../api/session';
import { ErrorNote } from '../ui/ErrorNote';
import { TextField } from '../ui/forms';

export function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [secret, setSecret] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      if (await checkSecret(secret)) {
        storeSecret(secret);
        onSignedIn();
      } else setError(new Error('this admin secret is not accepted by the engine'));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className="sign-in">
      <form onSubmit={submit} aria-label="Sign in">
        <h1>Sign in</h1>
        <p>Enter the engine's admin secret (SERVICE_GRAPHQL_ADMIN_SECRET).</p>
        <TextField label="Admin secret" type="password" autoComplete="current-password" autoFocus value={secret} onChange={(e) => setSecret(e.target.value)} />
        <button type="submit" disabled={busy}>
          Enter console
        </button>
        <ErrorNote error={error} />
      </form>
    </main>
  );
}
