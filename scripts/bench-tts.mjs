// `tsc -b apps/server && node scripts/bench-tts.mjs`: text-to-speech on loopback against the
// built server. Prints, per voice, text length and format, the synthesis time per second of
// speech (wall time of POST /api/v1/synthesize divided by the length of the audio it returns).
import { signUpBenchUser, startBenchServer } from './bench-server.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const TEXTS = {
  phrase: 'Could you open the window, please?',
  paragraph:
    'Good morning. I had a stroke last year, and my speech is slow, but I understand everything. ' +
    'Please give me a moment to answer. I would like to book an appointment for next Tuesday afternoon, ' +
    'and I need the letter from the hospital to be sent to my daughter as well. Thank you for your patience.',
};
const VOICES = (process.env.BENCH_VOICES ?? 'en-US-female,en-GB-male,de-DE-female').split(',');

/** Seconds of audio in a mono PCM16 WAV answer (44-byte header). */
const wavSeconds = (bytes) => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return view.getUint32(40, true) / 2 / view.getUint32(24, true);
};

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const server = await startBenchServer();
try {
  const { token } = await signUpBenchUser(server.url);
  const synthesize = async (text, voice, mediaType) => {
    const started = performance.now();
    const response = await fetch(`${server.url}/api/v1/synthesize`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text, voice_id: voice, media_type: mediaType }),
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (response.status !== 200) throw new Error(`synthesize answered ${response.status}`);
    return { ms: performance.now() - started, bytes };
  };
  // Warm up: the first call reads the 18 MB engine and compiles the encoders.
  await synthesize(TEXTS.phrase, VOICES[0], 'mp3');

  console.log('voice          text       format  speech s  median ms  ms per s of speech  bytes');
  for (const voice of VOICES) {
    for (const [name, text] of Object.entries(TEXTS)) {
      // The WAV answer gives the length of the speech; MP3 of the same text lasts as long.
      const wav = await synthesize(text, voice, 'wav');
      const seconds = wavSeconds(wav.bytes);
      for (const mediaType of ['wav', 'mp3']) {
        const runs = [];
        let size = 0;
        for (let round = 0; round < ROUNDS; round += 1) {
          const { ms, bytes } = await synthesize(text, voice, mediaType);
          runs.push(ms);
          size = bytes.byteLength;
        }
        const ms = median(runs);
        console.log(
          `${voice.padEnd(14)} ${name.padEnd(10)} ${mediaType.padEnd(7)} ${seconds.toFixed(2).padStart(8)}` +
            `  ${ms.toFixed(0).padStart(9)}  ${(ms / seconds).toFixed(1).padStart(18)}  ${size}`,
        );
      }
    }
  }

  // While paragraphs are being spoken, the server must stay responsive to everything else
  // (live recognition shares its event loop): time a cheap request meanwhile.
  const pings = [];
  let speaking = true;
  const pinger = (async () => {
    while (speaking) {
      const started = performance.now();
      await fetch(`${server.url}/health`);
      pings.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  for (let round = 0; round < ROUNDS; round += 1) await synthesize(TEXTS.paragraph, VOICES[0], 'mp3');
  speaking = false;
  await pinger;
  pings.sort((a, b) => a - b);
  const at = (q) => pings[Math.min(pings.length - 1, Math.floor(q * pings.length))].toFixed(1);
  console.log(
    `GET /health while speaking paragraphs: ${pings.length} requests, p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms`,
  );
} finally {
  await server.stop();
}
