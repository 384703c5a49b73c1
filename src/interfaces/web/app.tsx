/**
 * The console's frame: sign-in with an API token (skipped on a server without tokens), then the
 * navigation, the space picker and the page of the current route.
 */
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { ErrorBoundary, LocationProvider, Route, Router, useLocation } from 'preact-iso';

import { api, ApiError, call, type Schemas, SIGNED_OUT, token } from './lib/api';
import { forget, initialSpace, keepSpace, type Session, SessionProvider } from './lib/session';
import { Empty, ErrorNote, Loading, Page } from './lib/ui';
import { MemoryPage, PAGES } from './pages';
import { SignIn } from './sign-in';

type State =
  | { phase: 'checking' }
  | { phase: 'signed-out'; message?: string }
  | { phase: 'failed'; error: unknown }
  | { phase: 'in'; me: Schemas['Me']; space: string };

/** The whole console. */
export function App() {
  const [state, setState] = useState<State>({ phase: 'checking' });
  const check = useCallback(async (message?: string) => {
    try {
      const me = await call(api.GET('/v1/me'));
      setState({ phase: 'in', me, space: initialSpace(me) });
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        const hadToken = token.get() !== null;
        token.clear();
        setState({ phase: 'signed-out', message: message ?? (hadToken ? err.message : undefined) });
      } else setState({ phase: 'failed', error: err });
    }
  }, []);
  useEffect(() => {
    void check();
    const onSignedOut = () =>
      setState({
        phase: 'signed-out',
        message: 'Your token is no longer accepted: sign in again.',
      });
    window.addEventListener(SIGNED_OUT, onSignedOut);
    return () => window.removeEventListener(SIGNED_OUT, onSignedOut);
  }, [check]);

  if (state.phase === 'checking')
    return (
      <main id="main" class="center">
        <Loading label="Connecting to engram" />
      </main>
    );
  if (state.phase === 'failed')
    return (
      <main id="main" class="center">
        <ErrorNote error={state.error} onRetry={() => void check()} />
      </main>
    );
  if (state.phase === 'signed-out')
    return (
      <SignIn
        message={state.message}
        onToken={async (value) => {
          token.set(value);
          await check('That token was not accepted: check it and try again.');
        }}
      />
    );
  return <Shell me={state.me} space={state.space} setState={setState} check={check} />;
}

function Shell(props: {
  me: Schemas['Me'];
  space: string;
  setState: (s: State) => void;
  check: () => Promise<void>;
}) {
  const { me, space, setState, check } = props;
  const session = useMemo<Session>(
    () => ({
      me,
      space,
      setSpace: (next) => {
        keepSpace(next);
        setState({ phase: 'in', me, space: next });
      },
      signOut: () => {
        forget();
        setState({ phase: 'signed-out', message: 'Signed out.' });
      },
      refresh: () => void check(),
      canWrite: me.role !== 'read',
      isAdmin: me.role === 'admin' && me.every_space,
    }),
    [me, space, setState, check],
  );
  return (
    <SessionProvider value={session}>
      <LocationProvider>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <Header session={session} />
        <main id="main" tabIndex={-1}>
          <ErrorBoundary>
            <Router>
              {[
                ...PAGES.map((p) => (
                  <Route
                    key={p.path}
                    path={p.path}
                    component={!p.admin || session.isAdmin ? p.component : AdminOnly}
                  />
                )),
                <Route key="memory" path="/memories/:id" component={MemoryPage} />,
                <Route key="missing" default component={NotFound} />,
              ]}
            </Router>
          </ErrorBoundary>
        </main>
      </LocationProvider>
    </SessionProvider>
  );
}

function Header({ session }: { session: Session }) {
  const { path } = useLocation();
  const current = (p: string) => (p === '/' ? path === '/' : path.startsWith(p));
  return (
    <header class="top">
      <a class="brand" href="/">
        engram
      </a>
      <nav aria-label="Pages">
        <ul>
          {PAGES.filter((p) => !p.admin || session.isAdmin).map((p) => (
            <li key={p.path}>
              <a href={p.path} aria-current={current(p.path) ? 'page' : undefined}>
                {p.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div class="top-end">
        <label class="space-pick">
          <span>Space</span>
          <select value={session.space} onChange={(e) => session.setSpace(e.currentTarget.value)}>
            {session.me.spaces.map((s) => (
              <option key={s.space} value={s.space}>
                {s.space} ({s.items})
              </option>
            ))}
          </select>
        </label>
        <span class="muted who" title={`role: ${session.me.role}`}>
          {session.me.name ?? 'local'} · {session.me.role}
        </span>
        {session.me.auth && (
          <button type="button" class="link" onClick={session.signOut}>
            Sign out
          </button>
        )}
      </div>
    </header>
  );
}

/** What a page for admins shows to other tokens (the API would answer 403). */
function AdminOnly() {
  return (
    <Page title="Admins only">
      <Empty title="This page needs an admin token of every space.">
        Jobs and models act on the whole store. Sign in with an admin token whose spaces are{' '}
        <code>*</code>, or ask whoever runs this engram.
      </Empty>
    </Page>
  );
}

function NotFound() {
  return (
    <Page title="Not found">
      <Empty title="There is no page here.">
        <a href="/">Go to search</a>
      </Empty>
    </Page>
  );
}
