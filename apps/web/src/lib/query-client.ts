import { QueryClient } from '@tanstack/react-query';
import { ApiError, NetworkError } from './api-error';

/** Server data cache: no retry of client errors, a few of server errors. */
export const queryClient = new QueryClient({
  defaultOptions: {
    // Requests go out even when the browser says offline: a call without a response is
    // what sends the user to /no_internet, and the API client decides that, not a pause.
    queries: {
      networkMode: 'always',
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      retry: (failureCount, error) => {
        if (error instanceof NetworkError) return false;
        if (error instanceof ApiError && error.status < 500) return false;
        return failureCount < 2;
      },
    },
    mutations: { retry: false, networkMode: 'always' },
  },
});
