import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { ApiError } from '../../../lib/api-error';

/** Model info of spec section 3; only the type matters to the shell. */
export interface ModelInfo {
  version: string;
  type: string;
  provider?: string;
}

export const modelsQueryKey = ['models'] as const;

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
