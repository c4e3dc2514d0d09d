import {
  ConfirmRecognitionRequestSchema,
  ConfirmRecognitionResponseSchema,
  ErrorResponseSchema,
  ImportInfoSchema,
  ImportReportSchema,
  MarkUnknownRequestSchema,
  MarkUnknownResponseSchema,
  ModelFileParamsSchema,
  ModelLinksResponseSchema,
  ModelsInfoResponseSchema,
  PhraseParamsSchema,
  RecognitionUploadInfoSchema,
  RecognitionUploadResponseSchema,
  RecordingParamsSchema,
  TrainingUploadResponseSchema,
  UploadInfoSchema,
} from '@parla/contract';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, badRequest } from '../errors.js';
import { baseName, readArchive, type ImportFile } from '../services/import-archive.js';
import type { Services } from '../services/services.js';
import { MODEL_FILES, type ModelFileName } from '../services/voice-profile.service.js';
import { bearer, privateErrors, type ZodApp } from './route-helpers.js';

/** Largest upload: 20 s of 48 kHz stereo float, with room for the header. */
export const MAX_UPLOAD_BYTES = 20 * 48_000 * 2 * 4 + 4096;
/** Largest import archive. */
export const MAX_ARCHIVE_BYTES = 200 * 1024 * 1024;

const security = bearer;

/** Parses the `info` field of a multipart upload with its schema; a bad one names the field. */
function parseInfo<T extends z.ZodType>(text: string | undefined, schema: T): z.output<T> {
  let value: unknown = {};
  if (text !== undefined) {
    try {
      value = JSON.parse(text);
    } catch {
      throw badRequest('info: must be a JSON object');
    }
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const keys = issue?.code === 'unrecognized_keys' ? issue.keys.join(', ') : '';
    throw badRequest(
      keys
        ? `info: unknown field ${keys}`
        : `info.${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'is not valid'}`,
    );
  }
  return parsed.data;
}

/** Reads the multipart fields `info` (JSON, checked by the schema) and the audio file field. */
async function readUpload<T extends z.ZodType>(request: FastifyRequest, audioField: string, infoSchema: T) {
  if (!request.isMultipart()) {
    throw new AppError(
      415,
      'Send the recording as multipart/form-data with the fields info and audiofile',
      'NOT_MULTIPART',
    );
  }
  let infoText: string | undefined;
  let audio: Buffer | undefined;
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      const bytes = await part.toBuffer();
      if (part.fieldname === audioField) audio = bytes;
    } else if (part.fieldname === 'info') {
      infoText = String(part.value);
    }
  }
  if (!audio)
    throw badRequest(`${audioField}: attach the recording as the ${audioField} field`, 'AUDIO_MISSING');
  return {
    info: parseInfo(infoText, infoSchema),
    audio: new Uint8Array(audio.buffer, audio.byteOffset, audio.byteLength),
  };
}

/** Most files one import may carry outside an archive. */
const MAX_IMPORT_FILES = 200;

/** Reads an import: `info` JSON, `audiofile` parts and/or one `archive` (zip). */
async function readImport(request: FastifyRequest) {
  if (!request.isMultipart()) {
    throw new AppError(
      415,
      'Send the import as multipart/form-data with info and audiofile or archive fields',
      'NOT_MULTIPART',
    );
  }
  let infoText: string | undefined;
  const files: ImportFile[] = [];
  let archive: Uint8Array | undefined;
  for await (const part of request.parts({
    limits: { files: MAX_IMPORT_FILES + 1, fileSize: MAX_ARCHIVE_BYTES },
  })) {
    if (part.type === 'file') {
      const bytes = new Uint8Array(await part.toBuffer());
      if (part.fieldname === 'archive') archive = bytes;
      else if (part.fieldname === 'audiofile')
        files.push({ name: baseName(part.filename || `file-${files.length + 1}`), bytes });
    } else if (part.fieldname === 'info') {
      infoText = String(part.value);
    }
  }
  const info = parseInfo(infoText, ImportInfoSchema);
  const transcripts = new Map(Object.entries(info.transcripts ?? {}));
  if (archive) {
    const unpacked = readArchive(archive);
    files.push(...unpacked.files);
    for (const [file, text] of unpacked.transcripts) transcripts.set(file, text);
  }
  if (files.length === 0)
    throw badRequest('Attach audio files (audiofile) or a zip archive (archive) to import', 'IMPORT_EMPTY');
  return { info, files, transcripts };
}

