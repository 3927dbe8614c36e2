/**
 * Links to the platform's own images and pages depend on the address shoppers reach it at
 * (`PUBLIC_URL`), which each process is configured with: two processes of one store need not share
 * it, and a store may move. So what is stored never holds that address. A stored link starts with
 * `PUBLIC_URL_MARK` instead (`linkTo('/media/mug.svg')`), and each answer puts the answering
 * process's public URL in its place (`PublicLinks`): one pass over the answer's text.
 *
 * The mark starts with a NUL character, which no input may hold (the HTTP shell refuses it, and
 * PostgreSQL could not store it), so nothing a merchant or shopper wrote is ever taken for it.
 */
export const PUBLIC_URL_MARK = '\u0000PUBLIC_URL';

/** The mark as JSON text writes it, inside a string: `\u0000PUBLIC_URL`. */
export const PUBLIC_URL_MARK_IN_JSON = JSON.stringify(PUBLIC_URL_MARK).slice(1, -1);
const QUOTE = 34;

/** A link to `path` (`/media/mug.svg`) on the platform, for storing: an answer names the full address. */
export function linkTo(path: string): string {
  return PUBLIC_URL_MARK + path;
}

/** Whether `value` is a stored link to the platform (see `linkTo`). */
export const isPlatformLink = (value: string): boolean => value.startsWith(PUBLIC_URL_MARK);

/** One process's public address, put into the links of what it answers. */
export class PublicLinks {
  constructor(readonly publicUrl: string) {}

  /**
   * `text` (JSON) with every stored link made absolute. A link is a string that starts with the mark,
   * so only a mark right after an opening quote counts: `\\u0000PUBLIC_URL`, someone's text that
   * merely spells the mark out, is left as it is. Searching for the backslash the mark starts with
   * is quick, as JSON text holds few; a text without a link is answered as it is.
   */
  fill(text: string): string {
    const mark = PUBLIC_URL_MARK_IN_JSON;
    let at = text.indexOf(mark);
    if (at === -1) return text;
    let filled = '';
    let from = 0;
    for (; at !== -1; at = text.indexOf(mark, at + mark.length)) {
      if (text.charCodeAt(at - 1) !== QUOTE) continue;
      filled += text.slice(from, at) + this.publicUrl;
      from = at + mark.length;
    }
    return from === 0 ? text : filled + text.slice(from);
  }

  /** One stored link (or any other URL, answered as it is) made absolute. */
  url(value: string): string {
    return isPlatformLink(value) ? this.publicUrl + value.slice(PUBLIC_URL_MARK.length) : value;
  }

  /**
   * A URL a caller sent, to store: one at this process's own address (an image of the platform's,
   * as an answer named it, sent back) is stored as a link to the platform, so it follows the address.
   */
  stored(url: string): string {
    const rest = url.slice(this.publicUrl.length);
    return url.startsWith(this.publicUrl) && (rest === '' || rest.startsWith('/')) ? linkTo(rest) : url;
  }
}
