import { AsyncLocalStorage } from 'node:async_hooks';
import type { Principal } from './principal.ts';

/** Who caused an event, as its outbox row records it. */
export interface EventActor {
  type: 'VISITOR' | 'MEMBER' | 'STAFF' | 'API_KEY' | 'ADMIN_KEY' | 'ANONYMOUS' | 'PLATFORM';
  /** The visitor's, member's or staff member's identity id, or the API key's id; null for the others. */
  id: string | null;
}

/** What a change runs on behalf of: a call's resolved principal, or none (the platform's own work). */
export interface Acting {
  readonly principal: Principal | null;
}

/** The call (or background job) each piece of work runs for, set once where it begins. */
const acting = new AsyncLocalStorage<Acting>();
const PLATFORM: Acting = { principal: null };
const PLATFORM_ACTOR: EventActor = { type: 'PLATFORM', id: null };

/** Runs `work` on behalf of `caller` (the HTTP layer passes each request: its principal is read when an event is written). */
export function actingFor<T>(caller: Acting, work: () => T): T {
  return acting.run(caller, work);
}

/** Runs `work` as the platform itself: a background job, even when a call woke it. */
export function actingAsPlatform<T>(work: () => T): T {
  return acting.run(PLATFORM, work);
}

/** Who the work under way runs for; the platform outside any call. */
export function currentActor(): EventActor {
  const principal = acting.getStore()?.principal;
  if (!principal) return PLATFORM_ACTOR;
  switch (principal.kind) {
    case 'visitor':
      return { type: 'VISITOR', id: principal.visitorId };
    case 'member':
      return { type: 'MEMBER', id: principal.memberId };
    case 'admin':
      if (!principal.actor) return { type: 'ADMIN_KEY', id: null };
      return { type: principal.actor.type === 'STAFF' ? 'STAFF' : 'API_KEY', id: principal.actor.id };
    case 'anonymous':
      return { type: 'ANONYMOUS', id: null };
  }
}
