import {
  MAX_SYNTHESIS_REQUEST_TEXT_LENGTH,
  MAX_SYNTHESIZE_TEXT_LENGTH,
  type ListVoicesResponse,
} from '@parla/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, startTestServer, type TestServer } from './support/test-server.js';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startTestServer();
  token = (await signUp(server.api)).access_token;
});
afterAll(() => server.close());

const PHRASE = 'Hello, I would like a glass of water, please.';

/** Posts JSON and reads the answer as bytes. */
async function postForAudio(path: string, body: unknown, bearer = token) {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

async function getBytes(path: string, bearer = token) {
  const response = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${bearer}` } });
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

/** Seconds of a mono PCM16 WAV file, checking its header on the way. */
function wavSeconds(bytes: Uint8Array) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (offset: number) => new TextDecoder().decode(bytes.subarray(offset, offset + 4));
  expect([tag(0), tag(8), tag(12), tag(36)]).toEqual(['RIFF', 'WAVE', 'fmt ', 'data']);
  expect(view.getUint16(20, true)).toBe(1); // PCM
  expect(view.getUint16(22, true)).toBe(1); // mono
  expect(view.getUint16(34, true)).toBe(16);
  const dataBytes = view.getUint32(40, true);
  expect(dataBytes).toBe(bytes.byteLength - 44);
  return dataBytes / 2 / view.getUint32(24, true);
}

const MP3_BITRATES = {
  mpeg1: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  mpeg2: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const MP3_RATES: Record<number, number[]> = {
  3: [44100, 48000, 32000],
  2: [22050, 24000, 16000],
  0: [11025, 12000, 8000],
};

/** Seconds of an MP3 file, walking its Layer III frames from sync word to sync word. */
function mp3Seconds(bytes: Uint8Array) {
  let offset = 0;
  let seconds = 0;
  let frames = 0;
  while (offset + 4 <= bytes.length) {
    const [b0 = 0, b1 = 0, b2 = 0] = bytes.subarray(offset, offset + 3);
    expect(b0 === 0xff && (b1 & 0xe0) === 0xe0, `frame sync at byte ${offset}`).toBe(true);
    expect((b1 >> 1) & 3, 'Layer III').toBe(1);
    const version = (b1 >> 3) & 3;
    const rate = MP3_RATES[version]?.[(b2 >> 2) & 3];
    const kbps = (version === 3 ? MP3_BITRATES.mpeg1 : MP3_BITRATES.mpeg2)[b2 >> 4];
    if (!rate || !kbps) throw new Error(`bad frame header at byte ${offset}`);
    const samples = version === 3 ? 1152 : 576;
    offset += Math.floor(((samples / 8) * kbps * 1000) / rate) + ((b2 >> 1) & 1);
    seconds += samples / rate;
    frames += 1;
  }
  expect(frames).toBeGreaterThan(10);
  return seconds;
}

/** Speech of a text lasts roughly 40 to 120 ms a character. */
function expectPlausibleLength(seconds: number, text: string) {
  expect(seconds).toBeGreaterThan(text.length * 0.04);
  expect(seconds).toBeLessThan(text.length * 0.12 + 1);
}

describe('voices', () => {
  it('lists several voices in several locales, each with a gender', async () => {
    const { status, body } = await server.api.get<ListVoicesResponse>('/api/v1/list_voices', token);
    expect(status).toBe(200);
    expect(body.voices.length).toBeGreaterThanOrEqual(8);
    expect(new Set(body.voices.map((voice) => voice.locale)).size).toBeGreaterThanOrEqual(4);
    expect(body.voices).toContainEqual({
      id: 'en-US-female',
      name: 'English (US), female',
      locale: 'en-US',
      gender: 'female',
    });
    expect(new Set(body.voices.map((voice) => voice.gender))).toEqual(new Set(['female', 'male']));
  });
});

describe('synthesize', () => {
  it('answers MP3 by default: frames from the first byte, as long as the text needs', async () => {
    const { response, bytes } = await postForAudio('/api/v1/synthesize', {
      text: PHRASE,
      voice_id: 'en-US-female',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    expectPlausibleLength(mp3Seconds(bytes), PHRASE);
  });

  it('answers WAV when asked, in every listed voice', async () => {
    const { body } = await server.api.get<ListVoicesResponse>('/api/v1/list_voices', token);
    for (const voice of body.voices.filter((v) => v.locale === 'en-US' || v.locale === 'de-DE')) {
      const text = voice.locale === 'de-DE' ? 'Ich hätte gern ein Glas Wasser, bitte.' : PHRASE;
      const { response, bytes } = await postForAudio('/api/v1/synthesize', {
        text,
        voice_id: voice.id,
        media_type: 'wav',
      });
      expect(response.status, voice.id).toBe(200);
      expect(response.headers.get('content-type')).toBe('audio/wav');
      expectPlausibleLength(wavSeconds(bytes), text);
    }
  });

  it('speaks text that looks like options or markup as plain words', async () => {
    const { response, bytes } = await postForAudio('/api/v1/synthesize', {
      text: '-v de --help <speak>hello</speak>',
      voice_id: 'en-GB-male',
      media_type: 'wav',
    });
    expect(response.status).toBe(200);
    expect(wavSeconds(bytes)).toBeGreaterThan(1);
  });

  it('refuses empty and too long texts, unknown voices and formats, and unknown fields', async () => {
    const cases: [unknown, number, RegExp][] = [
      [{ text: '   ', voice_id: 'en-US-male' }, 400, /text should not be empty/],
      [{ voice_id: 'en-US-male' }, 400, /text/],
      [
        { text: 'a'.repeat(MAX_SYNTHESIZE_TEXT_LENGTH + 1), voice_id: 'en-US-male' },
        400,
        new RegExp(`at most ${MAX_SYNTHESIZE_TEXT_LENGTH} characters`),
      ],
      [{ text: PHRASE, voice_id: 'xx-robot' }, 404, /Voice xx-robot not found/],
      [{ text: PHRASE, voice_id: 'en-US-male', media_type: 'ogg' }, 400, /media_type/],
      [{ text: PHRASE, voice_id: 'en-US-male', speed: 2 }, 400, /speed/],
    ];
    for (const [body, status, message] of cases) {
      const response = await server.api.post<{ status: number; message: string }>(
        '/api/v1/synthesize',
        body,
        token,
      );
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(response.body.status).toBe(status);
      expect(response.body.message).toMatch(message);
    }
  });

  it('needs an access token', async () => {
    const response = await server.api.post('/api/v1/synthesize', { text: PHRASE, voice_id: 'en-US-male' });
    expect(response.status).toBe(401);
  });
});

describe('queued synthesis', () => {
  const LONG = 'The appointment is on Tuesday at three. Please bring the letter from the hospital. '.repeat(
    6,
  );

  async function waitForAudio(id: string, bearer = token) {
    for (let attempt = 0; attempt < 200; attempt += 1) {
      const result = await getBytes(`/api/v1/synthesize_request/${id}`, bearer);
      if (result.response.status !== 202) return result;
      expect(JSON.parse(new TextDecoder().decode(result.bytes))).toEqual({ id, status: 'pending' });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the synthesis did not finish');
  }

  it('queues a long text and serves its audio when ready, to its owner only', async () => {
    const created = await server.api.post<{ id: string }>(
      '/api/v1/request_synthesis',
      { text: LONG, voice_id: 'en-GB-female', media_type: 'wav' },
      token,
    );
    expect(created.status).toBe(202);
    expect(created.body.id).toMatch(/^[0-9a-f-]{36}$/);

    const { response, bytes } = await waitForAudio(created.body.id);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/wav');
    expectPlausibleLength(wavSeconds(bytes), LONG);

    const other = await signUp(server.api);
    const stranger = await server.api.get(
      `/api/v1/synthesize_request/${created.body.id}`,
      other.access_token,
    );
    expect(stranger.body).toEqual({ status: 404, message: 'Synthesis request not found', code: 'NOT_FOUND' });
  });

  it('takes several requests at once, MP3 by default', async () => {
    const ids = await Promise.all(
      ['One moment, please.', 'Thank you very much.'].map(async (text) => {
        const created = await server.api.post<{ id: string }>(
          '/api/v1/request_synthesis',
          { text, voice_id: 'fr-FR-male' },
          token,
        );
        expect(created.status).toBe(202);
        return created.body.id;
      }),
    );
    for (const id of ids) {
      const { response, bytes } = await waitForAudio(id);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('audio/mpeg');
      expect(mp3Seconds(bytes)).toBeGreaterThan(0.5);
    }
  });

  it('answers 404 for unknown ids and refuses bad requests', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      const response = await server.api.get(`/api/v1/synthesize_request/${id}`, token);
      expect(response.body).toEqual({
        status: 404,
        message: 'Synthesis request not found',
        code: 'NOT_FOUND',
      });
    }
    const tooLong = await server.api.post<{ message: string }>(
      '/api/v1/request_synthesis',
      { text: 'a'.repeat(MAX_SYNTHESIS_REQUEST_TEXT_LENGTH + 1), voice_id: 'en-US-male' },
      token,
    );
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toMatch(`at most ${MAX_SYNTHESIS_REQUEST_TEXT_LENGTH} characters`);
    const unknownVoice = await server.api.post(
      '/api/v1/request_synthesis',
      { text: PHRASE, voice_id: 'nope' },
      token,
    );
    expect(unknownVoice.status).toBe(404);
  });
});
