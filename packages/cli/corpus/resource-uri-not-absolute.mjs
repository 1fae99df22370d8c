// Breaks: a listed resource URI is not an absolute URI (RFC 3986).
// expect: resources.uri, schema.response
import { main, RESOURCE } from './_server.mjs';

main({ resources: [RESOURCE, { uri: 'notes.txt', name: 'notes', mimeType: 'text/plain' }] });
