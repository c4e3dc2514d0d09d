import { z } from 'zod';
import { DATASET_PHRASE_LIMIT } from './constants.js';
import { LanguageTagSchema } from './common.schema.js';

export const PHRASE_SOURCES = ['static', 'dataset', 'edited', 'custom'] as const;
export type PhraseSource = (typeof PHRASE_SOURCES)[number];

/** Longest phrase text: 8 s of speech at the spec's 0.04 s per character, with room. */
export const MAX_PHRASE_LENGTH = 200;
const PhraseTextSchema = z
  .string()
  .trim()
  .min(1, 'text should not be empty')
  .max(MAX_PHRASE_LENGTH, `text must be at most ${MAX_PHRASE_LENGTH} characters`);
const IdSchema = z.string().min(1).max(64);

export const PhraseSchema = z
  .object({
    id: z.string(),
    text: z.string(),
    language: z.string(),
    scenario_id: z.string(),
    source: z.enum(PHRASE_SOURCES),
    /** Stored training takes of this phrase. */
    takes: z.number().int(),
    /**
     * Takes whose audio could no longer be read when the profile was last trained: not in
     * `takes`, so the phrase asks for them again, and the app says why.
     */
    lost_takes: z.number().int(),
  })
  .meta({ id: 'Phrase' });
export type Phrase = z.infer<typeof PhraseSchema>;

export const PhrasesResponseSchema = z.object({ phrases: z.array(PhraseSchema) });

/**
 * How the generic recogniser says one word, as its dictionary writes it: the word (`read`, or
 * `read(2)` for another way to say it) and its phones.
 */
export const PronunciationSchema = z.tuple([
  z.string().regex(/^\S+$/),
  z.string().regex(/^[A-Z]+( [A-Z]+)*$/),
]);

/** The pronunciations of the words of all of the user's phrases (words it has none of are left out). */
export const PronunciationsResponseSchema = z.object({ pronunciations: z.array(PronunciationSchema) });

export const PhrasesQuerySchema = z
  .object({
    provider: z.string().max(32).optional(),
    scenario_id: IdSchema.optional(),
    /** Comma-separated sources, e.g. dataset,custom. */
    sources: z
      .string()
      .max(64)
      .optional()
      .transform((value) => (value ? value.split(',').map((item) => item.trim()) : undefined))
      .pipe(z.array(z.enum(PHRASE_SOURCES)).optional()),
  })
  .strict();

export const ScenarioSchema = z
  .object({
    scenario_id: z.string(),
    name: z.string(),
    description: z.string(),
    isActive: z.boolean(),
    /** Phrases the catalogue offers for this scenario. */
    dataset_size: z.number().int(),
  })
  .meta({ id: 'Scenario' });
export type Scenario = z.infer<typeof ScenarioSchema>;

export const ScenariosResponseSchema = z.object({ availableScenarios: z.array(ScenarioSchema) });
export const ScenarioParamsSchema = z.object({ id: IdSchema }).strict();

export const ScenarioStatsSchema = z
  .object({
    scenario_id: z.string(),
    phrases: z.number().int(),
    recorded_phrases: z.number().int(),
    takes: z.number().int(),
  })
  .meta({ id: 'ScenarioStats' });
export const ScenarioStatsResponseSchema = z.object({ scenarios: z.array(ScenarioStatsSchema) });
export const ProviderQuerySchema = z.object({ provider: z.string().max(32).optional() }).strict();

export const DatasetPhraseSchema = z.object({
  id: z.string(),
  text: z.string(),
  language: z.string(),
  scenario_id: z.string(),
  /** Already in the user's phrases. */
  added: z.boolean(),
});
export const DatasetResponseSchema = z.object({ phrases: z.array(DatasetPhraseSchema) });
export const DatasetQuerySchema = z
  .object({ limit: z.coerce.number().int().min(1).max(500).default(DATASET_PHRASE_LIMIT) })
  .strict();

