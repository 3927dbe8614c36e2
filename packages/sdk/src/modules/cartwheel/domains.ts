import { everyHost } from '../../transport/domains.ts';

/**
 * Cartwheel's own calls (`/api/cartwheel/...`): the same path on every host, for Cartwheel's
 * platform; the hosted platform has no such calls.
 */
export const CARTWHEEL_API = everyHost(['', '/api/cartwheel']);
