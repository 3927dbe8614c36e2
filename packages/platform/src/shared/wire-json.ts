/**
 * A wire type as the platform stores and sends it, before the SDK revives it: its dates are ISO text
 * (`Date` in the SDK's types, which `wire/dates.ts` turns the text back into), or still a `Date` where
 * the platform's own values carry one (the answer's serializer writes both as the same text, as
 * http/responses.ts's `DateText` says). The platform's stored documents (orders, checkouts) are typed
 * from the SDK's wire shapes through it, so a misspelled or mistyped field is a compile error.
 */
export type WireJson<T> = T extends Date
  ? string | Date
  : T extends ReadonlyArray<infer Item>
    ? WireJson<Item>[]
    : T extends object
      ? { [K in keyof T]: WireJson<T[K]> }
      : T;
