// Breaks (SHOULD): the ui:// resource is listed as text/html (the read contents are right).
// expect: apps.listed-mime-type
import { appServer, VIEW_URI } from './_app.mjs';

appServer({ resource: { uri: VIEW_URI, name: 'corpus-view', mimeType: 'text/html' } });
