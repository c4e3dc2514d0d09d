import {
  AddCustomPhraseRequestSchema,
  AddDatasetPhraseRequestSchema,
  DatasetQuerySchema,
  DatasetResponseSchema,
  DeletePhraseRequestSchema,
  EditPhraseRequestSchema,
  ErrorResponseSchema,
  OkResponseSchema,
  PhraseParamsSchema,
  PhraseSchema,
  PhrasesQuerySchema,
  PhrasesResponseSchema,
  PronunciationsResponseSchema,
  ProviderQuerySchema,
  ScenarioParamsSchema,
  ScenarioStatsResponseSchema,
  ScenariosResponseSchema,
  ShortcutPhraseInputSchema,
  ShortcutPhraseSchema,
  ShortcutPhrasesResponseSchema,
} from '@parla/contract';
import type { Services } from '../services/services.js';
import { bearer, privateErrors, type ZodApp } from './route-helpers.js';

const security = bearer;
const withConflict = { ...privateErrors, 409: ErrorResponseSchema.describe('Already exists') };

/** Scenarios and the user's phrases (dataset, custom, edited, static). */
export function registerPhraseRoutes(app: ZodApp, { phrases, voiceProfile }: Services) {
  const tags = ['Phrases'];

  app.get(
    '/app/scenarios',
    { schema: { tags, security, response: { 200: ScenariosResponseSchema, ...privateErrors } } },
    async (request) => ({ availableScenarios: await phrases.scenarios(request.auth.userId) }),
  );

  app.put(
    '/app/scenarios/activate/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Make a scenario the active one; adds its core phrases',
        params: ScenarioParamsSchema,
        response: { 200: ScenariosResponseSchema, ...privateErrors },
      },
    },
    async (request) => ({
      availableScenarios: await phrases.activate(request.auth.userId, request.params.id),
    }),
  );

  app.get(
    '/app/casr/scenarios_stats',
    {
      schema: {
        tags,
        security,
        summary: 'Per scenario: phrases, phrases with takes, takes',
        querystring: ProviderQuerySchema,
        response: { 200: ScenarioStatsResponseSchema, ...privateErrors },
      },
    },
    async (request) => ({ scenarios: await phrases.stats(request.auth.userId) }),
  );

  app.get(
    '/app/casr/scenario_train_set/:id/dataset',
    {
      schema: {
        tags,
        security,
        summary: 'The catalogue of a scenario, marking what the user has added',
        params: ScenarioParamsSchema,
        querystring: DatasetQuerySchema,
        response: { 200: DatasetResponseSchema, ...privateErrors },
      },
    },
    async (request) => ({
      phrases: await phrases.dataset(request.auth.userId, request.params.id, request.query.limit),
    }),
  );

  app.get(
    '/app/casr/scenario_train_set/:id/custom',
    {
      schema: {
        tags,
        security,
        summary: "The user's own phrases in a scenario",
        params: ScenarioParamsSchema,
        response: { 200: PhrasesResponseSchema, ...privateErrors },
      },
    },
    async (request) => ({
      phrases: await phrases.list(request.auth.userId, {
        scenarioId: request.params.id,
        sources: ['custom', 'edited'],
      }),
    }),
  );

  app.get(
    '/app/casr/phrases',
    {
      schema: {
        tags,
        security,
        summary: "The user's phrases, by scenario and source",
        querystring: PhrasesQuerySchema,
        response: { 200: PhrasesResponseSchema, ...privateErrors },
      },
    },
    async (request) => ({
      phrases: await phrases.list(request.auth.userId, {
        scenarioId: request.query.scenario_id,
        sources: request.query.sources,
      }),
    }),
  );

  app.get(
    '/app/casr/pronunciations',
    {
      schema: {
        tags,
        security,
        summary: "How the generic recogniser says the words of the user's phrases",
        description:
          "From the generic recogniser's dictionary; the browser's local mode teaches its engine these instead of reading the whole dictionary.",
        response: { 200: PronunciationsResponseSchema, ...privateErrors },
      },
    },
    async (request) => ({ pronunciations: await phrases.pronunciations(request.auth.userId) }),
  );

  app.post(
    '/app/casr/datasetPhrase',
    {
      schema: {
        tags,
        security,
        summary: 'Add a catalogue phrase to the user’s phrases (no-op when already there)',
        body: AddDatasetPhraseRequestSchema,
        response: { 200: PhraseSchema, ...privateErrors },
      },
    },
    (request) => phrases.addDatasetPhrase(request.auth.userId, request.body.id, request.body.scenario_id),
  );

  app.post(
    '/app/casr/customPhrase',
    {
      schema: {
        tags,
        security,
        summary: 'Add a phrase of the user’s own',
        body: AddCustomPhraseRequestSchema,
        response: { 201: PhraseSchema, ...withConflict },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await phrases.addCustomPhrase(request.auth.userId, request.body)),
  );

  app.get(
    '/app/casr/phrase/:id',
    {
      schema: {
        tags,
        security,
        params: PhraseParamsSchema,
        response: { 200: PhraseSchema, ...privateErrors },
      },
    },
    (request) => phrases.get(request.auth.userId, request.params.id),
  );

  app.put(
    '/app/casr/editPhrase',
    {
      schema: {
        tags,
        security,
        summary: 'Change the words of a phrase (its source becomes edited)',
        body: EditPhraseRequestSchema,
        response: { 200: PhraseSchema, ...withConflict },
      },
    },
    async (request) => {
      const phrase = await phrases.edit(request.auth.userId, request.body.phrase_id, request.body.text);
      await voiceProfile.phraseChanged(request.auth.userId, phrase.takes);
      return phrase;
    },
  );

  app.post(
    '/app/casr/deletePhrase',
    {
      schema: {
        tags,
        security,
        summary: 'Delete a phrase and its takes',
        body: DeletePhraseRequestSchema,
        response: { 200: OkResponseSchema, ...privateErrors },
      },
    },
    async (request) => {
      const { userId } = request.auth;
      const phraseId = request.body.phrase_id;
      await voiceProfile.deletePhrase(userId, phraseId, () => phrases.delete(userId, phraseId));
      return { ok: true as const };
    },
  );
}

