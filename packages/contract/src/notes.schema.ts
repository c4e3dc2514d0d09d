import { z } from 'zod';
import { NOTES_PAGE_SIZE } from './constants.js';

/** Longest note: a long letter. */
export const MAX_NOTE_LENGTH = 100_000;

export const DictationNoteSchema = z
  .object({ id: z.string(), text: z.string(), created_at: z.string(), updated_at: z.string() })
  .meta({ id: 'DictationNote' });
export type DictationNote = z.infer<typeof DictationNoteSchema>;

export const NotesQuerySchema = z
  .object({
    page: z.coerce.number().int().min(1).default(1),
    perPage: z.coerce.number().int().min(1).max(100).default(NOTES_PAGE_SIZE),
  })
  .strict();
export const NotesPageSchema = z.object({
  notes: z.array(DictationNoteSchema),
  page: z.number().int(),
  perPage: z.number().int(),
  total: z.number().int(),
});
export const NoteBodySchema = z
  .object({ text: z.string().max(MAX_NOTE_LENGTH, `text must be at most ${MAX_NOTE_LENGTH} characters`) })
  .strict();
export const NoteParamsSchema = z.object({ id: z.string().min(1).max(64) }).strict();
