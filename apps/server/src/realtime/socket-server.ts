import type { Server as HttpServer } from 'node:http';
import {
  SOCKET_AUTH_FAILED_MESSAGE,
  type ClientToServerEvents,
  type ServerToClientEvents,
  type SocketAuth,
} from '@parla/contract';
import { Server } from 'socket.io';
import type { Services } from '../services/services.js';

interface SocketData {
  userId: string;
}

export type RealtimeServer = Server<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<string, never>,
  SocketData
>;

/**
 * The realtime server at /socket.io on the same HTTP server: long polling first,
 * upgraded to websocket. Every socket is authenticated and joins its user's room.
 */
export function createRealtimeServer(httpServer: HttpServer, services: Services): RealtimeServer {
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
      .then(
        async (claims) => {
          const active = await services.sessions.isFamilyActive(claims.sessionId);
          if (claims.userId !== userId || !active) throw new Error('session mismatch');
          socket.data.userId = claims.userId;
          next();
        },
        () => next(new Error(SOCKET_AUTH_FAILED_MESSAGE)),
      )
      .catch(() => next(new Error(SOCKET_AUTH_FAILED_MESSAGE)));
  });

  io.on('connection', (socket) => {
    void socket.join(`user:${socket.data.userId}`);
    socket.emit('connection_ready');
  });

  return io;
}
