/**
 * The console's pages: path, navigation label and the module that draws it. Each page loads on
 * first visit (its own chunk), so the search page never pays for the graph or chart libraries.
 */
import type { ComponentType } from 'preact';
import { lazy } from 'preact-iso';

/** A page of the navigation. */
export interface PageEntry {
  path: string;
  label: string;
  /** Only shown to admins (jobs and models are admin routes of the API). */
  admin?: boolean;
  component: ComponentType;
}

/** Pages in navigation order. */
export const PAGES: readonly PageEntry[] = [
  { path: '/', label: 'Search', component: lazy(() => import('./pages/search')) },
  { path: '/browse', label: 'Browse', component: lazy(() => import('./pages/browse')) },
  { path: '/review', label: 'Review', component: lazy(() => import('./pages/review')) },
  { path: '/graph', label: 'Graph', component: lazy(() => import('./pages/graph')) },
  { path: '/dreams', label: 'Dreams', component: lazy(() => import('./pages/dreams')) },
  { path: '/jobs', label: 'Jobs', admin: true, component: lazy(() => import('./pages/jobs')) },
  {
    path: '/models',
    label: 'Models',
    admin: true,
    component: lazy(() => import('./pages/models')),
  },
  { path: '/health', label: 'Health', component: lazy(() => import('./pages/health')) },
  { path: '/settings', label: 'Settings', component: lazy(() => import('./pages/settings')) },
];

/** The memory page (reached from hits and lists, not from the navigation). */
export const MemoryPage = lazy(() => import('./pages/memory'));