/** Shortcut phrases: a short input said, a long output written or spoken. */
export function registerShortcutRoutes(app: ZodApp, { phrases }: Services) {
  const tags = ['Shortcut phrases'];

  app.get(
    '/app/casr/shortcut_phrases',
    { schema: { tags, security, response: { 200: ShortcutPhrasesResponseSchema, ...privateErrors } } },
    async (request) => ({ shortcut_phrases: await phrases.shortcutList(request.auth.userId) }),
  );

  app.post(
    '/app/casr/shortcut_phrases',
    {
      schema: {
        tags,
        security,
        summary: 'Add a shortcut; its input must be new (case-insensitively)',
        body: ShortcutPhraseInputSchema,
        response: { 201: ShortcutPhraseSchema, ...withConflict },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await phrases.addShortcut(request.auth.userId, request.body)),
  );

  app.get(
    '/app/casr/shortcut_phrases/:id',
    {
      schema: {
        tags,
        security,
        params: PhraseParamsSchema,
        response: { 200: ShortcutPhraseSchema, ...privateErrors },
      },
    },
    (request) => phrases.shortcut(request.auth.userId, request.params.id),
  );

  app.put(
    '/app/casr/shortcut_phrases/:id',
    {
      schema: {
        tags,
        security,
        params: PhraseParamsSchema,
        body: ShortcutPhraseInputSchema,
        response: { 200: ShortcutPhraseSchema, ...withConflict },
      },
    },
    (request) => phrases.editShortcut(request.auth.userId, request.params.id, request.body),
  );

  app.delete(
    '/app/casr/shortcut_phrases/:id',
    {
      schema: {
        tags,
        security,
        params: PhraseParamsSchema,
        response: { 200: OkResponseSchema, ...privateErrors },
      },
    },
    async (request) => {
      await phrases.deleteShortcut(request.auth.userId, request.params.id);
      return { ok: true as const };
    },
  );
}
