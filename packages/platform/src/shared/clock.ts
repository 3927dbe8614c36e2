/** The last moment `nowIso` wrote, and its text. */
let lastMs = Number.NaN;
let lastText = '';

/**
 * `new Date().toISOString()`, written once per millisecond: a busy process stamps many changes in the
 * same millisecond, and V8 formats a date slowly (about a microsecond, most of a stamp's cost).
 */
export function nowIso(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastText = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastText;
}
