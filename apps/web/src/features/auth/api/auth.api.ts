import {
  hashPasswordForTransport,
  type SessionResponse,
  type SignUpRequest,
  type User,
} from '@parla/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { appConfig, extraAppInfo } from '../../../config/app-config';
import { api } from '../../../lib/api';
import { userQueryKey } from '../../../lib/session';

const credentials = () => ({ app_id: appConfig.appId, api_key: appConfig.apiKey, extra: extraAppInfo() });

/** POST /login with the password hashed on the client. */
export async function login(input: { email: string; password: string }) {
  const password = await hashPasswordForTransport(input.password);
  return api.post<SessionResponse>(
    '/login',
    { email: input.email, password, ...credentials() },
    { auth: false },
  );
}

/** POST /user: the sign-up, with the clear password replaced by its transport hash. */
export async function signUp(input: Omit<SignUpRequest, 'password'> & { password: string }) {
  const password = await hashPasswordForTransport(input.password);
  return api.post<SessionResponse>(
    '/user',
    { ...input, password, app_id: appConfig.appId, api_key: appConfig.apiKey },
    { auth: false },
  );
}

export function forgotPassword(email: string) {
  return api.post('/forgotPassword', { email }, { auth: false });
}

export function validateResetCode(email: string, code: string) {
  return api.post<{ update_token: string }>('/validateResetCode', { email, code }, { auth: false });
}

export async function resetPassword(input: { email: string; updateToken: string; password: string }) {
  const password = await hashPasswordForTransport(input.password);
  return api.post<SessionResponse>(
    '/resetPassword',
    { update_token: input.updateToken, email: input.email, password, ...credentials() },
    { auth: false },
  );
}

export const userQueryOptions = () =>
  queryOptions({ queryKey: userQueryKey, queryFn: () => api.get<User>('/app/user') });

/** The signed-in user. */
export function useUser() {
  return useQuery(userQueryOptions());
}
