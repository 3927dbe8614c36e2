import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** What has the keyboard's focus: its tag, accessible-ish name and whether its focus is drawn. */
export interface Focused {
  tag: string;
  name: string;
  outlined: boolean;
}

/** The focused element as a keyboard user meets it: its name (label, aria-label or text) and its outline. */
export function focused(page: Page): Promise<Focused> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return { tag: 'body', name: '', outlined: false };
    const labelled = element.getAttribute('aria-labelledby');
    const input = element as HTMLInputElement;
    const name =
      element.getAttribute('aria-label') ??
      (labelled ? document.getElementById(labelled)?.textContent : null) ??
      (input.labels?.[0]?.textContent || null) ??
      element.textContent ??
      '';
    const style = getComputedStyle(element);
    const outlined = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0;
    return { tag: element.tagName.toLowerCase(), name: name.replace(/\s+/g, ' ').trim(), outlined };
  });
}

/**
 * Presses Tab (or Shift+Tab) until the focused element's name matches `name`, as a keyboard user moves
 * through the page; fails when `limit` presses do not reach it. The element reached must show its focus.
 */
export async function tabTo(
  page: Page,
  name: string | RegExp,
  options: { backwards?: boolean; limit?: number } = {},
): Promise<Focused> {
  const key = options.backwards ? 'Shift+Tab' : 'Tab';
  const seen: string[] = [];
  for (let presses = 0; presses < (options.limit ?? 120); presses++) {
    await page.keyboard.press(key);
    const now = await focused(page);
    seen.push(`${now.tag}:${now.name}`);
    if (typeof name === 'string' ? now.name === name : name.test(now.name)) {
      expect(now.outlined, `focus on "${now.name}" is visible`).toBe(true);
      return now;
    }
  }
  throw new Error(`${key} never reached "${name}"; it went through: ${seen.join(' | ')}`);
}
