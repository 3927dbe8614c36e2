import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE: string = createRequire(import.meta.url)('axe-core').source;

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[]; failureSummary?: string }>;
}

/** axe's serious and critical violations on the page as it is now, each with where and why. */
export async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE_SOURCE });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<any> } })
      .axe;
    const results = await axe.run(document, { resultTypes: ['violations'] });
    return results.violations as Violation[];
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) =>
      violation.nodes.map(
        (node) =>
          `${violation.id} (${violation.impact}) at ${JSON.stringify(node.target)}: ${violation.help}. ${
            node.failureSummary ?? ''
          }`,
      ),
    );
}
