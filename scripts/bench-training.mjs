// `npm run bench:training`: time from the last uploaded take to a built voice profile, for
// 50 phrases x 3 takes of real speech (FSDD: 10 digits x 5 speakers, each pair one phrase).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { root } from './lib.mjs';
import { signUpBenchUser, startBenchServer } from './bench-server.mjs';

const FSDD = path.resolve(root, '../shared/data/fsdd/recordings');
const SPEAKERS = ['jackson', 'theo', 'nicolas', 'yweweler', 'lucas'];
const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

const server = await startBenchServer();
try {
  const user = await signUpBenchUser(server.url);
  const auth = { authorization: `Bearer ${user.token}` };
  const phrases = [];
  for (const speaker of SPEAKERS) {
    for (const [digit, word] of WORDS.entries()) {
      const response = await fetch(`${server.url}/app/casr/customPhrase`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ text: `${word} ${speaker}`, scenario_id: 'conversation' }),
      });
      phrases.push({ id: (await response.json()).id, digit, speaker });
    }
  }
  const uploadStarted = performance.now();
  for (const take of [0, 1, 2]) {
    for (const phrase of phrases) {
      const form = new FormData();
      form.append('info', JSON.stringify({ file_ext: 'wav' }));
      const audio = readFileSync(path.join(FSDD, `${phrase.digit}_${phrase.speaker}_${take}.wav`));
      form.append('audiofile', new Blob([audio]), 'take.wav');
      const response = await fetch(`${server.url}/app/casr/upload/training/${phrase.id}`, {
        method: 'POST',
        headers: auth,
        body: form,
      });
      if (response.status !== 201) throw new Error(`upload failed: ${await response.text()}`);
    }
  }
  const lastUpload = performance.now();
  let model;
  for (;;) {
    const info = await (await fetch(`${server.url}/app/modelsInfo`, { headers: auth })).json();
    model = info.models[0];
    if (model && model.modelmeta.takes === 150) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const built = performance.now();
  console.log(
    `Uploads of 150 takes: ${((lastUpload - uploadStarted) / 1000).toFixed(1)} s (${((lastUpload - uploadStarted) / 150).toFixed(0)} ms each)`,
  );
  console.log(
    `Last upload to built model (50 phrases x 3 takes): ${((built - lastUpload) / 1000).toFixed(2)} s`,
  );
  console.log(
    `  of which training: ${model.modelmeta.train_ms} ms; model version ${model.version}, ${model.modelmeta.size_bytes} bytes (${model.modelmeta.bytes_per_take} per take)`,
  );
} finally {
  await server.stop();
}
