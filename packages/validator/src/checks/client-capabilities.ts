/**
 * Which client capability a server-initiated request (a legacy request, or a value of a modern
 * `inputRequests`) relies on: the facets of the checks that catch requests the client did not invite.
 */
import { isObject } from '@mcpengine/wire';

export const CLIENT_CAPABILITY_FACETS = [
  'roots',
  'sampling',
  'sampling-tools',
  'sampling-context',
  'elicitation',
  'other',
] as const;

export function clientCapabilityFacets(request: unknown): string[] {
  if (!isObject(request)) return ['other'];
  const params = isObject(request['params']) ? request['params'] : {};
  switch (request['method']) {
    case 'roots/list':
      return ['roots'];
    case 'sampling/createMessage': {
      const facets = ['sampling'];
      if (Array.isArray(params['tools']) && params['tools'].length > 0) facets.push('sampling-tools');
      if (params['includeContext'] === 'thisServer' || params['includeContext'] === 'allServers')
        facets.push('sampling-context');
      return facets;
    }
    case 'elicitation/create':
      return ['elicitation'];
    default:
      return ['other'];
  }
}
