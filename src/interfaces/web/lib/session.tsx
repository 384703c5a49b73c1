/**
 * Who is signed in and in which space: the caller as `/v1/me` describes it, the space picked
 * (kept in session storage, always one the token may use), and signing out.
 */
import { type ComponentChildren, createContext } from 'preact';
import { useContext } from 'preact/hooks';

import { type Schemas, token } from './api';

const SPACE_KEY = 'engram.space';

/** The signed-in caller and the current space. */
export interface Session {
  me: Schemas['Me'];
  space: string;
  setSpace(space: string): void;
  signOut(): void;
  /** Reads `/v1/me` again (after a change adds a space). */
  refresh(): void;
  /** The caller may write (role write or admin). */
  canWrite: boolean;
  /** The caller is an admin of every space (jobs and models act on the whole store). */
  isAdmin: boolean;
}

const SessionContext = createContext<Session | null>(null);

/** Provides the session to the pages. */
export function SessionProvider(props: { value: Session; children: ComponentChildren }) {
  return <SessionContext.Provider value={props.value}>{props.children}</SessionContext.Provider>;
}

/** The session (inside SessionProvider only). */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

/** The space to open: the one picked before in this tab if still allowed, else the default. */
export function initialSpace(me: Schemas['Me']): string {
  const names = me.spaces.map((s) => s.space);
  const kept = sessionStorage.getItem(SPACE_KEY);
  if (kept && names.includes(kept)) return kept;
  if (names.includes(me.default_space)) return me.default_space;
  return names[0] ?? me.default_space;
}

/** Keeps the picked space for this tab. */
export function keepSpace(space: string): void {
  sessionStorage.setItem(SPACE_KEY, space);
}

/** Forgets the token and the space of this tab. */
export function forget(): void {
  token.clear();
  sessionStorage.removeItem(SPACE_KEY);
}
