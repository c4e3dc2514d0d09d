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
  await context.exposeBinding('parlaPageLog', (_source, line: string) => {
    add(line);
  });
  await context.addInitScript((watched: string) => {
    const log = (line: string) => {
      void (window as unknown as { parlaPageLog: (line: string) => Promise<void> }).parlaPageLog(line);
    };
    let last = '';
    const report = () => {
      const shown = [...document.querySelectorAll(watched)]
        // textContent, not innerText: reading the text must not lay the page out at every change.
        .map((element) => element.textContent.replace(/\s+/g, ' ').trim())
        .filter((line, i, all) => line !== '' && all.indexOf(line) === i)
        .join(' | ');
      if (shown === last) return;
      last = shown;
      log(`shows: ${shown}`);
    };
    // The document itself: the script runs before it has an element.
    new MutationObserver(report).observe(document, {
      subtree: true,
      childList: true,
      characterData: true,
    });
    // The recogniser's worker, in local mode: what the page asks of it (its audio left out) and
    // the stream events and failures it answers with.
    const brief = (value: unknown) => JSON.stringify(value).slice(0, 400);
    window.Worker = class extends window.Worker {
      constructor(url: string | URL, options?: WorkerOptions) {
        super(url, options);
        this.addEventListener('message', (event: MessageEvent<unknown>) => {
          const reply = event.data as { ok?: boolean; result?: unknown; error?: unknown } | null;
          if (reply?.ok === false) log(`worker failed: ${brief(reply.error)}`);
          else if (Array.isArray(reply?.result) && reply.result.length > 0)
            log(`worker events: ${brief(reply.result)}`);
        });
      }
      override postMessage(message: unknown, options?: Transferable[] | StructuredSerializeOptions) {
        const request = message as { name?: string; args?: { streamId?: string } } | null;
        if (typeof request?.name === 'string' && request.name !== 'push-audio')
          log(`worker asked: ${request.name}${request.args?.streamId ? ` ${request.args.streamId}` : ''}`);
        // Each of its two signatures, as it was called.
        if (Array.isArray(options)) super.postMessage(message, options);
        else super.postMessage(message, options);
      }
    };
  }, WATCHED);
  return { lines: () => [...lines] };
}
