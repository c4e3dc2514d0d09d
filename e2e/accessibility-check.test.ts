import { describe, expect, it } from 'vitest';
import { launchBrowser, seriousViolations } from './support/browser.js';

// The accessibility check every screen goes through runs axe in its quicker ways (in the page
// itself, violations alone kept): it must still find what it is there to find.

describe('the accessibility check', () => {
  it('finds text too faint to read, an image without words and a button without a name', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.setContent(
        `<html lang="en"><head><title>A page with faults</title></head><body><main>
          <h1>Faults</h1>
          <p style="color: #bbb; background: #fff">Faint text</p>
          <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
          <button></button>
        </main></body></html>`,
      );
      const found = await seriousViolations(page);
      expect(found.map((violation) => violation.id).sort()).toEqual([
        'button-name',
        'color-contrast',
        'image-alt',
      ]);
    } finally {
      await browser.close();
    }
  });
});
