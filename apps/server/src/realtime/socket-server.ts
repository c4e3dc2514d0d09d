import type { Server as HttpServer } from 'node:http';
import {
  CONSENTS_REQUIRED_MESSAGE,
  DICTATION_NOT_ENABLED_MESSAGE,
  REALTIME_PROVIDERS,
  SOCKET_AUTH_FAILED_MESSAGE,
  SOCKET_ERROR_CODES,
  type RealtimeProvider,
  type SocketAuth,
} from '@parla/contract';
import type { FastifyBaseLogger } from 'fastify';
import { Server } from 'socket.io';
import type { Services } from '../services/services.js';
import { RecognitionSession } from './recognition-session.js';
import type { RealtimeNamespace, RealtimeServer } from './types.js';

export type { RealtimeServer } from './types.js';

/**
 * The realtime server at /socket.io on the same HTTP server: long polling first,
 * upgraded to websocket. The personal recogniser is served on the main namespace, the
 * dictation provider on /dictation. Every socket is authenticated, joins its user's room,
 * and gets a recognition session; its messages are handled one at a time, in order.
 */
export function createRealtimeServer(
  httpServer: HttpServer,
  services: Services,
  log: FastifyBaseLogger,
): RealtimeServer {
  const io: RealtimeServer = new Server(httpServer, {
    path: '/socket.io',
    transports: ['polling', 'websocket'],
    serveClient: false,
    maxHttpBufferSize: 1_000_000,
  });

  for (const provider of Object.keys(REALTIME_PROVIDERS) as RealtimeProvider[]) {
    serveProvider(io.of(REALTIME_PROVIDERS[provider].namespace), provider, services, log);
  }

  return io;
}

/** Authentication, the provider's own admission, and the recognition session of each socket. */
function serveProvider(
  namespace: RealtimeNamespace,
  provider: RealtimeProvider,
  services: Services,
  log: FastifyBaseLogger,
) {
  namespace.use((socket, next) => {
    const auth = socket.handshake.auth as Partial<SocketAuth>;
    if (typeof auth.token !== 'string' || typeof auth.user_id !== 'string') {
      next(new Error(SOCKET_AUTH_FAILED_MESSAGE));
      return;
    }
    const userId = auth.user_id;
    services.tokens
      .verifyAccess(auth.token)
      .then(async (claims) => {
        const active = await services.sessions.isFamilyActive(claims.sessionId);
        if (claims.userId !== userId || !active) throw new Error('session mismatch');
        socket.data.userId = claims.userId;
        socket.data.sessionId = claims.sessionId;
        return provider === 'dictation'
          ? services.recognition.providerEnabled(claims.userId, provider)
          : true;
      })
      .then(
        (enabled) => next(enabled ? undefined : new Error(DICTATION_NOT_ENABLED_MESSAGE)),
        () => next(new Error(SOCKET_AUTH_FAILED_MESSAGE)),
      );
  });

  namespace.on('connection', (socket) => {
    const { userId, sessionId } = socket.data;
    const session = new RecognitionSession(socket, userId, provider, services.recognition, log);
    let queue: Promise<unknown> = Promise.resolve();
    // Audio chunks must reach the decoder in the order they were sent.
    const inOrder =
      <T extends unknown[]>(handler: (...args: T) => Promise<void> | void) =>
      (...args: T) => {
        queue = queue
          .then(() => handler(...args))
          .catch((error: unknown) => {
            log.error({ err: error }, 'realtime handler failed');
            socket.emit('error', { message: 'Something went wrong' });
          });
      };

    socket.on(
      'select_provider',
      inOrder(async (payload: unknown) => {
        // A session ended elsewhere (logout, password reset) may not go on recognising.
        if (!(await services.sessions.isFamilyActive(sessionId))) {
          socket.emit('error', {
            code: SOCKET_ERROR_CODES.FAILED_TO_LOGIN,
            message: SOCKET_AUTH_FAILED_MESSAGE,
          });
          socket.disconnect(true);
          return;
        }
        await session.selectProvider(payload);
      }),
    );
    socket.on(
      'set_options',
      inOrder((payload: unknown) => session.setOptions(payload)),
    );
    socket.on(
      'stream_audio_samples',
      inOrder((samples: unknown) => session.streamSamples(samples)),
    );
    socket.on(
      'recognize_audio_samples',
      inOrder((samples: unknown) => session.recognizeWhole(samples)),
    );
    socket.on(
      'stop_stream_processing',
      inOrder(() => session.stopStream()),
    );
    socket.on(
      'stream_compressed_audio',
      inOrder((data: unknown) => session.streamCompressed(data)),
    );
    socket.on('disconnect', () => session.dispose());

    void socket.join(`user:${userId}`);
    inOrder(async () => {
      if (await services.recognition.needsConsent(userId)) {
        socket.emit('error', {
          code: SOCKET_ERROR_CODES.CONSENTS_REQUIRED,
          message: CONSENTS_REQUIRED_MESSAGE,
        });
        socket.disconnect(true);
        return;
      }
      socket.emit('connection_ready');
    })();
  });
}
