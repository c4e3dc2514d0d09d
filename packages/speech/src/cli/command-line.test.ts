import { describe, expect, it } from 'vitest';
import { readCommandLine } from './command-line.js';

const USAGE = 'usage: speech:try --enroll FILE [--verbose]';
const CONFIG = {
  options: {
    enroll: { type: 'string' },
    verbose: { type: 'boolean', default: false },
  },
} as const;

describe('readCommandLine', () => {
  it('parses the options it knows', () => {
    const line = readCommandLine(CONFIG, USAGE, ['--enroll', 'a.json', '--verbose']);
    expect(line.ok && line.parsed.values).toEqual({ enroll: 'a.json', verbose: true });
  });

  it('answers --help and -h with the usage and exit code 0, whatever else is there', () => {
    for (const args of [['--help'], ['-h'], ['--enrol', 'x', '--help']]) {
      expect(readCommandLine(CONFIG, USAGE, args)).toEqual({ ok: false, exitCode: 0, text: USAGE });
    }
  });

  it('leaves a --help after -- to the command', () => {
    const line = readCommandLine({ ...CONFIG, allowPositionals: true }, USAGE, ['--', '--help']);
    expect(line.ok && line.parsed.positionals).toEqual(['--help']);
  });

  it('says what is wrong in one line above the usage, with exit code 2', () => {
    const cases: [string[], string][] = [
      [['--enrol', 'a.json'], "Unknown option '--enrol'."],
      [['--enroll'], "Option '--enroll <value>' argument missing."],
      [['--verbose=yes'], "Option '--verbose' does not take an argument."],
      [['a.json'], "Unexpected argument 'a.json'."],
    ];
    for (const [args, reason] of cases) {
      expect(readCommandLine(CONFIG, USAGE, args)).toEqual({
        ok: false,
        exitCode: 2,
        text: `${reason}\n${USAGE}`,
      });
    }
  });
});
