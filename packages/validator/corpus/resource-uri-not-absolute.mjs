// Breaks: a listed resource URI is not an absolute URI (RFC 3986).
// expect: resources.uri, schema.response
// requirement: resources-a8e856b1
import { main, RESOURCE } from './_server.mjs';

main({ resources: [RESOURCE, { uri: 'notes.txt', name: 'notes', mimeType: 'text/plain' }] });
