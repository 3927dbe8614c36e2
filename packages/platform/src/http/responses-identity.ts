import Type, { type Static, type TObject, type TProperties, type TSchema } from 'typebox';

/**
 * Pieces of the answers' schemas (issue 37) for the identity, members, staff, catalog and settings
 * domains. Fastify compiles each route's `response` schema into its serializer (fast-json-stringify),
 * which writes only the properties a schema names: a field left out here is dropped from the answer.
 * Error answers (4xx, 5xx) are not declared: the error handler writes them in the wire's one form.
 */

/** Text the service may answer as `null` (a compiled `string` would write `""`). */
export const NullableText = Type.Unsafe<string | null>({ type: ['string', 'null'] });
export const NullableNumber = Type.Unsafe<number | null>({ type: ['number', 'null'] });
export const NullableBoolean = Type.Unsafe<boolean | null>({ type: ['boolean', 'null'] });

/** A point in time: a `Date` in the service, its ISO text on the wire, a `Date` again in the SDK. */
export const Timestamp = Type.Unsafe<Date>({ type: 'string', format: 'date-time' });
export const NullableTimestamp = Type.Unsafe<Date | null>({ type: ['string', 'null'], format: 'date-time' });

/** Any JSON value, written as it is (free-form data the platform keeps for its caller). */
export const AnyValue = Type.Unknown();

/** An object whose named fields are checked and whose others are kept: for documents open by design. */
export const Open = <P extends TProperties>(properties: P): TObject<P> =>
  Type.Object(properties, { additionalProperties: true });

/** The empty answer of a call that changes something and has nothing to tell (`{}`). */
export const Empty = Type.Object({});

/** A list of `item`s the service may answer as `null`. */
export const NullableList = <T extends TSchema>(item: T) =>
  Type.Unsafe<Array<Static<T>> | null>({ type: ['array', 'null'], items: item });

/** One of a fixed set of words: written as text (a union of literals would be matched branch by branch). */
export const Choice = <const T extends readonly string[]>(values: T) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values] });

/** The fields of a postal address (SDK `Address`). */
export const AddressFields = {
  country: Type.Optional(NullableText),
  subdivision: Type.Optional(NullableText),
  city: Type.Optional(NullableText),
  postalCode: Type.Optional(NullableText),
  addressLine: Type.Optional(NullableText),
  addressLine1: Type.Optional(NullableText),
  addressLine2: Type.Optional(NullableText),
  formattedAddress: Type.Optional(NullableText),
  countryFullname: Type.Optional(NullableText),
  subdivisionFullname: Type.Optional(NullableText),
  streetAddress: Type.Optional(AnyValue),
  geocode: Type.Optional(AnyValue),
};

/** A postal address as kept: the named fields, and any other the input let through. */
export const AddressAnswer = Open(AddressFields);

/** The cursor paging of a hosted query's answer. */
export const CursorPagingAnswer = Type.Object({
  count: Type.Optional(Type.Number()),
  cursors: Type.Optional(
    Type.Object({ next: Type.Optional(NullableText), prev: Type.Optional(NullableText) }),
  ),
  hasNext: Type.Optional(Type.Boolean()),
});
