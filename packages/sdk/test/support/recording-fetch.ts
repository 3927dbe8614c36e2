/** One request as it left a client: what the platform would receive, byte for byte. */
export interface SentRequest {
  method: string;
  url: string;
  headers: Headers;
  /** The body's exact text, or undefined when there is none. */
  body: string | undefined;
}

export interface RecordingFetch {
  fetch: typeof fetch;
  requests: SentRequest[];
  /** What every call but the token endpoint's is answered with (`{}` unless set). */
  answer: unknown;
}

/** Answers of the recording fetch: tokens from the token endpoint, `answer` from anything else. */
const TOKENS = { access_token: 'access-1', expires_in: 3600, refresh_token: 'refresh-1' };

/**
 * A `fetch` that never leaves the process: it records each request (through the platform's own
 * `Request`, so both clients' inputs are read the same way) and answers 200 with JSON.
 */
export function recordingFetch(): RecordingFetch {
  const requests: SentRequest[] = [];
  const record = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    requests.push({
      method: request.method,
      url: request.url,
      headers: request.headers,
      body: request.body ? await request.text() : undefined,
    });
    const answer = new URL(request.url).pathname === '/oauth2/token' ? TOKENS : recording.answer;
    return new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } });
  };
  const recording: RecordingFetch = { fetch: record as typeof fetch, requests, answer: {} };
  return recording;
}
