/** The login form: a tenant key, checked against GET /v1/me before it is kept (sessionStorage only). */
import { useState, type FormEvent } from 'react';
import { ApiError, EngramApi } from '../api/client';

export function Login({ onLogin }: { onLogin: (key: string, tenant: string) => void }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const me = await new EngramApi(key.trim()).whoami();
      onLogin(key.trim(), me.tenant);
    } catch (err) {
      setError(err instanceof ApiError ? `${err.code}: ${err.message}` : String(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="login">
      <h1>Engram inspector</h1>
      <form onSubmit={(e) => void submit(e)} aria-describedby="login-help">
        <label htmlFor="api-key">Tenant API key</label>
        <input
          id="api-key"
          name="api-key"
          type="password"
          autoComplete="off"
          required
          value={key}
          onChange={(e) => setKey(e.target.value)}
          placeholder="egm_…"
        />
        <p id="login-help" className="hint">
          The key stays in this tab only (session storage) and is sent to this server's API as a bearer token.
        </p>
        <button type="submit" disabled={busy || key.trim() === ''}>
          {busy ? 'Checking…' : 'Log in'}
        </button>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
      </form>
    </main>
  );
}
