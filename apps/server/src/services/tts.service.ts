import { TTS_CONTENT_TYPES, type SynthesisStatus, type TtsMediaType, type Voice } from '@parla/contract';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../errors.js';
import { newId } from '../lib/crypto.js';
import type { BlobStorage } from '../storage/blob-storage.js';
import type { AudioFile, SpeechRenderer } from '../tts/speech-renderer.js';

/** A queued synthesis still pending after this long was lost to a restart. */
const ABANDONED_AFTER_MS = 10 * 60 * 1000;

export type { AudioFile };

/** What a queued synthesis is at: stored beside its audio, under the user's own prefix. */
interface SynthesisRecord {
  status: SynthesisStatus;
  media_type: TtsMediaType;
  /** Milliseconds since the epoch when it was asked for. */
  created_at: number;
}

const REQUEST_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const voiceNotFound = (voiceId: string) =>
  new AppError(404, `Voice ${voiceId} not found: choose one from the voice list`, 'VOICE_NOT_FOUND');
const requestNotFound = () => new AppError(404, 'Synthesis request not found', 'NOT_FOUND');

export interface TtsServiceDeps {
  voices: readonly Voice[];
  renderer: SpeechRenderer;
  storage: BlobStorage;
  log: FastifyBaseLogger;
}

/** Text-to-speech: the voices, speech at once, and queued speech for long texts. */
export class TtsService {
  constructor(private readonly deps: TtsServiceDeps) {}

  /** Stops the synthesis worker; requests still running fail. */
  close() {
    return this.deps.renderer.close();
  }

  voices(): Voice[] {
    return [...this.deps.voices];
  }

  /** Speaks the text now and encodes it in the asked format. */
  async synthesize(text: string, voiceId: string, mediaType: TtsMediaType): Promise<AudioFile> {
    this.assertVoice(voiceId);
    return this.deps.renderer.render(text, voiceId, mediaType);
  }

  /**
   * Starts speaking the text in the background; its audio is fetched later with the returned
   * id. The status lives in blob storage, so any server sharing that storage can answer.
   */
  async request(userId: string, text: string, voiceId: string, mediaType: TtsMediaType) {
    this.assertVoice(voiceId);
    const id = newId();
    const record: SynthesisRecord = { status: 'pending', media_type: mediaType, created_at: Date.now() };
    await this.writeRecord(userId, id, record);
    void this.work(userId, id, text, voiceId, record);
    return { id };
  }

  /** The audio of a queued synthesis, or pending while it is being made. */
  async result(
    userId: string,
    id: string,
  ): Promise<{ status: 'pending' } | ({ status: 'ready' } & AudioFile)> {
    if (!REQUEST_ID.test(id)) throw requestNotFound();
    const record = await this.readRecord(userId, id);
    const abandoned = record.status === 'pending' && Date.now() - record.created_at > ABANDONED_AFTER_MS;
    switch (abandoned ? 'failed' : record.status) {
      case 'pending':
        return { status: 'pending' };
      case 'failed':
        throw new AppError(
          422,
          'This text could not be spoken. Try a shorter text or another voice.',
          'SYNTHESIS_FAILED',
        );
      case 'ready': {
        const bytes = await this.deps.storage.get(audioKey(userId, id, record.media_type));
        return { status: 'ready', bytes, contentType: TTS_CONTENT_TYPES[record.media_type] };
      }
    }
  }

  /** Speaks one requested text and stores its audio; never rejects. */
  private async work(userId: string, id: string, text: string, voiceId: string, record: SynthesisRecord) {
    const media = record.media_type;
    try {
      const audio = await this.synthesize(text, voiceId, media);
      await this.deps.storage.put(audioKey(userId, id, media), audio.bytes);
      await this.writeRecord(userId, id, { ...record, status: 'ready' });
    } catch (error) {
      // The text is the user's: it stays out of the log.
      this.deps.log.error({ err: error, request: id }, 'synthesis failed');
      await this.writeRecord(userId, id, { ...record, status: 'failed' }).catch((failure: unknown) => {
        this.deps.log.error({ err: failure, request: id }, 'could not record a failed synthesis');
      });
    }
  }

  private assertVoice(voiceId: string) {
    if (!this.deps.voices.some((voice) => voice.id === voiceId)) throw voiceNotFound(voiceId);
  }

  private writeRecord(userId: string, id: string, record: SynthesisRecord) {
    return this.deps.storage.put(recordKey(userId, id), new TextEncoder().encode(JSON.stringify(record)));
  }

  private async readRecord(userId: string, id: string): Promise<SynthesisRecord> {
    let bytes: Uint8Array;
    try {
      bytes = await this.deps.storage.get(recordKey(userId, id));
    } catch {
      throw requestNotFound();
    }
    return JSON.parse(new TextDecoder().decode(bytes)) as SynthesisRecord;
  }
}

// Under users/<id>/ so that deleting the account deletes them too.
const recordKey = (userId: string, id: string) => `users/${userId}/speech/${id}.json`;
const audioKey = (userId: string, id: string, mediaType: TtsMediaType) =>
  `users/${userId}/speech/${id}.${mediaType}`;
