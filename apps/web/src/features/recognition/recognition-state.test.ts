import { describe, expect, it } from 'vitest';
import {
  canStream,
  initialRecognitionState,
  processingTimeoutMs,
  reactToConnectError,
  reactToSocketError,
  recognitionReducer,
  type RecognitionEvent,
} from './recognition-state';

const run = (...events: RecognitionEvent[]) => events.reduce(recognitionReducer, initialRecognitionState);

describe('recognition state', () => {
  it('streams only when connected, ready and the model is ready', () => {
    expect(canStream(run({ type: 'connected' }))).toBe(false);
    expect(canStream(run({ type: 'connected' }, { type: 'connection_ready' }))).toBe(false);
    const ready = run(
      { type: 'connected' },
      { type: 'connection_ready' },
      { type: 'model_status', status: 'model_loading' },
      { type: 'model_status', status: 'model_ready' },
    );
    expect(ready.connection).toBe('ready');
    expect(canStream(ready)).toBe(true);
    expect(canStream(recognitionReducer(ready, { type: 'disconnected' }))).toBe(false);
    expect(canStream(run({ type: 'model_status', status: 'model_ready' }))).toBe(false);
  });

  it('keeps the model message of a missing or failed profile', () => {
    const state = run({ type: 'model_status', status: 'model_missing', message: 'Record first' });
    expect(state).toMatchObject({ model: 'model_missing', modelMessage: 'Record first' });
  });

  it('a new connection forgets the previous model until select_provider answers', () => {
    const state = run(
      { type: 'connection_ready' },
      { type: 'model_status', status: 'model_ready' },
      { type: 'disconnected' },
      { type: 'connected' },
      { type: 'connection_ready' },
    );
    expect(state.model).toBe('unknown');
  });

  it('partial text grows until the final clears it', () => {
    let state = run({ type: 'partial', text: 'good' }, { type: 'partial', text: 'good morning' });
    expect(state.partial).toBe('good morning');
    state = recognitionReducer(state, { type: 'final' });
    expect(state.partial).toBe('');
  });

  it('processing is set by sending and cleared by the result, the timeout or a lost connection', () => {
    expect(run({ type: 'audio_sent' }).processing).toBe(true);
    expect(run({ type: 'audio_sent' }, { type: 'final' }).processing).toBe(false);
    expect(run({ type: 'audio_sent' }, { type: 'processing_timeout' }).processing).toBe(false);
    expect(run({ type: 'audio_sent' }, { type: 'disconnected' }).processing).toBe(false);
  });

  it('a stream that ends with nothing understood says why until the person listens again', () => {
    const heardNothing = { type: 'stream_ended', outcome: 'nothing_heard' } as const;
    const roomOnly = { type: 'stream_ended', outcome: 'taken_for_room' } as const;
    expect(run({ type: 'audio_sent' }, heardNothing)).toMatchObject({
      processing: false,
      missed: 'nothing_heard',
    });
    expect(run({ type: 'partial', text: 'good' }, roomOnly)).toMatchObject({
      partial: '',
      missed: 'taken_for_room',
    });
    expect(run(heardNothing, { type: 'listening_started' }).missed).toBeNull();
    expect(run(heardNothing, { type: 'final' }).missed).toBeNull();
    expect(run(heardNothing, { type: 'disconnected' }).missed).toBeNull();
    expect(run(heardNothing, { type: 'stream_ended', outcome: 'recognised' }).missed).toBeNull();
    // A result then its stream's end: the result stands, nothing is said to be missed.
    expect(
      run({ type: 'audio_sent' }, { type: 'final' }, { type: 'stream_ended', outcome: 'recognised' }),
    ).toMatchObject({ processing: false, missed: null });
  });

  it('the room is too loud from the notice until the notice ends or the connection is lost', () => {
    const voices = { type: 'room_noise', tooLoud: true, cause: 'voices' } as const;
    expect(run(voices).drownedBy).toBe('voices');
    expect(run({ ...voices, cause: 'noise' }).drownedBy).toBe('noise');
    expect(run(voices, { type: 'final' }).drownedBy).toBe('voices');
    expect(run(voices, { type: 'room_noise', tooLoud: false, cause: 'noise' }).drownedBy).toBeNull();
    expect(run(voices, { type: 'disconnected' }).drownedBy).toBeNull();
  });

  it('processing times out after 10 s plus the larger of twice the audio and 4 s', () => {
    expect(processingTimeoutMs(1)).toBe(14_000);
    expect(processingTimeoutMs(3)).toBe(16_000);
  });

  it('maps the error catalogue to reactions', () => {
    expect(reactToSocketError({ code: 1001, message: 'x' })).toEqual({
      action: 'reauthenticate_and_reconnect',
      delayMs: 10_000,
    });
    expect(reactToSocketError({ code: 1011, message: 'streaming already active' })).toEqual({
      action: 'reconnect',
      delayMs: 10_000,
      problem: { code: 'already_streaming' },
    });
    expect(reactToSocketError({ code: 1013, message: 'Please agree' })).toEqual({
      action: 'stop',
      problem: { code: 'consents_required' },
    });
    expect(reactToSocketError({ message: 'parse error' })).toEqual({
      action: 'show',
      problem: { code: 'server', message: 'parse error' },
    });
    expect(reactToConnectError('authentication failed')).toBe('refresh_and_reconnect');
    expect(reactToConnectError('timeout')).toBe('retry');
  });
});
