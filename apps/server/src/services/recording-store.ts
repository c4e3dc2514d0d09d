import { conflict, type AppError } from '../errors.js';
import type { RecordingsRepository } from '../repositories/recordings.repository.js';
import type { BlobStorage } from '../storage/blob-storage.js';

type NewRecording = Parameters<RecordingsRepository['insert']>[0];
type Recording = NonNullable<Awaited<ReturnType<RecordingsRepository['findByUploadKey']>>>;

/** What a recording made by an upload must be for a retry of that upload to find it. */
interface UploadOf {
  kind: 'training' | 'recognition';
  /** The phrase a take was uploaded for; null for a take of none of the user's phrases. */
  phraseId?: string | null;
  /** The refusal of a key used for something else. */
  otherwise?: () => AppError;
}

const keyReused = () =>
  conflict('This upload key was already used for another recording', 'UPLOAD_KEY_REUSED');

/**
 * The recording an earlier try of this upload made, if one did: a retry whose first try
 * reached the server but whose answer was lost. A key used for something else is refused,
 * so that a client's mistake never answers for another recording.
 */
export async function earlierUpload(
  recordings: RecordingsRepository,
  userId: string,
  uploadKey: string | null | undefined,
  expected: UploadOf,
): Promise<Recording | undefined> {
  if (!uploadKey) return undefined;
  const earlier = await recordings.findByUploadKey(userId, uploadKey);
  if (earlier === undefined) return undefined;
  const same =
    earlier.kind === expected.kind &&
    (expected.phraseId === undefined || earlier.phrase_id === expected.phraseId);
  if (!same) throw (expected.otherwise ?? keyReused)();
  return earlier;
}

/**
 * Stores a recording's audio and its row. When two tries of one upload arrive at once, the
 * second finds the key taken: its audio is removed again and the first try's recording is
 * answered instead (`earlier`), so the upload is kept once.
 */
export async function storeRecording(
  storage: BlobStorage,
  recordings: RecordingsRepository,
  row: NewRecording,
  wav: Uint8Array,
  expected: UploadOf,
): Promise<{ earlier?: Recording }> {
  await storage.put(row.storage_key, wav);
  if (await recordings.insert(row)) return {};
  await storage.delete(row.storage_key);
  const earlier = await earlierUpload(recordings, row.user_id, row.upload_key, expected);
  // Only a key can clash, and a clashing key's row exists: this cannot be undefined.
  if (earlier === undefined) throw new Error(`Recording ${row.id} was not inserted`);
  return { earlier };
}
