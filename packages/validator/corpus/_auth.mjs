// Bearer-token protection for the corpus HTTP server (an `http` hook): requests without the token get 401 with
// a Bearer challenge naming the Protected Resource Metadata, published at the RFC 9728 well-known URI. Each flag
// breaks one requirement.
export const TOKEN = 'corpus-token';

/** flaws: `noChallenge` (401 without WWW-Authenticate), `acceptAnyToken` (any bearer token is let through). */
export function requireToken(flaws = {}) {
  return (req, res, _body, next) => {
    const host = req.headers.host ?? '127.0.0.1';
    if ((req.url ?? '').startsWith('/.well-known/oauth-protected-resource')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(
        JSON.stringify({
          resource: `http://${host}/mcp`,
          authorization_servers: ['https://auth.corpus.invalid'],
          scopes_supported: ['mcp'],
        }),
      );
    }
    const auth = req.headers.authorization ?? '';
    const ok = auth === `Bearer ${TOKEN}` || (flaws.acceptAnyToken === true && auth.startsWith('Bearer '));
    if (!ok) {
      const challenge = `Bearer resource_metadata="http://${host}/.well-known/oauth-protected-resource/mcp", scope="mcp"`;
      res.writeHead(401, flaws.noChallenge ? {} : { 'www-authenticate': challenge });
      return res.end();
    }
    return next();
  };
}
