import {
  DictationNoteSchema,
  NoteBodySchema,
  NoteParamsSchema,
  NotesPageSchema,
  NotesQuerySchema,
  OkResponseSchema,
  type DictationNote,
} from '@parla/contract';
import { notFound } from '../errors.js';
import { newId } from '../lib/crypto.js';
import { NotesRepository } from '../repositories/notes.repository.js';
import type { Services } from '../services/services.js';
import { bearer, privateErrors, type ZodApp } from './route-helpers.js';

function presentNote(row: { id: string; text: string; created_at: Date; updated_at: Date }): DictationNote {
  return {
    id: row.id,
    text: row.text,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** Dictation notes: plain CRUD, so the routes talk to the repository directly. */
export function registerNoteRoutes(app: ZodApp, { db }: Services) {
  const notes = new NotesRepository(db);
  const tags = ['Dictation notes'];
  const security = bearer;

  app.get(
    '/app/dictation_notes',
    {
      schema: {
        tags,
        security,
        summary: 'Notes, most recently changed first, in pages (25 by default)',
        querystring: NotesQuerySchema,
        response: { 200: NotesPageSchema, ...privateErrors },
      },
    },
    async (request) => {
      const { page, perPage } = request.query;
      const { rows, total } = await notes.page(request.auth.userId, page, perPage);
      return { notes: rows.map(presentNote), page, perPage, total };
    },
  );

  app.post(
    '/app/dictation_notes',
    {
      schema: {
        tags,
        security,
        body: NoteBodySchema,
        response: { 201: DictationNoteSchema, ...privateErrors },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          presentNote(
            await notes.insert({ id: newId(), user_id: request.auth.userId, text: request.body.text }),
          ),
        ),
  );

  app.patch(
    '/app/dictation_notes/:id',
    {
      schema: {
        tags,
        security,
        params: NoteParamsSchema,
        body: NoteBodySchema,
        response: { 200: DictationNoteSchema, ...privateErrors },
      },
    },
    async (request) => {
      const row = await notes.update(request.auth.userId, request.params.id, request.body.text);
      if (!row) throw notFound('Note');
      return presentNote(row);
    },
  );

  app.delete(
    '/app/dictation_notes/:id',
    {
      schema: {
        tags,
        security,
        params: NoteParamsSchema,
        response: { 200: OkResponseSchema, ...privateErrors },
      },
    },
    async (request) => {
      if (!(await notes.delete(request.auth.userId, request.params.id))) throw notFound('Note');
      return { ok: true as const };
    },
  );
}
