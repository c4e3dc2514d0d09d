import { writeFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { usePagePerTest } from './support/harness.js';
import type { TestServer } from './support/server.js';
import { seedSession } from './support/session.js';
import { expectSpoken, listenHandsFree } from './support/speak-page.js';
import { fakeMicrophone, fsddDigitWav } from './support/speech.js';
import { dismissProfileUpdated, trainVoiceProfile } from './support/training.js';

// The speech encoder in the browser's worker (docs/decisions/0147): a profile of eight of
// Nicolas's digits (FSDD) has views of its takes, so local mode loads the encoder, its
// runtime and the views, and the encoder seconds his take 11 of "three", which the profile
// alone turns away (`handlers.test.ts` shows both, on the same profile, heard as the page
// hears this microphone). The general recogniser, which knows his voice, would second such
// takes too: his profile is marked as one of a voice it does not know, so that a final kept as
// seconded can only have been seconded by the encoder.

const DIGITS = { zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7 } as const;

/** One of nicolas's takes of a digit, with silence around it, as 16 kHz WAV. */
const digitWav = (digit: number, take: number, before: number, after: number) =>
  fsddDigitWav('nicolas', digit, take, before, after);

const microphoneWav = fakeMicrophone('encoder-opinion', (file) => {
  writeFileSync(file, digitWav(3, 11, 1, 1.5));
  return Promise.resolve();
});

let server: TestServer;
let context: BrowserContext;
let page: Page;
usePagePerTest((harness) => ({ server, context, page } = harness), { fakeMicrophoneWav: microphoneWav });

/** Signs in a new person with a profile of eight digits and the encoder's views of its takes,
 * to be recognised on this device, and opens the speak page once it is ready. */
async function speakOnThisDevice() {
  const user = await server.signUp();
  const version = await trainVoiceProfile(server, user, Object.keys(DIGITS), (text, take) =>
    Promise.resolve(digitWav(DIGITS[text as keyof typeof DIGITS], take, 0.5, 0.5)),
  );
  await dismissProfileUpdated(server, user);
  const response = await fetch(`${server.url}/app/modelsInfo`, {
    headers: { authorization: `Bearer ${user.session.access_token}` },
  });
  const info = (await response.json()) as { models: { modelmeta: Record<string, unknown> }[] };
  expect(info.models[0]?.modelmeta.encoder_views_bytes).toBeGreaterThan(0);
  // Judged as a voice the general recogniser does not know, neither as it is nor adapted to it
  // (a severe one, say): the page then does not load it.
  await server.db
    .updateTable('models')
    .set({ meta: sql`meta || '{"generic_knows": 0, "voice_knows": 0}'::jsonb` })
    .where('user_id', '=', user.session.user.id)
    .execute();
  await seedSession(context, user, {
    notificationStatus: { acoustic_model_version: String(version) },
    recognitionEngine: 'local',
  });
  await page.goto('/speak');
  await page.getByText('Ready to listen (recognised on this device)').waitFor({ timeout: 30_000 });
}

describe("the speech encoder's opinion", () => {
  it('speak, recognised on this device: the worker fetches the encoder, its runtime and the views, and the encoder seconds a take the profile turned away', async () => {
    // The encoder's model and its runtime are fetched once the profile is ready, with its views.
    const fetched = (part: RegExp) =>
      page.waitForResponse((response) => part.test(response.url()), { timeout: 60_000 });
    const views = fetched(/\/views\.bin$/);
    const model = fetched(/\/speech-encoder\/encoder_model\.onnx$/);
    const runtime = fetched(/\/assets\/ort-wasm-simd-threaded-[\w-]+\.wasm$/);
    await speakOnThisDevice();
    expect((await views).status()).toBe(200);
    expect((await model).status()).toBe(200);
    expect((await runtime).status()).toBe(200);
    // Hands-free, the take is heard again at each turn of the fake microphone's loop, however
    // the first turn was cut; the profile alone answers none of them.
    await listenHandsFree(page, /Ready to listen/);
    await expectSpoken(page, 'three', 45_000);
    // The page keeps each answer on the server, with who seconded it.
    await expect
      .poll(async () => {
        const kept = await server.db
          .selectFrom('recordings')
          .select('metadata')
          .where('kind', '=', 'recognition')
          .execute();
        return kept.map(({ metadata }) => metadata as { text: string | null; seconded?: boolean });
      })
      .toContainEqual(expect.objectContaining({ text: 'three', seconded: true }));
  }, 150_000);
});
