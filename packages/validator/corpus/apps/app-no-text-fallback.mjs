// Breaks (MUST): the app tool returns only structuredContent, no text for hosts without UI.
// expect: apps.text-fallback
import { appServer } from './_app.mjs';

appServer({
  callTool: (name) => (name === 'show_view' ? { content: [], structuredContent: { shown: '' } } : undefined),
});
