// `speech:eval` as a person runs it: the built command on manifests of the format,
// its last line read as the JSON the format promises, its bad inputs as one-line reasons.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIGITS, FSDD_RECORDINGS, haveFsdd } from '../test/fsdd.node.js';

const packageRoot = resolve(fileURLToPath(import.meta.url), '../../..');
const command = join(packageRoot, 'dist/cli/eval.node.js');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function speechEval(...args: string[]): Promise<Run> {
  try {
    const { stdout, stderr } = await promisify(execFile)('node', [command, ...args], {
      cwd: dir,
      // As `npm run` from the manifests' folder: the command reads paths from there.
      env: { ...process.env, INIT_CWD: dir },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

let dir = '';

beforeAll(async () => {
  // The command runs from its build, as `npm run speech:eval` does: bring it up to date.
  execFileSync('npx', ['tsc', '-b', packageRoot], { stdio: 'inherit' });
  dir = await mkdtemp(join(tmpdir(), 'speech-eval-'));
}, 120_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A manifest of FSDD takes, its paths relative to its own folder as the format has them. */
async function manifest(name: string, takes: [digit: number, speaker: string, take: number][]) {
  const items = takes.map(([digit, speaker, take]) => ({
    audio: relative(dir, join(FSDD_RECORDINGS, `${digit}_${speaker}_${take}.wav`)),
    text: DIGITS[digit],
    speaker,
  }));
  await writeFile(join(dir, name), JSON.stringify(items));
  return name;
}

const FIGURES = ['accuracy', 'oov_false_accept', 'ms_per_utterance', 'p95_final_ms', 'train_ms'];
type Metrics = Record<string, number>;
interface Figures {
  personal: Metrics;
  generic: Metrics;
}

describe.skipIf(!haveFsdd)('speech:eval', () => {
  it('prints the personal and generic figures, overall and per speaker, as its last line', async () => {
    const each = (digits: number[], speaker: string, takes: number[]) =>
      digits.flatMap((d) => takes.map((t): [number, string, number] => [d, speaker, t]));
    const enroll = await manifest('enroll.json', [
      ...each([0, 1, 2, 3], 'lucas', [0, 1, 2]),
      ...each([0, 1, 2, 3], 'theo', [0, 1, 2]),
    ]);
    const test = await manifest('test.json', [
      ...each([0, 1, 2, 3], 'lucas', [5, 6]),
      ...each([0, 1, 2, 3], 'theo', [5, 6]),
      // Never enrolled: must be rejected.
      ...each([7], 'lucas', [5, 6]),
      ...each([7], 'theo', [5, 6]),
      // A speaker with no profile: said so, and left out.
      ...each([0], 'george', [5]),
    ]);

    const run = await speechEval('--enroll', enroll, '--test', test);

    expect(run.code).toBe(0);
    expect(run.stderr).toContain('Skipping the test items of speakers with no enrolment items: george.');
    const last = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '') as Figures & {
      speakers: Record<string, Figures>;
    };
    expect(Object.keys(last).sort()).toEqual(['generic', 'personal', 'speakers']);
    expect(Object.keys(last.speakers).sort()).toEqual(['lucas', 'theo']);
    for (const { personal, generic } of [last, ...Object.values(last.speakers)]) {
      for (const metrics of [personal, generic]) {
        expect(Object.keys(metrics).sort()).toEqual([...FIGURES].sort());
        for (const figure of FIGURES) expect(metrics[figure]).toBeGreaterThanOrEqual(0);
        expect(metrics.accuracy).toBeLessThanOrEqual(1);
      }
    }
    const { personal, generic } = last;
    // lucas and theo are FSDD's clearest speakers: on their tuning takes (5-9) the first guess
    // is right every time with all ten digits enrolled. A floor of 14 of 16 allows two misses.
    expect(personal.accuracy).toBeGreaterThanOrEqual(14 / 16);
    // "seven" was never enrolled: at least three of its four takes must be rejected.
    expect(personal.oov_false_accept).toBeLessThanOrEqual(1 / 4);
    expect(personal.train_ms).toBeGreaterThan(0);
    // The generic figures come from the same run, which decoded every test item.
    expect(generic.ms_per_utterance).toBeGreaterThan(0);
  });

  it('says in one line what is wrong with a manifest, with exit code 2', async () => {
    await writeFile(
      join(dir, 'missing.json'),
      JSON.stringify([{ audio: 'nowhere.wav', text: 'one', speaker: 'a' }]),
    );
    await writeFile(join(dir, 'broken.json'), '[{"audio": ');
    for (const [file, reason] of [
      ['missing.json', 'missing.json, item 1: cannot read the audio file'],
      ['broken.json', 'broken.json is not JSON'],
    ]) {
      const run = await speechEval('--enroll', file as string, '--test', file as string);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(reason);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stdout).toBe('');
    }
  });

  it('answers a misspelt option with the usage, and --help with the usage alone', async () => {
    const wrong = await speechEval('--enrol', 'enroll.json', '--test', 'test.json');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/^Unknown option '--enrol'\.\nusage: npm run speech:eval -- --enroll/);

    const missing = await speechEval('--enroll', 'enroll.json');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^--enroll and --test are both needed\nusage:/);

    const conflict = await speechEval(
      '--enroll',
      'enroll.json',
      '--test',
      'test.json',
      '--encoder-opinion',
      '--adapt',
    );
    expect(conflict.code).toBe(2);
    expect(conflict.stderr.trim()).toBe('--encoder-opinion does not learn from use: leave out --adapt');

    const help = await speechEval('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: npm run speech:eval -- --enroll ENROLL\.json --test TEST\.json/);
  });
});
