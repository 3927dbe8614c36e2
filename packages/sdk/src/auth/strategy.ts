/** What a strategy needs to reach the platform for its own token calls. */
export interface AuthContext {
  /** `http://localhost:4000`, `https://www.wixapis.com`: scheme and host, no trailing slash. */
  baseUrl: string;
  fetch: typeof fetch;
}

/** Supplies the headers that authorize each call. */
export interface AuthStrategy {
  getAuthHeaders(context: AuthContext): Promise<Record<string, string>>;
  /** Called once when the platform answers 401, before the call is tried again. */
  onUnauthorized?(context: AuthContext): Promise<boolean>;
  /** `createClient` names its host, so a strategy's own calls (sign-in, say) can go to the same one. */
  attach?(client: { baseUrl: string }): void;
}
