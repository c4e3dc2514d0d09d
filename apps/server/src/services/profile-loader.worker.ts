import { deserializeProfile, SpeechError } from '@parla/speech';
import { answerRequests } from '../lib/worker-thread.js';
import { buffersUnder, type LoadReply } from './profile-loader.js';

// Loading a profile is tens of milliseconds of CPU: it runs here so streams keep flowing.
answerRequests((bytes: Uint8Array) => {
  try {
    const profile = deserializeProfile(bytes);
    return Promise.resolve({ result: { profile } satisfies LoadReply, transfer: buffersUnder(profile) });
  } catch (error) {
    if (!(error instanceof SpeechError))
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    return Promise.resolve({
      result: { refused: { code: error.code, message: error.message } } satisfies LoadReply,
    });
  }
});
