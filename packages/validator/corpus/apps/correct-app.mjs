// The `--apps` corpus baseline: a correct MCP Apps server. `mcpengine validate --apps` must report no failure and
// no warning for it; the inspector's host renders it in its end-to-end tests.
import { appServer } from './_app.mjs';

appServer();
