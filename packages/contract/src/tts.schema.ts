import { z } from 'zod';

export const TTS_MEDIA_TYPES = ['mp3', 'wav'] as const;
export type TtsMediaType = (typeof TTS_MEDIA_TYPES)[number];

/** Content-Type of each audio format the synthesizer returns. */
export const TTS_CONTENT_TYPES: Record<TtsMediaType, string> = {
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
};

/** Longest text spoken at once: about a minute of speech, answered while the user waits. */
export const MAX_SYNTHESIZE_TEXT_LENGTH = 1000;
/** Longest text of a queued synthesis: about five minutes of speech. */
export const MAX_SYNTHESIS_REQUEST_TEXT_LENGTH = 5000;

export const VOICE_GENDERS = ['female', 'male'] as const;

export const VoiceSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    /** BCP 47 tag, e.g. en-US. */
    locale: z.string(),
    gender: z.enum(VOICE_GENDERS),
  })
  .meta({ id: 'Voice' });
export type Voice = z.infer<typeof VoiceSchema>;

export const ListVoicesResponseSchema = z.object({ voices: z.array(VoiceSchema) });
export type ListVoicesResponse = z.infer<typeof ListVoicesResponseSchema>;

const synthesisFields = (maxLength: number) => ({
  text: z
    .string()
    .trim()
    .min(1, 'text should not be empty')
    .max(maxLength, `text must be at most ${maxLength} characters`),
  voice_id: z.string().min(1, 'voice_id should not be empty').max(64),
  media_type: z.enum(TTS_MEDIA_TYPES).default('mp3'),
});

export const SynthesizeRequestSchema = z
  .object(synthesisFields(MAX_SYNTHESIZE_TEXT_LENGTH))
  .strict()
  .meta({ id: 'SynthesizeRequest' });
export type SynthesizeRequest = z.input<typeof SynthesizeRequestSchema>;

export const SynthesisRequestSchema = z
  .object(synthesisFields(MAX_SYNTHESIS_REQUEST_TEXT_LENGTH))
  .strict()
  .meta({ id: 'SynthesisRequest' });
export type SynthesisRequest = z.input<typeof SynthesisRequestSchema>;

export const SynthesisRequestCreatedSchema = z.object({ id: z.string() });

export const SYNTHESIS_STATUSES = ['pending', 'ready', 'failed'] as const;
export type SynthesisStatus = (typeof SYNTHESIS_STATUSES)[number];

/** Answer while a queued synthesis is not ready yet. */
export const SynthesisPendingSchema = z.object({ id: z.string(), status: z.literal('pending') });

export const SynthesisRequestParamsSchema = z.object({ id: z.string().min(1).max(64) }).strict();
