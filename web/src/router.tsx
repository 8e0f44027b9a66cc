import {
  createHashHistory,
  createRootRoute,
  createRoute,
  createRouter,
  lazyRouteComponent,
  type RouterHistory,
} from '@tanstack/react-router';
import { dataSearch, whatIfSearch } from './explanations/row-search.ts';
import type { CompareSearch } from './pages/ComparePage.tsx';
import { HomePage } from './pages/HomePage.tsx';
import { ScenariosPage, scenariosSearch } from './pages/ScenariosPage.tsx';
import { SessionsPage } from './pages/SessionsPage.tsx';
import { SessionLayout } from './SessionLayout.tsx';
import { NotFoundPage } from './pages/NotFoundPage.tsx';
import { Shell } from './Shell.tsx';

/*
 * Routes live in the URL hash (`/ui/#/s/main/scenarios`): index.html is the only document the
 * server serves, so the app works unchanged at /ui, under the prefix, and behind proxies.
 */
const root = createRootRoute({ component: Shell, notFoundComponent: () => <NotFoundPage /> });
const sessions = createRoute({ getParentRoute: () => root, path: '/', component: SessionsPage });
const session = createRoute({ getParentRoute: () => root, path: '/s/$sid', component: SessionLayout });
// A session's first page says what to do next (pages/HomePage.tsx).
const sessionIndex = createRoute({ getParentRoute: () => session, path: '/', component: HomePage });
// Pages other than the first ones a visitor sees load on demand: a smaller first download.
// `?dataset=&table=&row=` opens a dataset at one row (a violation's row links here: explanations/row-search.ts).
const data = createRoute({
  getParentRoute: () => session,
  path: '/data',
  component: lazyRouteComponent(() => import('./pages/DataPage.tsx'), 'DataPage'),
  validateSearch: dataSearch,
});
const scenarios = createRoute({ getParentRoute: () => session, path: '/scenarios', component: ScenariosPage, validateSearch: scenariosSearch });
const scenario = createRoute({
  getParentRoute: () => session,
  path: '/scenarios/$id',
  component: lazyRouteComponent(() => import('./pages/ScenarioPage.tsx'), 'ScenarioPage'),
});
// What if…: a branch of the scenario with its parameters and data edited (pages/WhatIfPage.tsx).
const whatIf = createRoute({
  getParentRoute: () => session,
  path: '/scenarios/$id/what-if',
  component: lazyRouteComponent(() => import('./pages/WhatIfPage.tsx'), 'WhatIfPage'),
  // `?rows=[{table,key}]`: the editor opens filtered to those rows (a violation's What if…).
  validateSearch: whatIfSearch,
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

const experiments = createRoute({
  getParentRoute: () => session,
  path: '/experiments',
  component: lazyRouteComponent(() => import('./pages/ExperimentsPage.tsx'), 'ExperimentsPage'),
});
const experiment = createRoute({
  getParentRoute: () => session,
  path: '/experiments/$eid',
  component: lazyRouteComponent(() => import('./pages/ExperimentPage.tsx'), 'ExperimentPage'),
});

// Acceptance gates: is the candidate better than the baseline (web/src/gates/).
const gates = createRoute({ getParentRoute: () => session, path: '/gates', component: lazyRouteComponent(() => import('./gates/GatesPage.tsx'), 'GatesPage') });
const gatePage = createRoute({ getParentRoute: () => session, path: '/gates/$gid', component: lazyRouteComponent(() => import('./gates/GatePage.tsx'), 'GatePage') });

// Schedules: the planning cycle running by itself (web/src/schedules/).
const schedules = createRoute({ getParentRoute: () => session, path: '/schedules', component: lazyRouteComponent(() => import('./schedules/SchedulesPage.tsx'), 'SchedulesPage') });
const schedulePage = createRoute({
  getParentRoute: () => session,
  path: '/schedules/$schid',
  component: lazyRouteComponent(() => import('./schedules/SchedulePage.tsx'), 'SchedulePage'),
});

// The session's record of decisions: who did what, and the comparisons saved as reports.
const activity = createRoute({
  getParentRoute: () => session,
  path: '/activity',
  component: lazyRouteComponent(() => import('./pages/ActivityPage.tsx'), 'ActivityPage'),
});
const reports = createRoute({
  getParentRoute: () => session,
  path: '/reports',
  component: lazyRouteComponent(() => import('./pages/ReportsPage.tsx'), 'ReportsPage'),
});
const report = createRoute({
  getParentRoute: () => session,
  path: '/reports/$rid',
  component: lazyRouteComponent(() => import('./pages/ReportPage.tsx'), 'ReportPage'),
});

const routeTree = root.addChildren([
  sessions,
  session.addChildren([sessionIndex, data, scenarios, scenario, whatIf, compare, overview, experiments, experiment, gates, gatePage, schedules, schedulePage, activity, reports, report]),
]);

export function buildRouter(history: RouterHistory = createHashHistory()) {
  return createRouter({ routeTree, history, defaultPreload: false });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof buildRouter>;
  }
}
