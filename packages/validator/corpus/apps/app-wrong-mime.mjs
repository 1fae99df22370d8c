// Breaks (MUST): the View is read with mimeType text/html instead of text/html;profile=mcp-app.
// expect: apps.mime-type
import { appServer } from './_app.mjs';

appServer({ content: (item) => ({ ...item, mimeType: 'text/html' }) });