export const AddDatasetPhraseRequestSchema = z.object({ id: IdSchema, scenario_id: IdSchema }).strict();
export const AddCustomPhraseRequestSchema = z
  .object({ text: PhraseTextSchema, language: LanguageTagSchema.default('en-US'), scenario_id: IdSchema })
  .strict();
export const PhraseParamsSchema = z.object({ id: IdSchema }).strict();
export const DeletePhraseRequestSchema = z.object({ phrase_id: IdSchema }).strict();
export const EditPhraseRequestSchema = z.object({ phrase_id: IdSchema, text: PhraseTextSchema }).strict();

export const SHORTCUT_CONFLICT_MESSAGE = 'Shortcut with this input already exists';
export const ShortcutPhraseSchema = z
  .object({ id: z.string(), input: z.string(), output: z.string() })
  .meta({ id: 'ShortcutPhrase' });
export type ShortcutPhrase = z.infer<typeof ShortcutPhraseSchema>;
export const ShortcutPhraseInputSchema = z
  .object({
    input: z
      .string()
      .trim()
      .min(1, 'input should not be empty')
      .max(100, 'input must be at most 100 characters'),
    output: z
      .string()
      .trim()
      .min(1, 'output should not be empty')
      .max(2000, 'output must be at most 2000 characters'),
  })
  .strict();
export const ShortcutPhrasesResponseSchema = z.object({ shortcut_phrases: z.array(ShortcutPhraseSchema) });

/** Recording state of spec section 4, with its numbers. */
export const RECORDING_STATES = {
  no_records: 1,
  record_in_progress: 2,
  waiting_for_model: 3,
  model_built: 4,
} as const;
export type RecordingState = keyof typeof RECORDING_STATES;

export const ModelInfoSchema = z
  .object({
    version: z.number().int(),
    type: z.string(),
    provider: z.string(),
    links: z.record(z.string(), z.string()),
    modelmeta: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'ModelInfo' });
export type ModelInfo = z.infer<typeof ModelInfoSchema>;
export const ModelsInfoResponseSchema = z.object({
  models: z.array(ModelInfoSchema),
  recording_state: z.enum(['no_records', 'record_in_progress', 'waiting_for_model', 'model_built']),
});
export const ModelLinksResponseSchema = z.object({
  version: z.number().int().nullable(),
  links: z.array(
    z.object({ name: z.string(), type: z.string(), url: z.string(), size_bytes: z.number().int() }),
  ),
});
export const ModelFileParamsSchema = z
  .object({ id: z.string().min(1).max(64), version: z.string().regex(/^v\d+$/) })
  .strict();

/**
 * Parla's own: a key the client makes once per recording and sends with every try of its
 * upload, so that a retry whose first try was kept (its answer lost on the way) is kept once.
 */
const UploadKeySchema = z.uuid();

export const UploadInfoSchema = z
  .object({
    file_ext: z.enum(['wav']).default('wav'),
    duration: z.number().min(0).max(60).optional(),
    app_build: z.string().max(32).optional(),
    app_id: z.string().max(64).optional(),
    language: z.string().max(16).optional(),
    scenario_id: z.string().max(64).optional(),
    recording_date: z.string().max(40).optional(),
    upload_key: UploadKeySchema.optional(),
  })
  .strict();
export const TrainingUploadResponseSchema = z.object({
  id: z.string(),
  phrase_id: z.string(),
  duration_ms: z.number().int(),
  takes: z.number().int(),
});

