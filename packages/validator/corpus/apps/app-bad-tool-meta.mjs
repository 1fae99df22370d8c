// Breaks (MUST): a tool's _meta.ui.visibility holds a value other than "model" and "app".
// expect: apps.tool-meta
import { appServer, SHOW_TOOL } from './_app.mjs';

appServer({
  tools: [
    { ...SHOW_TOOL, _meta: { ui: { resourceUri: SHOW_TOOL._meta.ui.resourceUri, visibility: ['user'] } } },
  ],
});
