import type { BrowserContext } from 'playwright-core';

// What a test's pages showed and said, as it happened: printed when the test fails, so that a
// failure seen once in a loaded CI run says what the page went through (a press that ended,
// a profile loaded again, a request refused), not only what it showed at the end.

/** At most this many lines are kept: the end of a long test is what explains its failure. */
const KEPT_LINES = 300;

/** The page's lines worth following: its recognition status, its notices, the phrase shown. */
const WATCHED =
  '[data-testid="recognition-status"], [aria-live], [data-testid="spoken-phrase"], [role="alert"], [role="status"]';

export interface PageLog {
  /** The lines so far, each with the seconds since the log began. */
  lines(): string[];
}

/** Follows every page of `context` from now on. */
export async function recordPageLog(context: BrowserContext): Promise<PageLog> {
  const began = performance.now();
  const lines: string[] = [];
  const add = (line: string) => {
    lines.push(`${((performance.now() - began) / 1000).toFixed(2)} s  ${line}`);
    if (lines.length > KEPT_LINES) lines.shift();
  };
  context.on('console', (message) => {
    add(`console.${message.type()}: ${message.text()}`);
  });
  context.on('weberror', (error) => {
    add(`uncaught: ${error.error().message}`);
  });
  context.on('requestfailed', (request) => {
    add(`request failed: ${request.method()} ${request.url()} (${request.failure()?.errorText ?? ''})`);
  });
  // Every call to the API (a profile loaded again shows as its model's links fetched again), and
  // any other request refused.
  context.on('response', (response) => {
    const { pathname } = new URL(response.url());
    if (response.status() >= 400 || pathname.startsWith('/app/'))
      add(`${response.status()} ${response.request().method()} ${pathname}`);
  });
  // The app reports its faults to the server rather than to the console.
  context.on('request', (request) => {
    if (new URL(request.url()).pathname.endsWith('/logsBatch')) add(`app log: ${request.postData() ?? ''}`);
  });
  await context.exposeBinding('parlaPageLog', (_source, shown: string) => {
    add(`shows: ${shown}`);
  });
  await context.addInitScript((watched: string) => {
    let last = '';
    const report = () => {
      const shown = [...document.querySelectorAll(watched)]
        // textContent, not innerText: reading the text must not lay the page out at every change.
        .map((element) => element.textContent.replace(/\s+/g, ' ').trim())
        .filter((line, i, all) => line !== '' && all.indexOf(line) === i)
        .join(' | ');
      if (shown === last) return;
      last = shown;
      void (window as unknown as { parlaPageLog: (shown: string) => Promise<void> }).parlaPageLog(shown);
    };
    // The document itself: the script runs before it has an element.
    new MutationObserver(report).observe(document, {
      subtree: true,
      childList: true,
      characterData: true,
    });
  }, WATCHED);
  return { lines: () => [...lines] };
}
