export { GET_QUERY_FALLBACK_THRESHOLD, REQUEST_ID_HEADER, TRACING_HEADER } from './constants.ts';
export { DATE_FIELDS, reviveDates } from './dates.ts';
export { type Choice, COUNTRY_CODES, countryChoices, countryName, US_STATES } from './regions.ts';
export { decodeStructuredParam, encodeStructuredParam, STRUCTURED_PARAM } from './structured-param.ts';
export { type Trace, tracingHeaders } from './tracing.ts';
