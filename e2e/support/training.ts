import { phraseWav } from './speech.js';
import type { TestServer, TestUser } from './server.js';

/** Enrolment takes: alike, but each a little different in speed and pitch. */
const TAKE_PROSODY = [
  { wordsPerMinute: 140, pitch: 40 },
  { wordsPerMinute: 165, pitch: 55 },
  { wordsPerMinute: 150, pitch: 62 },
];

async function call<T>(
  server: TestServer,
  user: TestUser,
  path: string,
  init: Omit<RequestInit, 'headers'> & { headers?: Record<string, string> } = {},
) {
  const response = await fetch(`${server.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${user.session.access_token}`, ...init.headers },
  });
  const body = (await response.json()) as T;
  if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

/**
 * Trains a voice profile through the HTTP API as the recorder would: each phrase added and
 * recorded three times (spoken by eSpeak NG unless `takeOf` gives the takes), then waits until a model built on every take
 * is there. The first build starts once two phrases are recorded; waiting for that one
 * alone would let the next build land in the middle of a test and open the
 * profile-updated dialog over the page.
 */
export async function trainVoiceProfile(
  server: TestServer,
  user: TestUser,
  phrases: string[],
  /** The take's WAV; by default the phrase spoken by eSpeak NG with the take's prosody. */
  takeOf: (text: string, take: number) => Promise<Uint8Array> = (text, take) =>
    phraseWav(text, { ...TAKE_PROSODY[take], silenceBefore: 0.5, silenceAfter: 0.5 }),
) {
  // Every take is made before the first is sent: sent together, they reach the server
  // before its first training starts, and one training builds the profile on all of them.
  const recorded = await Promise.all(
    phrases.map(async (text) => ({
      text,
      takes: await Promise.all(TAKE_PROSODY.map((_, take) => takeOf(text, take))),
    })),
  );
  for (const { text, takes } of recorded) {
    const phrase = await call<{ id: string }>(server, user, '/app/casr/customPhrase', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text, scenario_id: 'conversation' }),
    });
    for (const wav of takes) {
      const form = new FormData();
      form.append('info', JSON.stringify({ file_ext: 'wav' }));
      form.append('audiofile', new Blob([new Uint8Array(wav)], { type: 'audio/wav' }), 'take.wav');
      await call(server, user, `/app/casr/upload/training/${phrase.id}`, { method: 'POST', body: form });
    }
  }
  const takes = phrases.length * TAKE_PROSODY.length;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const info = await call<{ models: { version: number; modelmeta: { takes?: unknown } }[] }>(
      server,
      user,
      '/app/modelsInfo',
    );
    const model = info.models[0];
    if (model && model.modelmeta.takes === takes) return model.version;
    if (Date.now() > deadline) throw new Error(`no voice profile built on all ${takes} takes within 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The person has seen the profile-updated dialog: tests about what comes after it need it gone. */
export async function dismissProfileUpdated(server: TestServer, user: TestUser) {
  await fetch(`${server.url}/app/complete_task`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.session.access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ task: 'notify_casr_recognition_unlocked' }),
  });
}

/** Where each of the person's training takes came from (`confirmed`, `unknown`, none for recorded ones), with its phrase. */
export async function trainingTakes(server: TestServer, user: TestUser) {
  const takes = await server.db
    .selectFrom('recordings')
    .select(['metadata', 'phrase_id'])
    .where('user_id', '=', user.session.user.id)
    .where('kind', '=', 'training')
    .execute();
  return takes.map((take) => ({
    source: (take.metadata as { source?: string } | null)?.source,
    phraseId: take.phrase_id,
  }));
}
