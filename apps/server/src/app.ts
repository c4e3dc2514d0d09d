import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyHelmet from '@fastify/helmet';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config/env.js';
import type { Db } from './db/database.js';
import { OutboxMailer, SmtpMailer, type Mailer } from './mail/mailer.js';
import { authenticateWith } from './plugins/authenticate.js';
import { registerErrorHandler } from './plugins/error-handler.js';
import { registerSpeechEncoder, registerSpeechModel } from './plugins/speech-model.js';
import { registerWebApp } from './plugins/web-app.js';
import { createRealtimeServer } from './realtime/socket-server.js';
import { registerAccountRoutes } from './routes/account.routes.js';
import { registerPrivateAuthRoutes, registerPublicAuthRoutes } from './routes/auth.routes.js';
import { registerLogRoutes, registerSupportRoutes } from './routes/feedback.routes.js';
import { registerNoteRoutes } from './routes/notes.routes.js';
import { registerPhraseRoutes, registerShortcutRoutes } from './routes/phrases.routes.js';
import { registerPublicRoutes } from './routes/public.routes.js';
import { MAX_UPLOAD_BYTES, registerRecordingRoutes } from './routes/recordings.routes.js';
import { registerSubscriptionRoutes } from './routes/subscription.routes.js';
import { registerTtsRoutes } from './routes/tts.routes.js';
import { createServices } from './services/services.js';

/** Fields that never reach the log: credentials and anything a person typed. */
const REDACTED = ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'];

const DEFAULT_WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

export interface AppOptions {
  config: Config;
  db: Db;
  /** Replaces the configured mailer (tests capture emails this way). */
  mailer?: Mailer;
  /** Turns the log off, or sends it to a stream (tests read it). */
  logger?: false | { stream: NodeJS.WritableStream };
}

/** Builds the whole server: REST API, OpenAPI document, realtime socket and web app. */
export async function buildApp({ config, db, mailer: givenMailer, logger }: AppOptions) {
  const app = Fastify({
    logger: logger === false ? false : { level: config.logLevel, redact: REDACTED, ...logger },
    trustProxy: config.trustProxy,
    bodyLimit: 100 * 1024,
    genReqId: () => crypto.randomUUID(),
    // Unknown fields are reported by the schemas, never silently dropped.
    ajv: { customOptions: { removeAdditional: false } },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);

  const mailer =
    givenMailer ??
    (config.smtpUrl
      ? new SmtpMailer(config.smtpUrl, config.mailFrom)
      : new OutboxMailer(path.join(config.dataDir, 'outbox'), config.mailFrom, app.log));
  const services = await createServices(config, db, mailer, app.log);

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        // The app records from the microphone and runs the recogniser in a worker (WASM).
        'script-src': ["'self'", "'wasm-unsafe-eval'"],
        'worker-src': ["'self'", 'blob:'],
        'media-src': ["'self'", 'blob:', 'data:'],
        // blob: the recogniser's engine fetches means adapted to the voice from one it makes.
        'connect-src': ["'self'", 'ws:', 'wss:', 'blob:'],
        'img-src': ["'self'", 'data:', 'blob:'],
        'style-src': ["'self'", "'unsafe-inline'"],
        // The embedded deployment is often plain http on a home network: do not force https.
        'upgrade-insecure-requests': null,
      },
    },
  });
  await app.register(fastifyMultipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 4, fieldSize: 16 * 1024 },
  });
  await app.register(fastifyRateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => ({
      status: 429,
      statusCode: 429,
      message: `Too many attempts. Try again in ${Math.ceil(context.ttl / 1000)} seconds.`,
      code: 'RATE_LIMITED',
    }),
  });
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: `${config.productName} API`,
        description:
          'Accounts, profiles, settings, consents, subscriptions, phrases and shortcuts of the web app.',
        version: services.version,
      },
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    // The viewer sets a few inline styles of its own.
    transformStaticCSP: (header) =>
      header.replace("style-src 'self' https:", "style-src 'self' 'unsafe-inline'"),
  });
  app.get('/docs/openapi.json', { schema: { hide: true } }, () => app.swagger());

  registerPublicRoutes(app, services);
  registerPublicAuthRoutes(app, services);
  registerLogRoutes(app, services);
  await app.register((privateApp, _options, done) => {
    const scoped = privateApp.withTypeProvider<ZodTypeProvider>();
    scoped.addHook('onRequest', authenticateWith(services.tokens, services.sessions));
    registerPrivateAuthRoutes(scoped, services);
    registerAccountRoutes(scoped, services);
    registerSubscriptionRoutes(scoped, services);
    registerSupportRoutes(scoped, services);
    registerPhraseRoutes(scoped, services);
    registerShortcutRoutes(scoped, services);
    registerRecordingRoutes(scoped, services);
    registerNoteRoutes(scoped, services);
    registerTtsRoutes(scoped, services);
    done();
  });

  await registerSpeechModel(app);
  await registerSpeechEncoder(app);
  await registerWebApp(app, config.webDistDir ? path.resolve(config.webDistDir) : DEFAULT_WEB_DIST);

  const io = createRealtimeServer(app.server, services, app.log);
  await services.jobs.start();
  // Sockets first: open realtime connections would keep the HTTP server from closing.
  app.addHook('preClose', async () => {
    await io.close();
  });
  app.addHook('onClose', async () => {
    await services.jobs.stop();
    await services.tts.close();
    await services.recognition.close();
    await services.voiceProfile.close();
    mailer.close();
  });

  return { app, services, io };
}
