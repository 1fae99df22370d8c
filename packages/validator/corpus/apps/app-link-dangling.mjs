// Breaks (MUST): a tool links a ui:// resource the server cannot read.
// expect: apps.link-resolves
import { appServer, SHOW_TOOL } from './_app.mjs';

const uri = 'ui://corpus/missing.html';
appServer({ tools: [{ ...SHOW_TOOL, _meta: { ui: { resourceUri: uri } } }] });
