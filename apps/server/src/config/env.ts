import path from 'node:path';
import { z } from 'zod';

const flag = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');
const positiveInt = (name: string, min: number, max: number) =>
  z.coerce
    .number({ message: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(min, `${name} must be at least ${min}`)
    .max(max, `${name} must be at most ${max}`);

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  HOST: z.string().min(1).default('localhost'),
  PORT: positiveInt('PORT', 0, 65535).default(8080),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres:// or postgresql://')
    .optional(),
  PUBLIC_URL: z
    .url({ message: 'PUBLIC_URL must be an absolute URL such as https://parla.example' })
    .optional(),
  PRODUCT_NAME: z.string().min(1).max(40).default('Parla'),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
  ACCESS_TOKEN_TTL_SECONDS: positiveInt('ACCESS_TOKEN_TTL_SECONDS', 30, 86_400).default(900),
  REFRESH_TOKEN_TTL_DAYS: positiveInt('REFRESH_TOKEN_TTL_DAYS', 1, 365).default(30),
  RESET_CODE_TTL_MINUTES: positiveInt('RESET_CODE_TTL_MINUTES', 1, 1440).default(15),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'SMTP_URL must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Parla <no-reply@parla.local>'),
  SUPPORT_EMAIL: z
    .email({ message: 'SUPPORT_EMAIL must be an email address' })
    .default('support@parla.local'),
  RESTRICTED_REGIONS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((item) => item.trim().toUpperCase())
        .filter(Boolean),
    )
    .refine(
      (items) => items.every((item) => /^[A-Z]{2}(-[A-Z0-9]{1,3})?$/.test(item)),
      'RESTRICTED_REGIONS must be a comma-separated list of country codes (US) or subdivisions (US-CA)',
    ),
  APP_API_KEY: z.string().min(1).default('parla-web-app'),
  AUTH_RATE_LIMIT_PER_MINUTE: positiveInt('AUTH_RATE_LIMIT_PER_MINUTE', 1, 100_000).default(20),
  TRUST_PROXY: flag.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST_DIR: z.string().optional(),
  SEED: flag.default(true),
});

export type Config = ReturnType<typeof toConfig>;

function toConfig(env: z.infer<typeof EnvSchema>) {
  const dataDir = path.resolve(env.DATA_DIR);
  return {
    env: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${env.PORT}`,
    productName: env.PRODUCT_NAME,
    jwtSecret: env.JWT_SECRET,
    accessTokenTtlSeconds: env.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlDays: env.REFRESH_TOKEN_TTL_DAYS,
    resetCodeTtlMinutes: env.RESET_CODE_TTL_MINUTES,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    supportEmail: env.SUPPORT_EMAIL,
    restrictedRegions: env.RESTRICTED_REGIONS,
    appApiKey: env.APP_API_KEY,
    authRateLimitPerMinute: env.AUTH_RATE_LIMIT_PER_MINUTE,
    trustProxy: env.TRUST_PROXY,
    logLevel: env.LOG_LEVEL,
    webDistDir: env.WEB_DIST_DIR,
    seed: env.SEED,
  };
}

/** A configuration problem, with one line per bad variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads and validates the configuration from environment variables (empty values count as unset). */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const env = Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = issue.path.join('.');
        const got = source[name];
        return `${name}: ${issue.message}${got === undefined ? '' : ` (got '${got}')`}`;
      }),
    );
  }
  return toConfig(parsed.data);
}
