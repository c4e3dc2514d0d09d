import {
  AUDIO_SAMPLE_RATE,
  type ClientToServerEvents,
  type SelectProviderPayload,
  type ServerToClientEvents,
  type SetOptionsPayload,
  type SocketAuth,
} from '@parla/contract';
import type { ManagerOptions, Socket, SocketOptions } from 'socket.io-client';
import type { EngineCallbacks, RecognitionEngine } from './recognition-engine';
import {
  MIN_PENDING_SAMPLES,
  processingTimeoutMs,
  reactToConnectError,
  reactToSocketError,
} from './recognition-state';

export type RecognitionSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
export type SocketFactory = (options: Partial<ManagerOptions & SocketOptions>) => RecognitionSocket;

/** Connection settings of spec sections 7 and 9. */
export const SOCKET_OPTIONS = {
  path: '/socket.io',
  // Long polling first, upgraded to websocket: works behind proxies that refuse websockets.
  transports: ['polling', 'websocket'],
  timeout: 20_000,
  reconnection: true,
  reconnectionDelay: 1_000,
  reconnectionDelayMax: 5_000,
  randomizationFactor: 0.5,
  reconnectionAttempts: Infinity,
  autoConnect: false,
} satisfies Partial<ManagerOptions & SocketOptions>;

export interface SocketEngineOptions extends EngineCallbacks {
  createSocket: SocketFactory;
  /** The session's tokens; null when signed out. */
  getAuth(): SocketAuth | null;
  /** Refresh the access token; resolves false when the session has ended. */
  refreshToken(): Promise<boolean>;
  provider: SelectProviderPayload;
  options: SetOptionsPayload;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

/** Recognition on the server over socket.io (docs/realtime.md). */
export class SocketEngine implements RecognitionEngine {
  private socket: RecognitionSocket | null = null;
  private options: SetOptionsPayload;
  private reconnectTimer: unknown = null;
  private processingTimer: unknown = null;
  /** Samples sent since the last result, and since the stream began (the last stop). */
  private streamSamples = 0;
  private streamSent = 0;
  private disposed = false;
  private readonly setTimer: (run: () => void, ms: number) => unknown;
  private readonly clearTimer: (timer: unknown) => void;

  constructor(private readonly config: SocketEngineOptions) {
    this.options = config.options;
    this.setTimer = config.setTimer ?? ((run, ms) => setTimeout(run, ms));
    this.clearTimer = config.clearTimer ?? ((timer) => clearTimeout(timer as ReturnType<typeof setTimeout>));
  }

  start() {
    if (this.disposed) return;
    if (!this.socket) this.socket = this.createSocket();
    if (this.socket.connected || this.socket.active) return;
    this.config.dispatch({ type: 'connecting' });
    this.socket.connect();
  }

  setOptions(options: SetOptionsPayload) {
    this.options = { ...this.options, ...options };
    if (this.socket?.connected) this.socket.emit('set_options', options);
  }

  sendChunk(samples: Int16Array) {
    const socket = this.socket;
    if (!socket?.connected || samples.length === 0) return;
    this.streamSamples += samples.length;
    this.streamSent += samples.length;
    // Binary as 16-bit little-endian PCM: the typed array's own bytes (browsers are little-endian).
    socket.emit('stream_audio_samples', samples.slice().buffer);
  }

  endStream() {
    const socket = this.socket;
    if (!socket?.connected) return;
    if (this.streamSent === 0) {
      // The microphone gave nothing to send (a press too short, or a device sending only
      // digital silence): there is no stream to stop, and nothing was heard.
      this.config.dispatch({ type: 'stream_ended', outcome: 'nothing_heard' });
      return;
    }
    socket.emit('stop_stream_processing');
    // Only a trailing silence after the last result: no result is coming.
    if (this.streamSamples >= MIN_PENDING_SAMPLES)
      this.markProcessing(this.streamSamples / AUDIO_SAMPLE_RATE);
    this.streamSamples = 0;
    this.streamSent = 0;
  }

  /** The server's session loads the newest profile as each stream starts: nothing to reload here. */
  profileChanged() {}

  reconnect() {
    if (this.disposed) return;
    this.cancelReconnect();
    this.socket?.disconnect();
    this.config.dispatch({ type: 'problem', problem: null });
    this.start();
  }

  dispose() {
    this.disposed = true;
    this.cancelReconnect();
    this.clearProcessing();
    this.socket?.removeAllListeners();
    this.socket?.disconnect();
    this.socket = null;
    this.config.dispatch({ type: 'disconnected' });
  }

