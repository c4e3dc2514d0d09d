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
