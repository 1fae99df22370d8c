// Breaks (MUST): a tool links its View with an https:// URI instead of a ui:// one.
// expect: apps.ui-scheme
import { appServer, SHOW_TOOL } from './_app.mjs';

const uri = 'https://example.com/view.html';
appServer({ tools: [{ ...SHOW_TOOL, _meta: { ui: { resourceUri: uri } } }] });