/** Training takes in; personal voice profiles (models) out. */
export function registerRecordingRoutes(app: ZodApp, { voiceProfile, recognition }: Services) {
  const tags = ['Voice profile'];

  app.post(
    '/app/casr/upload/training/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Upload a take of a phrase (multipart: info JSON, audiofile); schedules a retrain',
        description:
          'The take is a WAV (PCM 16-bit or float 32-bit, any rate, mono or stereo; what the app records) or another common format (M4A, CAF, MP3, Ogg, WebM, FLAC, AIFF, AMR) of 0.15 to 20 seconds, with sound in it and not clipped.',
        consumes: ['multipart/form-data'],
        params: PhraseParamsSchema,
        response: {
          201: TrainingUploadResponseSchema,
          413: ErrorResponseSchema,
          415: ErrorResponseSchema,
          422: ErrorResponseSchema,
          ...privateErrors,
        },
      },
    },
    async (request, reply) => {
      const { info, audio } = await readUpload(request, 'audiofile', UploadInfoSchema);
      const stored = await voiceProfile.addTrainingTake(request.auth.userId, request.params.id, audio, info);
      return reply.status(201).send(stored);
    },
  );

  app.post(
    '/app/casr/import/training',
    {
      schema: {
        tags,
        security,
        summary: 'Import existing recordings with their transcripts (see docs/imports.md)',
        description:
          'Multipart: info JSON {source, scenario_id?, transcripts?}, audiofile parts and/or one archive (zip with audio and transcripts.csv). Answers which files were imported and which were refused, and why.',
        consumes: ['multipart/form-data'],
        response: {
          200: ImportReportSchema,
          413: ErrorResponseSchema,
          415: ErrorResponseSchema,
          ...privateErrors,
        },
      },
    },
    async (request) => {
      const { info, files, transcripts } = await readImport(request);
      return voiceProfile.importTakes(request.auth.userId, info.source, files, transcripts, info.scenario_id);
    },
  );

  app.post(
    '/app/recording/recognition',
    {
      schema: {
        tags,
        security,
        summary: 'Keep what the browser recognised locally (multipart: info JSON with result, audio WAV)',
        description:
          'Nothing is kept for a person who opted out of keeping recognition audio; the answer says so.',
        consumes: ['multipart/form-data'],
        response: {
          201: RecognitionUploadResponseSchema,
          413: ErrorResponseSchema,
          415: ErrorResponseSchema,
          ...privateErrors,
        },
      },
    },
    async (request, reply) => {
      const { info, audio } = await readUpload(request, 'audio', RecognitionUploadInfoSchema);
      return reply
        .status(201)
        .send(await recognition.storeLocalResult(request.auth.userId, info.result, audio, info.upload_key));
    },
  );

  app.post(
    '/app/recording/recognition/:id/confirm',
    {
      schema: {
        tags,
        security,
        summary: 'Say what a recognised utterance meant; it then trains the voice profile',
        description:
          'text is the recognised phrase when it was right, or the phrase the person meant. The utterance becomes a take of that phrase; the profile is retrained once a few confirmed utterances have gathered.',
        params: RecordingParamsSchema,
        body: ConfirmRecognitionRequestSchema,
        response: {
          201: ConfirmRecognitionResponseSchema,
          409: ErrorResponseSchema,
          410: ErrorResponseSchema,
          422: ErrorResponseSchema,
          ...privateErrors,
        },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await voiceProfile.confirmRecognition(request.auth.userId, request.params.id, request.body.text),
        ),
  );

  app.post(
    '/app/recording/recognition/:id/none_of_my_phrases',
    {
      schema: {
        tags,
        security,
        summary: 'Say that a recognised utterance was none of your phrases; the profile learns to reject it',
        description:
          'For an utterance that got an answer although the person said something that is not one of their phrases. It becomes a take without a phrase; once a few confirmed or marked utterances have gathered, the profile is retrained to reject what sounds like it.',
        params: RecordingParamsSchema,
        body: MarkUnknownRequestSchema,
        response: {
          201: MarkUnknownResponseSchema,
          409: ErrorResponseSchema,
          410: ErrorResponseSchema,
          ...privateErrors,
        },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await voiceProfile.markUnknown(request.auth.userId, request.params.id)),
  );

  app.get(
    '/app/modelsInfo',
    {
      schema: {
        tags,
        security,
        summary: "The user's current models and the recording state",
        response: { 200: ModelsInfoResponseSchema, ...privateErrors },
      },
    },
    (request) => voiceProfile.modelsInfo(request.auth.userId),
  );

  app.get(
    '/app/end_user/model_links',
    {
      schema: {
        tags,
        security,
        summary: 'Versioned download links of the current model, for the browser',
        response: { 200: ModelLinksResponseSchema, ...privateErrors },
      },
    },
    (request) => voiceProfile.modelLinks(request.auth.userId),
  );

  const described = {
    profile: { summary: 'Download a model file (only its owner may)', body: 'The serialised voice profile' },
    voice: {
      summary: "Download the generic recogniser's means adapted to the owner's voice (only its owner may)",
      body: 'The adapted means, compact',
    },
    views: {
      summary: "Download the speech encoder's views of the owner's takes (only its owner may)",
      body: 'The views, 8-bit, sealed',
    },
  } satisfies Record<ModelFileName, { summary: string; body: string }>;
  for (const file of MODEL_FILES) {
    app.get(
      `/app/end_user/models/:id/:version/${file}.bin`,
      {
        schema: {
          tags,
          security,
          summary: described[file].summary,
          params: ModelFileParamsSchema,
          response: {
            200: z.any().describe(described[file].body),
            ...privateErrors,
          },
        },
      },
      async (request, reply) => {
        const { bytes, version } = await voiceProfile.modelFile(request.auth.userId, request.params.id, file);
        if (`v${version}` !== request.params.version) throw new AppError(404, 'Model not found', 'NOT_FOUND');
        // A version's files never change: the browser may keep them until the version moves on.
        return reply
          .type('application/octet-stream')
          .header('Cache-Control', 'private, max-age=31536000, immutable')
          .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      },
    );
  }
}
