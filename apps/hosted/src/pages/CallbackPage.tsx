import { localStorageTokenStorage, OAuthStrategy } from '@cartwheel/sdk';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { takeOwnFlow } from '../authorization.ts';
import { useHostedConfig } from '../components/HostedConfig.ts';
import { HostedPage } from '../components/Layout.tsx';
import { Notice, ProblemMessage } from '../components/Notices.tsx';

type Outcome =
  | { kind: 'working' }
  | { kind: 'error'; message: string }
  | { kind: 'received' }
  | { kind: 'missing' };

/**
 * `/auth/callback`: where the authorization endpoint answers. A sign-in these pages started (opened
 * without an app's request) is finished here: the code becomes member tokens, kept where the store
 * keeps its own, and the member goes back to the store. Any other app's code is that app's to exchange.
 */
export function CallbackPage() {
  const { storeName } = useHostedConfig();
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'working' });
  const started = useRef(false);

  useEffect(() => {
    // the code is good for one exchange: never twice, even when React runs the effect again
    if (started.current) return;
    started.current = true;
    const params = answerParams(window.location);
    const error = params.get('error');
    const code = params.get('code');
    const state = params.get('state');
    if (error) {
      setOutcome({ kind: 'error', message: params.get('error_description') || error });
      return;
    }
    if (!code || !state) {
      setOutcome({ kind: 'missing' });
      return;
    }
    const flow = takeOwnFlow(state);
    if (!flow) {
      setOutcome({ kind: 'received' });
      return;
    }
    const origin = window.location.origin;
    const strategy = OAuthStrategy({
      clientId: flow.clientId,
      host: origin,
      storage: localStorageTokenStorage(`cartwheel.tokens.${flow.clientId}`),
    });
    strategy
      .getMemberTokens(code, state, flow.oauthData)
      .then((tokens) => {
        strategy.setTokens(tokens);
        window.location.replace(flow.oauthData.originalUri || '/');
      })
      .catch(() =>
        setOutcome({ kind: 'error', message: 'We could not finish signing you in. Please try again.' }),
      );
  }, []);

  if (outcome.kind === 'working') {
    return (
      <HostedPage title="Signing you in">
        <p role="status">One moment…</p>
      </HostedPage>
    );
  }
  if (outcome.kind === 'received') {
    return (
      <HostedPage title="Signed in">
        <Notice tone="success">
          <p>The sign-in code was received. The app you signed in to finishes signing you in.</p>
        </Notice>
        <p>
          <a href="/">Back to {storeName}</a>
        </p>
      </HostedPage>
    );
  }
  return (
    <HostedPage title="Sign-in did not finish">
      <ProblemMessage
        problem={{
          message:
            outcome.kind === 'error'
              ? outcome.message
              : 'This page was opened without a sign-in answer. Please sign in again.',
          action: 'login',
        }}
        links={{ login: '/login' }}
      />
      <p>
        <Link to="/login">Sign in</Link>
      </p>
    </HostedPage>
  );
}

/** The answer's parameters: in the query, or in the fragment (the default response mode). */
function answerParams(location: Location): URLSearchParams {
  const query = new URLSearchParams(location.search);
  if (query.has('code') || query.has('error')) return query;
  return new URLSearchParams(location.hash.replace(/^#/, ''));
}
