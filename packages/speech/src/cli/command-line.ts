import { parseArgs, type ParseArgsConfig } from 'node:util';

/** The options and words `parseArgs` read under `T`. */
export type Parsed<T extends ParseArgsConfig> = ReturnType<typeof parseArgs<T>>;

/** What a command line asked for: its parsed options, or the text to print and the exit code. */
export type CommandLine<T extends ParseArgsConfig> =
  { ok: true; parsed: Parsed<T> } | { ok: false; exitCode: 0 | 2; text: string };

/**
 * Node's `parseArgs` for the speech commands, where a person types the options: `--help`
 * (or `-h`) asks for the usage, and a misspelt option, a missing value or a stray word is
 * said in one line above the usage (exit code 2) instead of a stack trace.
 */
export function readCommandLine<const T extends ParseArgsConfig>(
  config: T,
  usage: string,
  args: readonly string[] = process.argv.slice(2),
): CommandLine<T> {
  // Before `--`, a help flag wins over every other word, as in most command-line tools.
  const own = args.includes('--') ? args.slice(0, args.indexOf('--')) : args;
  if (own.includes('--help') || own.includes('-h')) return { ok: false, exitCode: 0, text: usage };
  try {
    // The result's shape follows the options, not the words read.
    return { ok: true, parsed: parseArgs({ ...config, args: [...args] }) as Parsed<T> };
  } catch (error) {
    if (!isParseError(error)) throw error;
    return { ok: false, exitCode: 2, text: `${firstSentence(error.message)}\n${usage}` };
  }
}

/** {@link readCommandLine}, printing and exiting where it asks to. */
export function commandLine<const T extends ParseArgsConfig>(config: T, usage: string): Parsed<T> {
  const line = readCommandLine(config, usage);
  if (line.ok) return line.parsed;
  if (line.exitCode === 0) console.log(line.text);
  else console.error(line.text);
  process.exit(line.exitCode);
}

function isParseError(error: unknown): error is Error {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}

/** Node's messages may go on to explain `--` or positionals: the first sentence says it. */
function firstSentence(message: string): string {
  const end = message.indexOf('. ');
  return `${end < 0 ? message : message.slice(0, end)}.`;
}
