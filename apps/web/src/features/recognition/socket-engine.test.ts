import type { RecognitionResult } from '@parla/contract';
import { describe, expect, it, vi } from 'vitest';
import { initialRecognitionState, recognitionReducer, type RecognitionEvent } from './recognition-state';
import { SocketEngine, type RecognitionSocket } from './socket-engine';

type Handler = (...args: unknown[]) => void;

/** Enough of a socket.io client socket to drive the engine from the "server" side. */
class FakeSocket {
  connected = false;
  active = false;
  readonly sent: { event: string; args: unknown[] }[] = [];
  readonly handlers = new Map<string, Handler[]>();
  connects = 0;
  constructor(readonly options: Record<string, unknown>) {}
  on(event: string, handler: Handler) {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), handler]);
    return this;
  }
  emit(event: string, ...args: unknown[]) {
    this.sent.push({ event, args });
    return this;
  }
  connect() {
    this.connects += 1;
    this.active = true;
    return this;
  }
  disconnect() {
    const was = this.connected;
    this.connected = false;
    this.active = false;
    if (was) this.serve('disconnect', 'io client disconnect');
    return this;
  }
  removeAllListeners() {
    this.handlers.clear();
    return this;
  }
  serve(event: string, ...args: unknown[]) {
    if (event === 'connect') this.connected = true;
    for (const handler of this.handlers.get(event) ?? []) handler(...args);
  }
  auth() {
    let data: unknown;
    (this.options.auth as (send: (d: unknown) => void) => void)((d) => (data = d));
    return data;
  }
}

function setup(refresh = true) {
  let socket: FakeSocket | null = null;
  let state = initialRecognitionState;
  const events: RecognitionEvent[] = [];
  const results: RecognitionResult[] = [];
  const timers: { run: () => void; ms: number; cleared: boolean }[] = [];
  let token = 't1';
  const refreshToken = vi.fn(() => {
    token = 't2';
    return Promise.resolve(refresh);
  });
  const engine = new SocketEngine({
    createSocket: (options) => {
      socket = new FakeSocket(options);
      return socket as unknown as RecognitionSocket;
    },
    getAuth: () => ({ token, refresh_token: 'r', user_id: 'u1' }),
    refreshToken,
    provider: { language: 'en-US' },
    options: { recognition_mode: 'speak', streaming_vad_min_silence_length: 0.3 },
    dispatch: (event) => {
      events.push(event);
      state = recognitionReducer(state, event);
    },
    onResult: (result) => results.push(result),
    setTimer: (run, ms) => {
      const timer = { run, ms, cleared: false };
      timers.push(timer);
      return timer;
    },
    clearTimer: (timer) => {
      (timer as { cleared: boolean }).cleared = true;
    },
  });
  const fake = () => {
    if (!socket) throw new Error('no socket yet');
    return socket;
  };
  return { engine, fake, state: () => state, events, results, timers, refreshToken };
}

const result: RecognitionResult = {
  text: 'good morning',
  confidence: 0.9,
  rejected: false,
  alternatives: [{ text: 'good morning', confidence: 0.9 }],
  recognition_mode: 'speak',
  duration: 1.2,
  acoustic_model_id: 1,
  confidence_threshold: 0.5,
};

