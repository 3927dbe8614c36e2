import Type from 'typebox';
import { NullableText } from '../http/responses-identity.ts';

/** What the OAuth calls answer: tokens in RFC 6749's snake_case, redirect sessions, the client registry. */

/** `POST /oauth2/token` (SDK `TokenResponse`). */
export const TokenAnswer = Type.Object({
  access_token: Type.String(),
  expires_in: Type.Number(),
  refresh_token: Type.Optional(Type.String()),
});

/** `POST /_api/redirects-api/v1/redirect-session` (SDK `RedirectSession`). */
export const RedirectSessionAnswer = Type.Object({
  redirectSession: Type.Object({
    id: Type.Optional(Type.String()),
    fullUrl: Type.Optional(Type.String()),
    urlDetails: Type.Optional(
      Type.Object({
        endpoint: Type.Optional(Type.String()),
        searchParams: Type.Optional(Type.Record(Type.String(), Type.String())),
      }),
    ),
    sessionToken: Type.Optional(NullableText),
    shortUrl: Type.Optional(Type.String()),
  }),
});

/**
 * The browser-facing endpoints answer a redirect (its `Location` is the answer) or, for a
 * `web_message` authorization, an HTML page that posts the answer to its opener.
 */
export const RedirectAnswer = Type.Null({ description: 'a redirect: the Location header is the answer' });
/** RFC 6749's error form, which these endpoints answer instead of the wire's (`oauthErrors`). */
export const OAuthErrorAnswer = Type.Object({
  error: Type.String(),
  error_description: Type.String(),
  state: Type.Optional(Type.String()),
});
export const WebMessagePage = Type.String({ description: 'an HTML page (text/html), sent as written' });

/** A refusal of `/oauth2/authorize`: RFC 6749's error, or a page posting it to a `web_message` opener. */
export const AuthorizeRefusal = Type.Union([OAuthErrorAnswer, WebMessagePage]);

const OAuthClientAnswer = Type.Object({
  id: Type.String(),
  name: Type.String(),
  redirectUris: Type.Array(Type.String()),
  allowedOrigins: Type.Array(Type.String()),
  createdDate: Type.String(),
});

export const OAuthClientListAnswer = Type.Object({ clients: Type.Array(OAuthClientAnswer) });
export const OneOAuthClientAnswer = Type.Object({ client: OAuthClientAnswer });
