import { TASK_RECOGNITION_UNLOCKED } from '@parla/contract';
import { isModelBuilt } from '../../lib/redirects';
import type { ModelInfo } from './api/models.api';

export type ProfileUpdatedState =
  | { open: true; reason: 'task' | 'version'; version: string | null }
  | { open: false; storeVersion: string | null };

/** The version of the user's built acoustic model, if any (the newest when several). */
export function acousticModelVersion(models: readonly Pick<ModelInfo, 'type' | 'version'>[]): string | null {
  const built = models.filter((model) => isModelBuilt([model]));
  if (built.length === 0) return null;
  return String(Math.max(...built.map((model) => model.version)));
}

/**
 * Whether the profile-updated dialog opens (spec section 4): for the unlock task, or
 * when the model version differs from the one this device saw. A first sighting only
 * stores the version.
 */
export function profileUpdatedState(input: {
  tasks: readonly string[];
  version: string | null;
  storedVersion: string | undefined;
}): ProfileUpdatedState {
  if (input.tasks.includes(TASK_RECOGNITION_UNLOCKED))
    return { open: true, reason: 'task', version: input.version };
  if (input.version === null) return { open: false, storeVersion: null };
  if (input.storedVersion === undefined) return { open: false, storeVersion: input.version };
  if (input.storedVersion !== input.version) return { open: true, reason: 'version', version: input.version };
  return { open: false, storeVersion: null };
}
