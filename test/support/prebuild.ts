import { ensureChromium } from './ensure-chromium.js';
import { buildDashboard, buildServer } from './test-build.js';

/**
 * `npm test` runs this first, then the root suite and the dashboard's side by side with
 * SCENARIST_TEST_PREBUILT=1: one build for both, finished before either suite reads it. The browser
 * the dashboard's tests drive is made sure of here too, so `npm ci && npm test` needs nothing by hand.
 */
ensureChromium();
buildServer();
buildDashboard();
