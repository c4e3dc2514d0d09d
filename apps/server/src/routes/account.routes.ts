import {
  CompleteTaskRequestSchema,
  ProfileSchema,
  ProfileStatusSchema,
  TasksResponseSchema,
  UpdateConsentsRequestSchema,
  UpdateConsentsResponseSchema,
  UpdateProfileRequestSchema,
  UpdateUserSettingsRequestSchema,
  UserSchema,
  UserSettingsSchema,
} from '@parla/contract';
import type { Services } from '../services/services.js';
import { bearer, privateErrors, type ZodApp } from './route-helpers.js';

/** The signed-in user's own account: user, profile, settings, tasks and consents. */
export function registerAccountRoutes(app: ZodApp, { account }: Services) {
  const security = bearer;

  app.get(
    '/app/user',
    {
      schema: {
        tags: ['Account'],
        security,
        summary: 'The signed-in user',
        response: { 200: UserSchema, ...privateErrors },
      },
    },
    (request) => account.me(request.auth.userId),
  );

  app.get(
    '/app/profile',
    { schema: { tags: ['Profile'], security, response: { 200: ProfileSchema, ...privateErrors } } },
    (request) => account.profile(request.auth.userId),
  );

  app.post(
    '/app/profile',
    {
      schema: {
        tags: ['Profile'],
        security,
        summary: 'Create the profile or change some of its fields',
        body: UpdateProfileRequestSchema,
        response: { 200: ProfileSchema, ...privateErrors },
      },
    },
    (request) => account.updateProfile(request.auth.userId, request.body),
  );

  app.get(
    '/app/profile/status',
    {
      schema: {
        tags: ['Profile'],
        security,
        summary: 'Whether the profile exists and has its mandatory fields (name, country, nativeLanguage)',
        response: { 200: ProfileStatusSchema, ...privateErrors },
      },
    },
    (request) => account.profileStatus(request.auth.userId),
  );

  app.get(
    '/app/getUserSettings',
    { schema: { tags: ['Settings'], security, response: { 200: UserSettingsSchema, ...privateErrors } } },
    (request) => account.settings(request.auth.userId),
  );

  app.post(
    '/app/updateUserSettings',
    {
      schema: {
        tags: ['Settings'],
        security,
        summary: 'Change some settings; returns all of them',
        body: UpdateUserSettingsRequestSchema,
        response: { 200: UserSettingsSchema, ...privateErrors },
      },
    },
    (request) => account.updateSettings(request.auth.userId, request.body),
  );

  app.get(
    '/app/tasks',
    { schema: { tags: ['Tasks'], security, response: { 200: TasksResponseSchema, ...privateErrors } } },
    async (request) => ({ tasks: await account.tasks(request.auth.userId) }),
  );

  app.post(
    '/app/complete_task',
    {
      schema: {
        tags: ['Tasks'],
        security,
        summary: 'Mark a pending task done; returns the tasks left',
        body: CompleteTaskRequestSchema,
        response: { 200: TasksResponseSchema, ...privateErrors },
      },
    },
    async (request) => ({ tasks: await account.completeTask(request.auth.userId, request.body.task) }),
  );

  app.post(
    '/app/update_consents',
    {
      schema: {
        tags: ['Consents'],
        security,
        summary: 'Record the cookie choice, or the acceptance of the terms and privacy policy',
        body: UpdateConsentsRequestSchema,
        response: { 200: UpdateConsentsResponseSchema, ...privateErrors },
      },
    },
    (request) => account.updateConsents(request.auth.userId, request.body),
  );
}
