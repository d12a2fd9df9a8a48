/** The shell: log in with a tenant key, then one view per area of the API, chosen by the URL hash. */
import { Suspense, useEffect, useMemo, useState } from 'react';
import { EngramApi } from './api/client';
import { clearKey, loadKey, saveKey } from './api/session';
import { Login } from './components/Login';
import { ApiContext } from './components/useApi';
import { VIEWS, type ViewDef, type ViewId } from './views';

function currentView(): ViewId {
  const id = window.location.hash.replace(/^#\/?/, '').split('?')[0];
  return VIEWS.find((v) => v.id === id)?.id ?? 'timeline';
}

export function App() {
  const [key, setKey] = useState<string | null>(loadKey);
  const [tenant, setTenant] = useState<string | null>(null);
  const [view, setView] = useState<ViewId>(currentView);
  const [paths, setPaths] = useState<Set<string> | null>(null);
  const api = useMemo(() => (key ? new EngramApi(key) : null), [key]);

  useEffect(() => {
    const onHash = () => setView(currentView());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  useEffect(() => {
    if (!api) return;
    api.paths().then(setPaths, () => setPaths(new Set()));
    api.whoami().then(
      (me) => setTenant(me.tenant),
      () => {
        clearKey();
        setKey(null);
      },
    );
  }, [api]);

  if (!api) {
    return (
      <Login
        onLogin={(k, t) => {
          saveKey(k);
          setTenant(t);
          setKey(k);
        }}
      />
    );
  }

  // Only the views whose API area this server offers (all of them until its document is read, or if it cannot be).
  const offered: readonly ViewDef[] = paths && paths.size > 0 ? VIEWS.filter((v) => paths.has(v.needs)) : VIEWS;
  const active = offered.find((v) => v.id === view) ?? offered[0] ?? VIEWS[0]!;
  const View = active.component;
  return (
    <ApiContext.Provider value={api}>
      <header className="top">
        <span className="brand">Engram inspector</span>
        <nav aria-label="Views">
          <ul>
            {offered.map((v) => (
              <li key={v.id}>
                <a href={`#/${v.id}`} aria-current={v.id === active.id ? 'page' : undefined}>
                  {v.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <span className="tenant" data-testid="tenant">
          tenant <strong>{tenant ?? '…'}</strong>
        </span>
        <button
          type="button"
          className="secondary"
          onClick={() => {
            clearKey();
            setKey(null);
            setTenant(null);
          }}
        >
          Log out
        </button>
      </header>
      <main id="main">
        <h1>{active.label}</h1>
        <Suspense fallback={<p className="hint">Loading…</p>}>
          <View />
        </Suspense>
      </main>
    </ApiContext.Provider>
  );
}
