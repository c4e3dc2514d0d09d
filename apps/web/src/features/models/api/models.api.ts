import type { ModelInfo } from '@parla/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { ApiError } from '../../../lib/api-error';

export const modelsQueryKey = ['models'] as const;

export type { ModelInfo };

/**
 * GET /app/modelsInfo. Until the training service answers it, a 404 means no model
 * has been built yet.
 */
export async function fetchModels(): Promise<ModelInfo[]> {
  try {
    const body = await api.get<{ models?: ModelInfo[] }>('/app/modelsInfo');
    return Array.isArray(body.models) ? body.models : [];
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return [];
    throw error;
  }
}

export const modelsQueryOptions = () => queryOptions({ queryKey: modelsQueryKey, queryFn: fetchModels });

export type RecordingState = 'no_records' | 'record_in_progress' | 'waiting_for_model' | 'model_built';

/** GET /app/modelsInfo whole: the models and the recording state of spec section 4. */
export const modelsInfoQueryOptions = () =>
  queryOptions({
    queryKey: [...modelsQueryKey, 'info'],
    queryFn: () => api.get<{ models: ModelInfo[]; recording_state: RecordingState }>('/app/modelsInfo'),
  });
