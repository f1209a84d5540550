import { expect, test, type Locator, type Page } from '../support/e2e.ts';

// Issue 56: at 1280 px the positive-EV page cut the side to bet ("Emmett Upshaw Shots on Tar…") and both finder pages
// cut event names, with no way to read them. Every text of every row drawn must be whole at a desktop and a phone
// width: no element that clips its content holds more than it shows, and no text runs outside its row.

const PAGES = [
  { path: '/betting-tools/positive-ev', list: 'Prices with positive EV, best first' },
  { path: '/betting-tools/middles', list: 'Middles, best EV first' },
  // Player-prop middles carry the longest names ("LeBron James Points: 25 to 26").
  { path: '/betting-tools/middles?market=prop', list: 'Middles, best EV first' },
] as const;

const WIDTHS = [1280, 390] as const;

// The first reading of the board takes seconds on a loaded machine.
const FIRST_ROWS = { timeout: 20_000 };

/** The texts of the rows that are cut: clipped by their box, or running out of their row. */
function cutTexts(list: Locator): Promise<string[]> {
  return list.evaluate((element) => {
    const cut: string[] = [];
    /** Visually hidden (an `sr-only` label for screen readers) or not drawn: not text a visitor reads. */
    const hidden = (node: Element, row: Element): boolean => {
      for (let at: Element | null = node; at && at !== row; at = at.parentElement) {
        const style = getComputedStyle(at);
        const box = at.getBoundingClientRect();
        if (style.display === 'none' || style.visibility === 'hidden') return true;
        if (box.width <= 1 && box.height <= 1) return true;
      }
      return false;
    };
    for (const row of element.querySelectorAll(':scope > li')) {
      const rowBox = row.getBoundingClientRect();
      for (const node of row.querySelectorAll('*')) {
        if (hidden(node, row)) continue;
        const style = getComputedStyle(node);
        const clips = style.overflowX !== 'visible' || style.textOverflow === 'ellipsis';
        if (clips && node.scrollWidth > node.clientWidth) cut.push(`clipped: ${node.textContent}`);
        for (const child of node.childNodes) {
          if (child.nodeType !== Node.TEXT_NODE || !child.textContent?.trim()) continue;
          const range = document.createRange();
          range.selectNodeContents(child);
          const text = range.getBoundingClientRect();
          if (text.left < rowBox.left - 0.5 || text.right > rowBox.right + 0.5)
            cut.push(`outside its row: ${child.textContent}`);
        }
      }
    }
    return cut;
  });
}

async function open(page: Page, path: string, list: string): Promise<Locator> {
  await page.goto(path);
  const rows = page.getByRole('list', { name: list });
  await expect(rows.getByRole('listitem').first()).toBeVisible(FIRST_ROWS);
  return rows;
}

test.describe('the finder pages’ rows', () => {
  test.describe.configure({ timeout: 90_000 });

  for (const width of WIDTHS)
    for (const { path, list } of PAGES)
      test(`${path} shows every text of every row whole at ${width} px`, async ({ page }) => {
        await page.setViewportSize({ width, height: 900 });
        const rows = await open(page, path, list);
        expect(await rows.getByRole('listitem').count()).toBeGreaterThan(0);
        expect(await cutTexts(rows)).toEqual([]);
      });
});
