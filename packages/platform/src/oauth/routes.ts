import type { FastifyInstance } from 'fastify';
import { invalidArgument, violation } from '../shared/errors.ts';
import type { TokenService } from './tokens.ts';

interface TokenRequest {
  grantType?: string;
  grant_type?: string;
  clientId?: string;
  client_id?: string;
  refreshToken?: string;
  refresh_token?: string;
}

/** `POST /oauth2/token`: camelCase in (snake_case accepted too), snake_case out. */
export function oauthRoutes(app: FastifyInstance, tokens: TokenService): void {
  app.post<{ Body: TokenRequest }>('/oauth2/token', { config: { access: 'public' } }, async (request) => {
    const body = request.body ?? {};
    const grantType = body.grantType ?? body.grant_type;
    const clientId = body.clientId ?? body.client_id;
    switch (grantType) {
      case 'anonymous':
        if (!clientId) throw invalidArgument([violation('clientId', 'is required', 'REQUIRED_FIELD')]);
        return tokens.issueVisitorTokens(clientId);
      case 'refresh_token': {
        const refreshToken = body.refreshToken ?? body.refresh_token;
        if (!refreshToken)
          throw invalidArgument([violation('refreshToken', 'is required', 'REQUIRED_FIELD')]);
        return tokens.refresh(refreshToken, clientId);
      }
      default:
        throw invalidArgument([
          violation('grantType', `unsupported grant type ${String(grantType)}`, 'INVALID_ENUM_VALUE'),
        ]);
    }
  });
}
