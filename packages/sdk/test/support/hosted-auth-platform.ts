import type { AuthorizeRequest, CreateRedirectSessionRequest } from '../../src/index.ts';
import type { CannedResponse, LoopbackServer, RecordedRequest } from './loopback-server.ts';

/**
 * The hosted platform's auth endpoints as a loopback server answers them: the token endpoint (visitor,
 * refresh, code and external-login grants), redirect sessions whose `fullUrl` leads to an authorization
 * endpoint, and that endpoint answering a `prompt: none` request at once. Each part can be replaced.
 */
export interface HostedAuthPlatform {
  /** Authorization requests of the login redirect sessions, by session id. */
  sessions: Map<string, AuthorizeRequest>;
  /** The authorization endpoint: by default a 302 to the redirect URI with a code, or `{code, state}` for web_message. */
  authorize: (session: AuthorizeRequest, request: RecordedRequest) => CannedResponse;
  /** Answers to identity and other calls, by public path. */
  answers: Map<string, (request: RecordedRequest) => CannedResponse>;
  tokenStatus: number;
}

export const AUTHORIZE_PATH = '/oauth2/authorize';

export function playHostedAuthPlatform(server: LoopbackServer): HostedAuthPlatform {
  let visitors = 0;
  const platform: HostedAuthPlatform = {
    sessions: new Map(),
    answers: new Map(),
    tokenStatus: 200,
    authorize: (session) => {
      const code = `code-for-${session.sessionToken ?? 'page'}`;
      if (session.responseMode === 'web_message') return { body: { code, state: session.state } };
      const answer = `code=${encodeURIComponent(code)}&state=${encodeURIComponent(session.state)}`;
      const separator = session.responseMode === 'query' ? '?' : '#';
      return { status: 302, headers: { location: `${session.redirectUri}${separator}${answer}` } };
    },
  };

  server.respond = (request) => {
    if (request.path === '/oauth2/token') {
      if (platform.tokenStatus !== 200) return { status: platform.tokenStatus, body: { message: 'refused' } };
      const body = request.body as Record<string, string>;
      if (body.grantType === 'authorization_code' || body.grant_type === 'authorized_client') {
        return { body: { access_token: 'member-access', expires_in: 3600, refresh_token: 'member-refresh' } };
      }
      visitors++;
      return {
        body: {
          access_token: `visitor-access-${visitors}`,
          expires_in: 3600,
          refresh_token: `visitor-refresh-${visitors}`,
        },
      };
    }
    if (request.path === '/_api/redirects-api/v1/redirect-session') {
      const body = request.body as CreateRedirectSessionRequest;
      const id = `rs-${platform.sessions.size + 1}`;
      if (body.auth) platform.sessions.set(id, body.auth.authRequest);
      const endpoint = body.auth ? `${server.url}${AUTHORIZE_PATH}` : `${server.url}/oauth2/logout`;
      return {
        body: {
          redirectSession: {
            id,
            fullUrl: `${endpoint}?session=${id}`,
            urlDetails: { endpoint, searchParams: { session: id } },
          },
        },
      };
    }
    if (request.path === AUTHORIZE_PATH) {
      const session = platform.sessions.get(request.query.get('session') ?? '');
      if (!session) return { status: 400, body: { message: 'no such session' } };
      return platform.authorize(session, request);
    }
    const answer = platform.answers.get(request.path);
    return answer ? answer(request) : { body: {} };
  };
  return platform;
}
