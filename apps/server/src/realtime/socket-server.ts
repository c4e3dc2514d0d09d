import type { Server as HttpServer } from 'node:http';
import {
  CONSENTS_REQUIRED_MESSAGE,
  SOCKET_AUTH_FAILED_MESSAGE,
  SOCKET_ERROR_CODES,
  type SocketAuth,
} from '@parla/contract';
import type { FastifyBaseLogger } from 'fastify';
import { Server } from 'socket.io';
import type { Services } from '../services/services.js';
import { RecognitionSession } from './recognition-session.js';
import type { RealtimeServer } from './types.js';

export type { RealtimeServer } from './types.js';

/**
 * The realtime server at /socket.io on the same HTTP server: long polling first,
 * upgraded to websocket. Every socket is authenticated, joins its user's room, and
 * gets a recognition session; its messages are handled one at a time, in order.
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

  io.use((socket, next) => {
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
        next();
      })
      .catch(() => next(new Error(SOCKET_AUTH_FAILED_MESSAGE)));
  });

  io.on('connection', (socket) => {
    const { userId, sessionId } = socket.data;
    const session = new RecognitionSession(socket, userId, services.recognition, log);
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
      inOrder(() => {
        socket.emit('error', {
          message: 'Compressed audio is not supported yet: send stream_audio_samples (16 kHz, 16-bit PCM).',
        });
      }),
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

  return io;
}