  private createSocket(): RecognitionSocket {
    const socket = this.config.createSocket({
      ...SOCKET_OPTIONS,
      // Read on every (re)connection, so a refreshed token is used at once.
      auth: (send: (data: object) => void) => {
        send(this.config.getAuth() ?? {});
      },
    });
    socket.on('connect', () => {
      this.streamSamples = 0;
      this.streamSent = 0;
      this.config.dispatch({ type: 'connected' });
    });
    socket.on('connection_ready', () => {
      this.config.dispatch({ type: 'connection_ready' });
      socket.emit('select_provider', this.config.provider);
      socket.emit('set_options', this.options);
    });
    socket.on('disconnect', () => {
      this.clearProcessing();
      this.config.dispatch({ type: 'disconnected' });
    });
    socket.on('connect_error', (error) => {
      this.config.dispatch({ type: 'disconnected' });
      // The manager retries transport failures by itself; a refusal by the server it does not.
      if (socket.active) return;
      if (reactToConnectError(error.message) === 'refresh_and_reconnect') void this.refreshAndConnect(0);
      else this.scheduleReconnect(1_000);
    });
    socket.on('model_loading', (payload) => {
      this.config.dispatch({ type: 'model_status', status: 'model_loading', message: payload.message });
    });
    socket.on('model_missing', (payload) => {
      this.config.dispatch({ type: 'model_status', status: 'model_missing', message: payload.message });
    });
    socket.on('model_loading_error', (payload) => {
      this.config.dispatch({ type: 'model_status', status: 'model_loading_error', message: payload.message });
    });
    socket.on('model_ready', (payload) => {
      this.config.dispatch({ type: 'model_status', status: 'model_ready' });
      this.config.onModelReady?.(payload.version);
    });
    socket.on('partial_recognition', ({ text }) => {
      this.config.dispatch({ type: 'partial', text });
    });
    socket.on('room_noise', ({ too_loud, cause }) => {
      this.config.dispatch({ type: 'room_noise', tooLoud: too_loud, cause });
    });
    socket.on('recognition', (result) => {
      this.streamSamples = 0;
      this.clearProcessing();
      this.config.dispatch({ type: 'final' });
      this.config.onResult(result);
    });
    socket.on('stream_ended', ({ outcome }) => {
      this.clearProcessing();
      // Audio of a next press already went out: this answer is about the last one, and
      // saying "nothing heard" now would speak over the press going on.
      this.config.dispatch(
        this.streamSent > 0 ? { type: 'processing_timeout' } : { type: 'stream_ended', outcome },
      );
    });
    socket.on('error', (payload) => {
      const reaction = reactToSocketError(payload);
      switch (reaction.action) {
        case 'reauthenticate_and_reconnect':
          socket.disconnect();
          void this.refreshAndConnect(reaction.delayMs);
          break;
        case 'reconnect':
          this.config.dispatch({ type: 'problem', problem: reaction.problem });
          socket.disconnect();
          this.scheduleReconnect(reaction.delayMs);
          break;
        case 'stop':
          this.config.dispatch({ type: 'problem', problem: reaction.problem });
          socket.disconnect();
          break;
        case 'show':
          this.config.dispatch({ type: 'problem', problem: reaction.problem });
          break;
      }
    });
    return socket;
  }

  private async refreshAndConnect(delayMs: number) {
    const ok = await this.config.refreshToken().catch(() => false);
    if (this.disposed) return;
    if (!ok) {
      this.config.dispatch({ type: 'problem', problem: { code: 'signed_out' } });
      return;
    }
    if (delayMs === 0) this.start();
    else this.scheduleReconnect(delayMs);
  }

  private scheduleReconnect(delayMs: number) {
    this.cancelReconnect();
    this.reconnectTimer = this.setTimer(() => {
      this.reconnectTimer = null;
      this.start();
    }, delayMs);
  }

  private cancelReconnect() {
    if (this.reconnectTimer !== null) this.clearTimer(this.reconnectTimer);
    this.reconnectTimer = null;
  }

  private markProcessing(audioSeconds: number) {
    this.clearProcessing();
    this.config.dispatch({ type: 'audio_sent' });
    this.processingTimer = this.setTimer(() => {
      this.processingTimer = null;
      this.config.dispatch({ type: 'processing_timeout' });
    }, processingTimeoutMs(audioSeconds));
  }

  private clearProcessing() {
    if (this.processingTimer !== null) this.clearTimer(this.processingTimer);
    this.processingTimer = null;
  }
}
