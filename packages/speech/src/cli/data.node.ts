import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { commandLine } from './command-line.js';
import { writeFsddManifests } from './fsdd-manifests.node.js';

const packageRoot = resolve(fileURLToPath(import.meta.url), '../../..');
const repoRoot = resolve(packageRoot, '../..');

const USAGE =
  'usage: npm run speech:data -- [--fsdd DIR] [--out DIR] [--no-synthetic | --synthetic-only] [--fresh]';
const { values } = commandLine(
  {
    options: {
      fsdd: { type: 'string', default: resolve(repoRoot, '../shared/data/fsdd') },
      out: { type: 'string', default: join(packageRoot, '.data') },
      synthetic: { type: 'boolean', default: true },
      'synthetic-only': { type: 'boolean', default: false },
      fresh: { type: 'boolean', default: false },
    },
    allowNegative: true,
  },
  USAGE,
);
const out = resolve(values.out);

if (!values['synthetic-only']) {
  await writeFsddManifests(values.fsdd, out);
  console.log(`FSDD manifests written under ${join(out, 'fsdd*')}`);
}
if (values.synthetic || values['synthetic-only']) {
  const { generateSynthetic } = await import('./synthetic.node.js');
  const { writeSyntheticManifests } = await import('./synthetic-manifests.node.js');
  const takes = await generateSynthetic(join(out, 'synthetic'), 2, values.fresh);
  await writeSyntheticManifests(join(out, 'synthetic'), takes);
  const { writeNarrowBand } = await import('./narrow-band.node.js');
  await writeNarrowBand(join(out, 'synthetic'));
  const { writeNoisyRoom } = await import('./noisy-room.node.js');
  await writeNoisyRoom(join(out, 'synthetic'));
}
