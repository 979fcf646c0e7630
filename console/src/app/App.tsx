/** The console: sign in, then the navigation and the section the path names. */
import { Suspense, useEffect, useState } from 'react';
import { checkSecret } from '../api/client';
import { MetadataProvider, useMetadata } from '../api/metadata';
import { forgetSecret, storedSecret } from '../api/session';
import { pageSettings } from '../api/page-settings';
import { ErrorNote } from '../ui/ErrorNote';
import { BASE, Link, navigate, segments, usePath } from './router';
import { preloadSection, SECTIONS } from './sections';
import { SignIn } from './SignIn';

type Access = 'checking' | 'signed-in' | 'signed-out';

export function App() {
  const [access, setAccess] = useState<Access>('checking');
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    preloadSection(segments(location.pathname.slice(BASE.length)));
    const stored = storedSecret();
    // Nothing to check yet: ask for the secret rather than make a call the engine refuses.
    if (stored === null && pageSettings().adminSecretSet) return setAccess('signed-out');
    // An engine without an admin secret lets the console in with none.
    checkSecret(stored ?? '').then(
      (ok) => setAccess(ok ? 'signed-in' : 'signed-out'),
      (e: unknown) => (setError(e), setAccess('signed-out')),
    );
  }, []);
  if (access === 'checking') return <p className="loading">Loading…</p>;
  if (access === 'signed-out')
    return (
      <>
        <ErrorNote error={error} />
        <SignIn onSignedIn={() => setAccess('signed-in')} />
      </>
    );
  return (
    <MetadataProvider>
      <Shell onSignOut={() => (forgetSecret(), setAccess('signed-out'))} />
    </MetadataProvider>
  );
}

function Shell({ onSignOut }: { onSignOut: () => void }) {
  const path = segments(usePath());
  const { error } = useMetadata();
  const section = SECTIONS.find((s) => s.path === path[0]);
  useEffect(() => {
    if (!section) navigate('/api', true);
  }, [section]);
  return (
    <div className="shell">
      <nav className="top-nav" aria-label="Sections">
        <span className="brand">GraphQL engine</span>
        {SECTIONS.map((s) => (
          <Link key={s.path} to={`/${s.path}`} aria-current={s === section ? 'page' : undefined}>
            {s.title}
          </Link>
        ))}
        <button type="button" className="sign-out" onClick={onSignOut}>
          Sign out
        </button>
      </nav>
      <ErrorNote error={error} />
      <main className="content">
        <Suspense fallback={<p className="loading">Loading…</p>}>{section && <section.page rest={path.slice(1)} />}</Suspense>
      </main>
    </div>
  );
}
