// Breaks (advisory): a tool links its View only with the deprecated flat _meta["ui/resourceUri"].
// expect: apps.deprecated-key
import { appServer, SHOW_TOOL, VIEW_URI } from './_app.mjs';

appServer({ tools: [{ ...SHOW_TOOL, _meta: { 'ui/resourceUri': VIEW_URI } }] });
