/**
 * `text`, made one flat string in place. A string built with `+` is a tree of its parts, which V8
 * walks again every time the string is copied into another, until something reads a character of it:
 * then V8 flattens it once. A piece kept and joined into every answer is read here first (joining a
 * cart answer from such trees took seven times as long).
 */
export function flat(text: string): string {
  text.charCodeAt(0);
  return text;
}

/**
 * Whether `value`'s enumerable keys are `keys`, in order (an array or a class instance never is): an
 * object whose JSON text may be written out by hand, key by key, as JSON.stringify would.
 */
export function hasExactly(value: object, keys: readonly string[]): boolean {
  if (Array.isArray(value) || Object.getPrototypeOf(value) !== Object.prototype) return false;
  let at = 0;
  for (const key in value) {
    if (key !== keys[at]) return false;
    at++;
  }
  return at === keys.length;
}
