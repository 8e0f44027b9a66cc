import {
  createHashHistory,
  createRootRoute,
  createRoute,
  createRouter,
  lazyRouteComponent,
  redirect,
  type RouterHistory,
} from '@tanstack/react-router';
import type { CompareSearch } from './pages/ComparePage.tsx';
import { ScenariosPage } from './pages/ScenariosPage.tsx';
import { SessionsPage } from './pages/SessionsPage.tsx';
import { SessionLayout } from './SessionLayout.tsx';
import { Shell } from './Shell.tsx';

/*
 * Routes live in the URL hash (`/ui/#/s/main/scenarios`): index.html is the only document the
 * server serves, so the app works unchanged at /ui, under the prefix, and behind proxies.
 */
const root = createRootRoute({ component: Shell });
const sessions = createRoute({ getParentRoute: () => root, path: '/', component: SessionsPage });
const session = createRoute({ getParentRoute: () => root, path: '/s/$sid', component: SessionLayout });
const sessionIndex = createRoute({
  getParentRoute: () => session,
  path: '/',
  beforeLoad: ({ params }) => {
    throw redirect({ to: '/s/$sid/scenarios', params });
  },
});
// Pages other than the first ones a visitor sees load on demand: a smaller first download.
const data = createRoute({ getParentRoute: () => session, path: '/data', component: lazyRouteComponent(() => import('./pages/DataPage.tsx'), 'DataPage') });
const scenarios = createRoute({
  getParentRoute: () => session,
  path: '/scenarios',
  component: ScenariosPage,
  // `?copy=<id>`: the create form opens filled with that scenario's parameters.
  validateSearch: (search: Record<string, unknown>): { copy?: string } => ({ copy: typeof search.copy === 'string' ? search.copy : undefined }),
});
const scenario = createRoute({
  getParentRoute: () => session,
  path: '/scenarios/$id',
  component: lazyRouteComponent(() => import('./pages/ScenarioPage.tsx'), 'ScenarioPage'),
});
const compare = createRoute({
  getParentRoute: () => session,
  path: '/compare',
  component: lazyRouteComponent(() => import('./pages/ComparePage.tsx'), 'ComparePage'),
  validateSearch: (search: Record<string, unknown>): CompareSearch => ({
    ids: typeof search.ids === 'string' ? search.ids : undefined,
    baseline: typeof search.baseline === 'string' ? search.baseline : undefined,
  }),
});
const overview = createRoute({
  getParentRoute: () => session,
  path: '/overview',
  component: lazyRouteComponent(() => import('./pages/OverviewPage.tsx'), 'OverviewPage'),
});

export const routeTree = root.addChildren([sessions, session.addChildren([sessionIndex, data, scenarios, scenario, compare, overview])]);

export function buildRouter(history: RouterHistory = createHashHistory()) {
  return createRouter({ routeTree, history, defaultPreload: false });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof buildRouter>;
  }
}
