/** Query parameters whose values are credentials: a log line keeps their names only. */
const SECRET_PARAMS = new Set([
  'sessiontoken',
  'code',
  'state',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'recoverytoken',
  'statetoken',
  'code_verifier',
  'codeverifier',
]);

/** `/oauth2/authorize?sessionToken=abc&client_id=x` → `/oauth2/authorize?sessionToken=[redacted]&client_id=x`. */
export function redactUrl(url: string): string {
  const question = url.indexOf('?');
  if (question < 0) return url;
  const query = url
    .slice(question + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals < 0 ? pair : pair.slice(0, equals);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {}
      return equals >= 0 && SECRET_PARAMS.has(decoded.toLowerCase()) ? `${name}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, question)}?${query}`;
}
