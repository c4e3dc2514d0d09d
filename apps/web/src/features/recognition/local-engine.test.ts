import type { RecognitionResult } from '@parla/contract';
import type { SpeechReply, SpeechRequest, StreamEvent } from '@parla/speech';
import { describe, expect, it, vi } from 'vitest';
import { LocalEngine, type GenericSetup, type LocalEngineOptions, type LocalResult } from './local-engine';
import { initialRecognitionState, recognitionReducer } from './recognition-state';

/** A worker that answers like serveSpeechWorker, with scripted stream events. */
class FakeWorker {
  onmessage: ((event: MessageEvent<SpeechReply>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  readonly requests: SpeechRequest[] = [];
  next: StreamEvent[] = [];
  terminated = false;
  /** Whether a request fails, as the worker's engine does with means it cannot read. */
  fails: (request: SpeechRequest) => boolean = () => false;
  postMessage(request: SpeechRequest) {
    this.requests.push(request);
    if (this.fails(request)) {
      const error = { code: 'bad_model', message: 'These adapted means cannot be read.' };
      queueMicrotask(() =>
        this.onmessage?.({ data: { id: request.id, ok: false, error } } as MessageEvent<SpeechReply>),
      );
      return;
    }
    const result =
      request.name === 'load-profile'
        ? { phrases: ['good morning'], trainedAt: 'now' }
        : request.name === 'open-stream'
          ? null
          : request.name === 'use-generic'
            ? { unrecorded: 1 }
            : request.name === 'use-encoder'
              ? { phrases: 8 }
              : this.next.splice(0);
    queueMicrotask(() =>
      this.onmessage?.({ data: { id: request.id, ok: true, result } } as MessageEvent<SpeechReply>),
    );
  }
  terminate() {
    this.terminated = true;
  }
}

function setup(
  model: { version: number; bytes: Uint8Array } | null = { version: 4, bytes: new Uint8Array([1]) },
  generic?: { modelBase: string; loadSetup: () => Promise<GenericSetup | null> },
  onGenericProblem?: (error: unknown) => void,
  more: Partial<LocalEngineOptions> = {},
) {
  const worker = new FakeWorker();
  let state = initialRecognitionState;
  const results: RecognitionResult[] = [];
  const kept: LocalResult[] = [];
  const engine = new LocalEngine({
    createWorker: () => worker as unknown as Worker,
    loadModel: () => Promise.resolve(model),
    options: { recognition_mode: 'dictate', streaming_vad_min_silence_length: 0.5 },
    dispatch: (event) => {
      state = recognitionReducer(state, event);
    },
    onResult: (result) => results.push(result),
    onLocalResult: (local) => kept.push(local),
    ...(generic ? { generic } : {}),
    ...(onGenericProblem ? { onGenericProblem } : {}),
    ...more,
  });
  return { engine, worker, state: () => state, results, kept };
}

/**
 * An engine ready on version 4 of the profile, a new worker each time it starts;
 * `newerProfile` builds version 5 and tells the engine.
 */
async function readyWithNewerProfiles() {
  let model = { version: 4, bytes: new Uint8Array([4]) };
  const workers: FakeWorker[] = [];
  const createWorker = () => {
    workers.push(new FakeWorker());
    return workers.at(-1) as unknown as Worker;
  };
  const made = setup(undefined, undefined, undefined, {
    createWorker,
    loadModel: () => Promise.resolve(model),
  });
  made.engine.start();
  await vi.waitFor(() => {
    expect(made.state().model).toBe('model_ready');
  });
  const newerProfile = () => {
    model = { version: 5, bytes: new Uint8Array([5]) };
    made.engine.profileChanged();
  };
  return { ...made, workers, newerProfile };
}

describe('LocalEngine', () => {
  it('loads the profile into the worker and is then ready like the socket', async () => {
    const { engine, worker, state } = setup();
    engine.start();
    await vi.waitFor(() => {
      expect(state()).toMatchObject({ connection: 'ready', model: 'model_ready' });
    });
    expect(worker.requests[0]).toMatchObject({ name: 'load-profile', args: { model: new Uint8Array([1]) } });
  });

  it('without a built profile says model_missing and starts no worker', async () => {
    const { engine, worker, state } = setup(null);
    engine.start();
    await vi.waitFor(() => {
      expect(state().model).toBe('model_missing');
    });
    expect(worker.requests).toHaveLength(0);
  });

  it('streams chunks as floats with the silence option; events become partials and results with their audio', async () => {
    const { engine, worker, state, results, kept } = setup();
    engine.start();
    await vi.waitFor(() => {
      expect(state().model).toBe('model_ready');
    });
    worker.next = [
      { type: 'speech-start', time: 0 },
      { type: 'partial', text: 'good', time: 0.1 },
    ];
    engine.sendChunk(new Int16Array(3200).fill(16384));
    await vi.waitFor(() => {
      expect(state().partial).toBe('good');
    });
    const open = worker.requests.find((request) => request.name === 'open-stream');
    expect(open?.args).toMatchObject({ options: { minSilence: 0.5 } });
    const push = worker.requests.find((request) => request.name === 'push-audio');
    expect((push?.args as { samples: Float32Array }).samples[0]).toBe(0.5);
    worker.next = [
      {
        type: 'final',
        start: 0,
        end: 0.3,
        text: 'good morning',
        confidence: 0.9,
        rejected: false,
        alternatives: [{ text: 'good morning', confidence: 0.9 }],
      },
    ];
    engine.sendChunk(new Int16Array(3200));
    await vi.waitFor(() => {
      expect(results).toHaveLength(1);
    });
    expect(results[0]).toMatchObject({
      text: 'good morning',
      recognition_mode: 'dictate',
      acoustic_model_id: 4,
      duration: 0.3,
    });
    expect(kept[0]?.audio.length).toBe(4800);
    expect(state().partial).toBe('');
    // The worker's stream says when the room is too loud, as the server does.
    worker.next = [{ type: 'room-noise', tooLoud: true, cause: 'noise', marginDb: 11, time: 0.4 }];
    engine.sendChunk(new Int16Array(3200));
    await vi.waitFor(() => {
      expect(state().drownedBy).toBe('noise');
    });
  });

  it('says how each stream ended, as the server does', async () => {
    const { engine, worker, state } = setup();
    engine.start();
    await vi.waitFor(() => {
      expect(state().model).toBe('model_ready');
    });
    // A stream the room's steady sound alone opened an utterance in (a microphone's hiss).
    worker.next = [
      { type: 'speech-start', time: 0 },
      { type: 'speech-cancelled', time: 1.2, steadyRoom: true },
    ];
    engine.sendChunk(new Int16Array(3200));
    engine.endStream();
    await vi.waitFor(() => {
      expect(state().missed).toBe('nothing_heard');
    });
    // Speech heard, then withdrawn as the room's: nothing understood.
    worker.next = [
      { type: 'speech-start', time: 0 },
      { type: 'speech-cancelled', time: 0.4 },
    ];
    engine.sendChunk(new Int16Array(16_000));
    engine.endStream();
    await vi.waitFor(() => {
      expect(state().missed).toBe('taken_for_room');
    });
    expect(state().processing).toBe(false);
    // A stream with no speech in it.
    engine.sendChunk(new Int16Array(3200));
    engine.endStream();
    await vi.waitFor(() => {
      expect(state().missed).toBe('nothing_heard');
    });
    // A rejection is an answer: the page already says it was not understood.
    worker.next = [
      { type: 'speech-start', time: 0 },
      {
        type: 'final',
        start: 0,
        end: 0.3,
        text: null,
        confidence: 0.2,
        rejected: true,
        alternatives: [{ text: 'good morning', confidence: 0.2 }],
      },
    ];
    engine.sendChunk(new Int16Array(3200));
    engine.endStream();
    await vi.waitFor(() => {
      expect(state().missed).toBeNull();
    });
    // A press the microphone sent nothing for.
    engine.sendChunk(new Int16Array(3200));
    engine.endStream();
    engine.endStream();
    expect(state().missed).toBe('nothing_heard');
  });

  it('says nothing of the last press once the next is streaming', async () => {
    const { engine, worker, state } = setup();
    engine.start();
    await vi.waitFor(() => {
      expect(state().model).toBe('model_ready');
    });
    engine.sendChunk(new Int16Array(16_000));
    engine.endStream();
    engine.sendChunk(new Int16Array(3200));
    await vi.waitFor(() => {
      expect(worker.requests.filter((r) => r.name === 'push-audio')).toHaveLength(2);
    });
    expect(worker.requests.map((r) => r.name)).toContain('close-stream');
    expect(state()).toMatchObject({ missed: null, processing: false });
  });

  it('hears phrases not recorded yet with the generic recogniser when it knows the voice', async () => {
    const phrases = ['good morning', 'call my son'];
    const { engine, worker, state, results } = setup(undefined, {
      modelBase: 'https://parla.test/speech-model/',
      loadSetup: () => Promise.resolve({ phrases, ownMeansTrusted: true }),
    });
    engine.start();
    await vi.waitFor(() => {
      expect(worker.requests.map((r) => r.name)).toEqual(['load-profile', 'use-generic']);
    });
    expect(state().model).toBe('model_ready');
    expect(worker.requests[1]).toMatchObject({
      args: { modelBase: 'https://parla.test/speech-model/', phrases },
    });
    // Each answer reaches the page marked with who answered it: the generic recogniser alone
    // (a phrase not recorded yet), a rejected guess it seconded, an answer in doubt it did
    // not name (withdrawn).
    const marked = [
      { text: 'call my son', rejected: false, generic: true },
      { text: 'good morning', rejected: false, seconded: true },
      { text: null, rejected: true, doubted: true },
    ] as const;
    for (const [i, mark] of marked.entries()) {
      worker.next = [
        {
          type: 'final',
          confidence: 0.6,
          alternatives: [{ text: 'good morning', confidence: 0.6 }],
          start: 0,
          end: 0.2,
          ...mark,
        },
      ];
      engine.sendChunk(new Int16Array(3200));
      await vi.waitFor(() => {
        expect(results).toHaveLength(i + 1);
      });
      expect(results[i]).toMatchObject(mark);
    }
    const marks = (result: RecognitionResult) =>
      ['generic', 'seconded', 'doubted'].filter((mark) => mark in result);
    expect(results.map(marks)).toEqual([['generic'], ['seconded'], ['doubted']]);
  });

  it('hands the worker the means adapted to the voice, or its own when it cannot read those and knows the voice with them', async () => {
    const voice = { key: '/app/end_user/models/m1/v4/voice.bin', means: new Uint8Array([1, 2, 3]) };
    // The words' pronunciations go with either means.
    const pronunciations: [string, string][] = [
      ['good', 'G UH D'],
      ['morning', 'M AO R N IH NG'],
    ];
    const problems: unknown[] = [];
    const start = async (ownMeansTrusted: boolean, unreadable: boolean) => {
      const run = setup(
        undefined,
        {
          modelBase: '/m/',
          loadSetup: () =>
            Promise.resolve({ phrases: ['good morning'], voice, ownMeansTrusted, pronunciations }),
        },
        (error) => problems.push(error),
      );
      run.worker.fails = (request) => unreadable && request.name === 'use-generic' && 'voice' in request.args;
      run.engine.start();
      await vi.waitFor(() => {
        expect(run.state().model).toBe('model_ready');
      });
      await new Promise((resolve) => setTimeout(resolve, 10));
      return run.worker.requests.filter((r) => r.name === 'use-generic').map((r) => r.args);
    };
    expect(await start(false, false)).toEqual([
      { modelBase: '/m/', phrases: ['good morning'], voice, pronunciations },
    ]);
    expect(await start(true, true)).toEqual([
      { modelBase: '/m/', phrases: ['good morning'], voice, pronunciations },
      { modelBase: '/m/', phrases: ['good morning'], pronunciations },
    ]);
    // Not trusted with its own means: the profile alone answers. Either way, it is reported.
    expect(await start(false, true)).toHaveLength(1);
    expect(problems).toHaveLength(2);
  });

  it('leaves the generic recogniser off for a voice it does not know, or when it cannot load', async () => {
    const unknown = setup(undefined, { modelBase: '/m/', loadSetup: () => Promise.resolve(null) });
    unknown.engine.start();
    await vi.waitFor(() => {
      expect(unknown.state().model).toBe('model_ready');
    });
    const failing = setup(undefined, {
      modelBase: '/m/',
      loadSetup: () => Promise.reject(new Error('offline')),
    });
    failing.engine.start();
    await vi.waitFor(() => {
      expect(failing.state().model).toBe('model_ready');
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    for (const { worker, state } of [unknown, failing]) {
      expect(worker.requests.map((r) => r.name)).toEqual(['load-profile']);
      expect(state().model).toBe('model_ready');
    }
  });

  it("hands the worker the speech encoder's views of the version it loaded, and only those", async () => {
    const views = new Uint8Array([7, 7]);
    const modelUrl = '/speech-encoder/encoder_model.onnx';
    const same = setup(undefined, undefined, undefined, {
      encoder: { modelUrl, loadViews: () => Promise.resolve({ version: 4, views }) },
    });
    same.engine.start();
    await vi.waitFor(() => {
      expect(same.worker.requests.map((r) => r.name)).toEqual(['load-profile', 'use-encoder']);
    });
    expect(same.worker.requests[1]?.args).toEqual({ modelUrl, views });

    // Views of a newer version than the profile loaded, none at all, or none to be had.
    const problems: unknown[] = [];
    const others = [
      () => Promise.resolve({ version: 5, views }),
      () => Promise.resolve(null),
      () => Promise.reject(new Error('offline')),
    ].map((loadViews) =>
      setup(undefined, undefined, undefined, {
        encoder: { modelUrl, loadViews },
        onEncoderProblem: (error) => problems.push(error),
      }),
    );
    for (const { engine, state } of others) {
      engine.start();
      await vi.waitFor(() => {
        expect(state().model).toBe('model_ready');
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
    for (const { worker } of others) expect(worker.requests.map((r) => r.name)).toEqual(['load-profile']);
    expect(problems).toEqual([new Error('offline')]);
  });

  it('loads a newer profile at once while nothing is streaming', async () => {
    const { state, workers, newerProfile } = await readyWithNewerProfiles();
    newerProfile();
    await vi.waitFor(() => {
      expect(workers[1]?.requests[0]).toMatchObject({
        name: 'load-profile',
        args: { model: new Uint8Array([5]) },
      });
    });
    expect(workers[0]?.terminated).toBe(true);
    await vi.waitFor(() => {
      expect(state()).toMatchObject({ connection: 'ready', model: 'model_ready' });
    });
  });

  it('loads a newer profile announced while the first is still being fetched, not the older one', async () => {
    // The first fetch answers late, with version 4; version 5 was built meanwhile.
    let answerFirst: (model: { version: number; bytes: Uint8Array }) => void = () => undefined;
    const fetches = [
      new Promise<{ version: number; bytes: Uint8Array }>((resolve) => (answerFirst = resolve)),
      Promise.resolve({ version: 5, bytes: new Uint8Array([5]) }),
    ];
    const versions: (number | undefined)[] = [];
    const { engine, worker, state } = setup(undefined, undefined, undefined, {
      loadModel: () => fetches.shift() ?? Promise.reject(new Error('fetched more than twice')),
      onModelReady: (version) => versions.push(version),
    });
    engine.start();
    engine.profileChanged();
    await vi.waitFor(() => {
      expect(state().model).toBe('model_ready');
    });
    answerFirst({ version: 4, bytes: new Uint8Array([4]) });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(worker.requests.filter((r) => r.name === 'load-profile')).toEqual([
      expect.objectContaining({ args: { model: new Uint8Array([5]) } }),
    ]);
    expect(versions).toEqual([5]);
    expect(state()).toMatchObject({ connection: 'ready', model: 'model_ready' });
  });

  it('loads a newer profile only once the stream being spoken in has ended, so its utterance is answered', async () => {
    const { engine, state, results, workers, newerProfile } = await readyWithNewerProfiles();
    const first = workers[0] as FakeWorker;
    first.next = [{ type: 'speech-start', time: 0 }];
    engine.sendChunk(new Int16Array(3200).fill(8000));
    newerProfile();
    engine.sendChunk(new Int16Array(3200).fill(8000));
    await vi.waitFor(() => {
      expect(first.requests.filter((r) => r.name === 'push-audio')).toHaveLength(2);
    });
    expect(workers).toHaveLength(1);
    expect(first.terminated).toBe(false);
    // The press ends: its utterance is answered by the worker it was spoken to, then the newer
    // profile loads.
    first.next = [
      {
        type: 'final',
        start: 0,
        end: 0.4,
        text: 'good morning',
        confidence: 0.9,
        rejected: false,
        alternatives: [{ text: 'good morning', confidence: 0.9 }],
      },
    ];
    engine.endStream();
    await vi.waitFor(() => {
      expect(workers[1]?.requests[0]).toMatchObject({
        name: 'load-profile',
        args: { model: new Uint8Array([5]) },
      });
    });
    expect(results.map((result) => [result.text, result.acoustic_model_id])).toEqual([['good morning', 4]]);
    expect(first.requests.map((r) => r.name)).toEqual([
      'load-profile',
      'open-stream',
      'push-audio',
      'push-audio',
      'close-stream',
    ]);
    expect(first.terminated).toBe(true);
    await vi.waitFor(() => {
      expect(state()).toMatchObject({ connection: 'ready', model: 'model_ready' });
    });
  });

  it('keeps a newer profile waiting through a stream closed for new options, while the person listens on', async () => {
    const { engine, workers, newerProfile } = await readyWithNewerProfiles();
    engine.sendChunk(new Int16Array(3200));
    newerProfile();
    // A new silence length closes the stream; listening goes on in the next.
    engine.setOptions({ streaming_vad_min_silence_length: 1 });
    await vi.waitFor(() => {
      expect(workers[0]?.requests.map((r) => r.name)).toContain('close-stream');
    });
    engine.sendChunk(new Int16Array(3200));
    await vi.waitFor(() => {
      expect(workers[0]?.requests.filter((r) => r.name === 'open-stream')).toHaveLength(2);
    });
    expect(workers).toHaveLength(1);
    engine.endStream();
    await vi.waitFor(() => {
      expect(workers[1]?.requests[0]).toMatchObject({
        name: 'load-profile',
        args: { model: new Uint8Array([5]) },
      });
    });
  });

  it('dispose stops the worker', async () => {
    const { engine, worker, state } = setup();
    engine.start();
    await vi.waitFor(() => {
      expect(state().model).toBe('model_ready');
    });
    engine.dispose();
    expect(worker.terminated).toBe(true);
    expect(state().connection).toBe('disconnected');
  });
});
