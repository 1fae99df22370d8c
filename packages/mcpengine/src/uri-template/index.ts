export { UriTemplate } from './uri-template.js';
export { UriTemplateError } from './error.js';
export type { UriTemplateValue, UriTemplateVariables } from './expand.js';
export type { UriTemplateMatch } from './match.js';
export { MAX_TEMPLATE_LENGTH } from './parse.js';
export { MAX_URI_LENGTH } from './match.js';
