/**
 * The performance dashboard view (an MCP App, `io.modelcontextprotocol/ui`): one HTML document built from view/
 * by `npm run build` (view/build.mjs bundles view/app.ts with @mcpengine/apps-view and inlines it; no CDN, no
 * remote script), read from dist/view/performance.html. It declares no CSP origins: the view only talks to the
 * host, which relays its calls of the app-only load_performance_dashboard tool to this server.
 */
import { readFile } from 'node:fs/promises';
import type { McpApps } from 'mcpengine/apps';

export const PERFORMANCE_VIEW_URI = 'ui://google-search-console/performance.html';
/** The same file from src/custom/ (tests on sources) and from dist/custom/ (the built server). */
const VIEW_FILE = new URL('../../dist/view/performance.html', import.meta.url);

let cached: Promise<string> | undefined;
function performanceView(): Promise<string> {
  cached ??= readFile(VIEW_FILE, 'utf8').catch((error: unknown) => {
    cached = undefined;
    throw new Error(`The dashboard view is not built (${VIEW_FILE.pathname}): run npm run build`, {
      cause: error,
    });
  });
  return cached;
}

export function registerPerformanceView(app: McpApps): void {
  app.resource({
    uri: PERFORMANCE_VIEW_URI,
    name: 'Search performance dashboard',
    description:
      'Clicks, impressions, CTR and position over the period as a chart, the change against the previous ' +
      'period and the top movers; opened under compare_periods, top_movers and quick_wins.',
    html: performanceView,
    prefersBorder: true,
  });
}
