import {
  ErrorResponseSchema,
  ListVoicesResponseSchema,
  SynthesisPendingSchema,
  SynthesisRequestCreatedSchema,
  SynthesisRequestParamsSchema,
  SynthesisRequestSchema,
  SynthesizeRequestSchema,
} from '@parla/contract';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { Services } from '../services/services.js';
import type { AudioFile } from '../services/tts.service.js';
import { bearer, privateErrors, type ZodApp } from './route-helpers.js';

const security = bearer;
const audio = z.any().describe('The speech: audio/mpeg (mp3) or audio/wav');

const sendAudio = (reply: FastifyReply, file: AudioFile) =>
  reply
    .type(file.contentType)
    .header('Cache-Control', 'private, no-store')
    .send(Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength));

/** Text-to-speech: the voices, speech at once, and queued speech for long texts. */
export function registerTtsRoutes(app: ZodApp, { tts }: Services) {
  const tags = ['Text to speech'];

  app.get(
    '/api/v1/list_voices',
    {
      schema: {
        tags,
        security,
        summary: 'The voices the server speaks with',
        response: { 200: ListVoicesResponseSchema, ...privateErrors },
      },
    },
    () => ({ voices: tts.voices() }),
  );

  app.post(
    '/api/v1/synthesize',
    {
      schema: {
        tags,
        security,
        summary: 'Speak a text now; the answer is the audio',
        body: SynthesizeRequestSchema,
        response: { 200: audio, ...privateErrors },
      },
    },
    async (request, reply) => {
      const { text, voice_id, media_type } = request.body;
      return sendAudio(reply, await tts.synthesize(text, voice_id, media_type));
    },
  );

  app.post(
    '/api/v1/request_synthesis',
    {
      schema: {
        tags,
        security,
        summary: 'Queue a long text; fetch its audio with the returned id',
        body: SynthesisRequestSchema,
        response: { 202: SynthesisRequestCreatedSchema, ...privateErrors },
      },
    },
    async (request, reply) => {
      const { text, voice_id, media_type } = request.body;
      return reply.status(202).send(await tts.request(request.auth.userId, text, voice_id, media_type));
    },
  );

  app.get(
    '/api/v1/synthesize_request/:id',
    {
      schema: {
        tags,
        security,
        summary: 'The audio of a queued synthesis; 202 with its status while it is being made',
        params: SynthesisRequestParamsSchema,
        response: {
          200: audio,
          202: SynthesisPendingSchema,
          ...privateErrors,
          422: ErrorResponseSchema.describe('The text could not be spoken'),
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const result = await tts.result(request.auth.userId, id);
      if (result.status === 'pending') return reply.status(202).send({ id, status: 'pending' as const });
      return sendAudio(reply, result);
    },
  );
}