/** Recognition upload info of spec section 3: what the browser recognised locally. */
export const RecognitionUploadInfoSchema = z
  .object({
    file_ext: z.enum(['wav']).default('wav'),
    result: z
      .object({
        text: z.string().max(2000).nullable(),
        type: z.string().max(32).optional(),
        recording_date: z.string().max(40).optional(),
        duration: z.number().min(0).max(60).optional(),
        provider_id: z.string().max(64).optional(),
        domain_id: z.string().max(64).optional(),
        scenario_id: z.string().max(64).optional(),
        app_id: z.string().max(64).optional(),
        app_build: z.string().max(32).optional(),
        language: z.string().max(16).optional(),
        metadata: z.record(z.string().max(64), z.unknown()).optional(),
        acoustic_model_id: z.union([z.string().max(64), z.number()]).optional(),
        recognition_mode: z.string().max(32).optional(),
        confidence: z.number().min(0).max(1).optional(),
        confidence_threshold: z.number().min(0).max(1).optional(),
        score: z.number().optional(),
        language_model_id: z.union([z.string().max(64), z.number()]).optional(),
        casr_version: z.string().max(32).optional(),
        /** Parla's own: the generic recogniser answered, for a phrase not recorded yet. */
        generic: z.boolean().optional(),
        /** Parla's own: the profile's answer, under its threshold, seconded by the generic recogniser. */
        seconded: z.boolean().optional(),
        /** Parla's own: the profile's answer, in doubt, withdrawn where the generic recogniser did not name it. */
        doubted: z.boolean().optional(),
      })
      .strict(),
    upload_key: UploadKeySchema.optional(),
  })
  .strict();
export const RecognitionUploadResponseSchema = z.object({ id: z.string().nullable(), stored: z.boolean() });

/**
 * What the person meant by a recognised utterance: the recognised text when it was right,
 * or the phrase they pick instead. The utterance then trains their profile.
 */
export const RecordingParamsSchema = z.object({ id: IdSchema }).strict();

export const ConfirmRecognitionRequestSchema = z
  .object({ text: z.string().trim().min(1, 'text should not be empty').max(200) })
  .strict();
export type ConfirmRecognitionRequest = z.infer<typeof ConfirmRecognitionRequestSchema>;

export const ConfirmRecognitionResponseSchema = z.object({
  take_id: z.string(),
  phrase_id: z.string(),
  /** Whether enough confirmed utterances are waiting for the profile to be retrained now. */
  retrain_scheduled: z.boolean(),
});
export type ConfirmRecognitionResponse = z.infer<typeof ConfirmRecognitionResponseSchema>;

/** Nothing to say beyond the utterance the path names. */
export const MarkUnknownRequestSchema = z.object({}).strict();

export const MarkUnknownResponseSchema = z.object({
  take_id: z.string(),
  /** Whether enough confirmed or marked utterances are waiting for the profile to be retrained now. */
  retrain_scheduled: z.boolean(),
});
export type MarkUnknownResponse = z.infer<typeof MarkUnknownResponseSchema>;

export const IMPORT_SOURCES = ['manual', 'apple', 'relate'] as const;
export const ImportInfoSchema = z
  .object({
    source: z.enum(IMPORT_SOURCES).default('manual'),
    /** Scenario the new phrases join; the active one when absent. */
    scenario_id: z.string().max(64).optional(),
    /** Transcript of each uploaded audio file, by file name. */
    transcripts: z.record(z.string().max(255), z.string().max(MAX_PHRASE_LENGTH)).optional(),
  })
  .strict();
export const ImportReportSchema = z
  .object({
    imported: z.array(
      z.object({
        file: z.string(),
        text: z.string(),
        phrase_id: z.string(),
        // The recording holds little or none of the room around its words (a clip trimmed
        // in an editor): the phrase is understood far better live with a take of it
        // recorded in the app too.
        cut_close: z.boolean(),
      }),
    ),
    refused: z.array(
      z.object({
        file: z.string(),
        reason: z.string(),
        // ALREADY_IMPORTED: the file is among the person's takes already (imported before,
        // or twice in this import); nothing about it needs fixing.
        code: z.enum(['ALREADY_IMPORTED']).optional(),
      }),
    ),
  })
  .meta({ id: 'ImportReport' });
export type ImportReport = z.infer<typeof ImportReportSchema>;
