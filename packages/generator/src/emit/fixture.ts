/**
 * A small description written for the command-line and generator tests: path, query and body parameters, a
 * list with a cursor, an API key, tags. Kept in code (not a file) so tests write it where they need it.
 */
export const NOTES_DESCRIPTION = {
  openapi: '3.0.3',
  info: { title: 'Notes API', version: '1.2.0', description: 'A small notes service.' },
  servers: [{ url: 'https://notes.example.com/v1' }],
  components: {
    securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
    schemas: {
      Note: {
        type: 'object',
        required: ['id', 'text'],
        properties: {
          id: { type: 'string', readOnly: true },
          text: { type: 'string', maxLength: 500 },
          pinned: { type: 'boolean' },
        },
      },
    },
  },
  security: [{ apiKey: [] }],
  paths: {
    '/notes': {
      get: {
        operationId: 'listNotes',
        summary: 'List notes',
        tags: ['notes'],
        parameters: [
          { name: 'cursor', in: 'query', schema: { type: 'string' } },
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
        ],
        responses: {
          '200': {
            description: 'A page of notes',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['data'],
                  properties: {
                    data: { type: 'array', items: { $ref: '#/components/schemas/Note' } },
                    next_cursor: { type: 'string', nullable: true },
                  },
                },
              },
            },
          },
        },
      },
      post: {
        operationId: 'createNote',
        summary: 'Create a note',
        tags: ['notes'],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Note' } } },
        },
        responses: {
          '201': {
            description: 'Created',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Note' } } },
          },
        },
      },
    },
    '/notes/{noteId}': {
      parameters: [{ name: 'noteId', in: 'path', required: true, schema: { type: 'string' } }],
      get: {
        operationId: 'getNote',
        summary: 'Get a note',
        tags: ['notes'],
        responses: {
          '200': {
            description: 'The note',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Note' } } },
          },
        },
      },
      delete: {
        operationId: 'deleteNote',
        summary: 'Delete a note',
        tags: ['notes'],
        responses: { '204': { description: 'Deleted' } },
      },
    },
    '/health': {
      get: {
        operationId: 'health',
        summary: 'Service health',
        tags: ['meta'],
        security: [],
        responses: {
          '200': {
            description: 'OK',
            content: {
              'application/json': { schema: { type: 'object', properties: { status: { type: 'string' } } } },
            },
          },
        },
      },
    },
  },
} as const;
