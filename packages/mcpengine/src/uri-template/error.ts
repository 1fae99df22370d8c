/** A URI template that does not follow RFC 6570, or a value that cannot be expanded into it. */
export class UriTemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UriTemplateError';
  }
}
