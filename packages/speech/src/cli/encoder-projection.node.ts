import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SecondMoments, principalDirections } from '../encoder/principal-directions.js';
import { encodeProjection, PROJECTED_VALUES } from '../encoder/projection.js';
import { loadSpeechEncoder } from '../platform/encoder.node.js';
import { loadManifest } from '../platform/files.node.js';

/**
 * Makes the encoder's projection (docs/decisions/0145): the principal directions of its
 * frames over enrolment takes of every synthetic voice and severity and of FSDD's six
 * speakers (`npm run speech:data` first), written into the source as
 * `src/encoder/projection.generated.ts`. No test or tuning utterance is read.
 */
const packageRoot = resolve(fileURLToPath(import.meta.url), '../../..');
const ENROLMENTS = [
  'synthetic/mild/enroll.json',
  'synthetic/moderate/enroll.json',
  'synthetic/severe/enroll.json',
  'synthetic/mild-words/enroll.json',
  'fsdd-tune/k3/enroll.json',
];

const encoder = await loadSpeechEncoder(null);
let moments: SecondMoments | undefined;
for (const manifest of ENROLMENTS) {
  const items = await loadManifest(join(packageRoot, '.data', manifest));
  for (const item of items) {
    const view = await encoder.view(item.audio);
    moments ??= new SecondMoments(view.dim);
    moments.add(view.data, view.frames);
  }
  console.log(`${manifest}: ${items.length} takes`);
}
if (moments === undefined) throw new Error('no takes to learn the projection from');
const from = moments.dim;
const to = PROJECTED_VALUES;
const { values, vectors } = principalDirections(moments.matrix(), from);
const matrix = new Float32Array(from * to);
for (let k = 0; k < to; k++)
  for (let i = 0; i < from; i++) matrix[i * to + k] = (vectors[k] as Float64Array)[i] as number;
const kept = values.slice(0, to).reduce((sum, v) => sum + v, 0) / values.reduce((sum, v) => sum + v, 0);
console.log(`${to} of ${from} directions keep ${(100 * kept).toFixed(1)} % of the frames' variance`);

const text = encodeProjection({ from, to, matrix });
const source = `// Made by \`npm run speech:projection\` (src/cli/encoder-projection.node.ts); do not edit.
// The principal directions of the speech encoder's frames (docs/decisions/0145).

export const PROJECTION_FROM = ${from};
export const PROJECTION_TEXT =
  '${text}';
`;
await writeFile(join(packageRoot, 'src', 'encoder', 'projection.generated.ts'), source);
