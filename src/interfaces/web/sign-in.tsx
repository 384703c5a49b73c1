/** Sign-in with an API token (`engram serve --new-token` makes one); the token stays in this tab. */
import { useState } from 'preact/hooks';

import { Field } from './lib/ui';

/** The sign-in form. */
export function SignIn(props: { message?: string; onToken: (token: string) => Promise<void> }) {
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  return (
    <main id="main" class="center">
      <form
        class="card sign-in"
        aria-labelledby="sign-in-title"
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          try {
            await props.onToken(value.trim());
          } finally {
            setBusy(false);
          }
        }}
      >
        <h1 id="sign-in-title">Sign in to engram</h1>
        <p class="muted">
          This server asks for an API token. The console keeps it in this browser tab only (session
          storage) and forgets it when the tab closes.
        </p>
        {props.message && (
          <div class="note note-error" role="alert">
            {props.message}
          </div>
        )}
        <Field
          id="token"
          label="API token"
          hint="A token of server.tokens in the server's configuration."
        >
          <input
            id="token"
            type="password"
            autoComplete="off"
            required
            value={value}
            aria-describedby="token-hint"
            onInput={(e) => setValue(e.currentTarget.value)}
          />
        </Field>
        <button type="submit" class="primary" disabled={busy || value.trim() === ''}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
