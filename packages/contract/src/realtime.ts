/**
 * Socket events of the recognition server (spec section 7), typed for socket.io's
 * generics on both sides. The recognition events arrive with the realtime issue; the
 * connection handshake is here from the start.
 */
export interface SocketAuth {
  token: string;
  refresh_token?: string;
  user_id: string;
}

export interface SocketErrorPayload {
  code?: number;
  message: string;
}

/** The error codes of spec section 8. */
export const SOCKET_ERROR_CODES = {
  FAILED_TO_LOGIN: 1001,
  ALREADY_STREAMING: 1011,
  CONSENTS_REQUIRED: 1013,
} as const;

export const SOCKET_AUTH_FAILED_MESSAGE = 'authentication failed';

export interface ServerToClientEvents {
  connection_ready: () => void;
  error: (error: SocketErrorPayload) => void;
}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ClientToServerEvents {}