describe('SocketEngine', () => {
  it('connects with the spec options and the session tokens, then selects the provider and options', () => {
    const { engine, fake, state } = setup();
    engine.start();
    const socket = fake();
    expect(socket.options).toMatchObject({
      path: '/socket.io',
      transports: ['polling', 'websocket'],
      timeout: 20_000,
      reconnectionDelay: 1_000,
      reconnectionDelayMax: 5_000,
      randomizationFactor: 0.5,
      reconnectionAttempts: Infinity,
    });
    expect(socket.auth()).toEqual({ token: 't1', refresh_token: 'r', user_id: 'u1' });
    socket.serve('connect');
    expect(state().connection).toBe('connected');
    socket.serve('connection_ready');
    expect(socket.sent.map((s) => s.event)).toEqual(['select_provider', 'set_options']);
    expect(socket.sent[1]?.args[0]).toEqual({
      recognition_mode: 'speak',
      streaming_vad_min_silence_length: 0.3,
    });
    socket.serve('model_ready', { version: 3 });
    expect(state()).toMatchObject({ connection: 'ready', model: 'model_ready' });
  });

  it('sends chunks as binary, and ending the stream sets processing until the result', () => {
    const { engine, fake, state, results, timers } = setup();
    engine.start();
    fake().serve('connect');
    engine.sendChunk(new Int16Array([1, -2, 3]));
    const payload = fake().sent[0]?.args[0] as ArrayBuffer;
    expect([...new Int16Array(payload)]).toEqual([1, -2, 3]);
    engine.sendChunk(new Int16Array(16_000));
    engine.endStream();
    expect(fake().sent.at(-1)?.event).toBe('stop_stream_processing');
    expect(state().processing).toBe(true);
    expect(timers.at(-1)?.ms).toBe(14_000);
    fake().serve('partial_recognition', { text: 'good' });
    expect(state().partial).toBe('good');
    fake().serve('recognition', result);
    expect(results).toEqual([result]);
    expect(state()).toMatchObject({ processing: false, partial: '' });
    expect(timers.at(-1)?.cleared).toBe(true);
  });

  it('room_noise says whether the room is too loud to understand the person over', () => {
    const { engine, fake, state } = setup();
    engine.start();
    fake().serve('connect');
    fake().serve('room_noise', { too_loud: true, cause: 'voices' });
    expect(state().drownedBy).toBe('voices');
    fake().serve('room_noise', { too_loud: false, cause: 'noise' });
    expect(state().drownedBy).toBeNull();
  });

  it('the processing timeout clears the flag when no result comes', () => {
    const { engine, fake, state, timers } = setup();
    engine.start();
    fake().serve('connect');
    engine.sendChunk(new Int16Array(16_000));
    engine.endStream();
    timers.at(-1)?.run();
    expect(state().processing).toBe(false);
  });

  it('stream_ended clears processing at once and says why nothing was understood', () => {
    const { engine, fake, state, timers } = setup();
    engine.start();
    fake().serve('connect');
    engine.sendChunk(new Int16Array(16_000));
    engine.endStream();
    expect(state().processing).toBe(true);
    fake().serve('stream_ended', { request_id: 'r1', outcome: 'taken_for_room' });
    expect(state()).toMatchObject({ processing: false, missed: 'taken_for_room' });
    expect(timers.at(-1)?.cleared).toBe(true);
  });

  it('an answer about the last press that comes once the next has begun says nothing over it', () => {
    const { engine, fake, state } = setup();
    engine.start();
    fake().serve('connect');
    engine.sendChunk(new Int16Array(16_000));
    engine.endStream();
    engine.sendChunk(new Int16Array(3200));
    fake().serve('stream_ended', { request_id: 'r1', outcome: 'nothing_heard' });
    expect(state()).toMatchObject({ processing: false, missed: null });
  });

  it('a stream the microphone sent nothing for ends as nothing heard, with no stop to send', () => {
    const { engine, fake, state } = setup();
    engine.start();
    fake().serve('connect');
    engine.endStream();
    expect(fake().sent.map((s) => s.event)).not.toContain('stop_stream_processing');
    expect(state().missed).toBe('nothing_heard');
    // After a result, a stop is still sent: the server's stream is open and says how it ended.
    engine.sendChunk(new Int16Array(16_000));
    fake().serve('recognition', result);
    engine.endStream();
    expect(fake().sent.at(-1)?.event).toBe('stop_stream_processing');
    expect(state().processing).toBe(false);
  });

  it('authentication failed: refreshes the token and connects again with the new one', async () => {
    const { engine, fake, refreshToken } = setup();
    engine.start();
    const socket = fake();
    socket.active = false;
    socket.serve('connect_error', new Error('authentication failed'));
    await vi.waitFor(() => {
      expect(socket.connects).toBe(2);
    });
    expect(refreshToken).toHaveBeenCalledOnce();
    expect(socket.auth()).toMatchObject({ token: 't2' });
  });

  it('a refused refresh stops with signed out', async () => {
    const { engine, fake, state } = setup(false);
    engine.start();
    fake().active = false;
    fake().serve('connect_error', new Error('authentication failed'));
    await vi.waitFor(() => {
      expect(state().problem).toEqual({ code: 'signed_out' });
    });
    expect(fake().connects).toBe(1);
  });

  it('ending a stream with only silence after the last result waits for nothing', () => {
    const { engine, fake, state } = setup();
    engine.start();
    fake().serve('connect');
    engine.sendChunk(new Int16Array(32_000));
    fake().serve('recognition', result);
    engine.sendChunk(new Int16Array(3200));
    engine.endStream();
    expect(fake().sent.at(-1)?.event).toBe('stop_stream_processing');
    expect(state().processing).toBe(false);
  });

  it('1001 re-authenticates and reconnects after 10 s', async () => {
    const { engine, fake, timers, refreshToken } = setup();
    engine.start();
    fake().serve('connect');
    fake().serve('error', { code: 1001, message: 'session ended' });
    await vi.waitFor(() => {
      expect(timers.at(-1)?.ms).toBe(10_000);
    });
    expect(refreshToken).toHaveBeenCalledOnce();
    timers.at(-1)?.run();
    expect(fake().connects).toBe(2);
  });

  it('1011 reconnects after 10 s and says another device is streaming', () => {
    const { engine, fake, timers, state } = setup();
    engine.start();
    fake().serve('connect');
    fake().serve('error', { code: 1011, message: 'streaming already active' });
    expect(state().problem).toEqual({ code: 'already_streaming' });
    expect(fake().connected).toBe(false);
    expect(timers.at(-1)?.ms).toBe(10_000);
    timers.at(-1)?.run();
    expect(fake().connects).toBe(2);
  });

  it('1013 shows the consent problem and does not reconnect until asked', () => {
    const { engine, fake, timers, state } = setup();
    engine.start();
    fake().serve('connect');
    fake().serve('error', { code: 1013, message: 'Please agree to the new privacy policy' });
    expect(state().problem).toEqual({ code: 'consents_required' });
    expect(timers).toHaveLength(0);
    engine.reconnect();
    expect(fake().connects).toBe(2);
    expect(state().problem).toBeNull();
  });
});
