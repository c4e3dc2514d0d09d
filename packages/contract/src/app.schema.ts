import { z } from 'zod';
import { MAX_LOG_ENTRIES, TASK_RECOGNITION_UNLOCKED } from './constants.js';

export const TasksResponseSchema = z.object({ tasks: z.array(z.string()) }).meta({ id: 'Tasks' });
export const KNOWN_TASKS = [TASK_RECOGNITION_UNLOCKED] as const;
export const CompleteTaskRequestSchema = z.object({ task: z.string().min(1).max(100) }).strict();

export const FeatureFlagsSchema = z
  .object({
    social_sign_in: z.boolean(),
    local_recognition: z.boolean(),
    chat_assistant: z.boolean(),
    meeting_captions: z.boolean(),
    imports: z.boolean(),
  })
  .meta({ id: 'FeatureFlags' });
export type FeatureFlags = z.infer<typeof FeatureFlagsSchema>;

export const TechPartnerSchema = z
  .object({
    id: z.string(),
    seller: z.string(),
    name: z.string(),
    url: z.string().nullable(),
    description: z.string().nullable(),
  })
  .meta({ id: 'TechPartner' });
export type TechPartner = z.infer<typeof TechPartnerSchema>;

export const SubscriptionInfoSchema = z
  .object({
    details: z.object({ seller: z.string(), plan: z.string(), status: z.enum(['active', 'locked']) }),
    is_locked: z.boolean(),
    preferred_tech_partner: z.string().nullable(),
    tech_partners: z.array(TechPartnerSchema),
  })
  .meta({ id: 'SubscriptionInfo' });
export type SubscriptionInfo = z.infer<typeof SubscriptionInfoSchema>;

export const TechPartnersResponseSchema = z.object({
  tech_partners: z.array(TechPartnerSchema),
  preferred_tech_partner: z.string().nullable(),
});

export const SUPPORT_TYPES = ['question', 'problem', 'feedback', 'account', 'other'] as const;
export const SupportRequestSchema = z
  .object({
    type: z.enum(SUPPORT_TYPES),
    text: z.string().trim().min(1, 'text should not be empty').max(5000),
    metadata: z.record(z.string().max(64), z.unknown()).optional(),
  })
  .strict();
export const CreatedResponseSchema = z.object({ id: z.string() });

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export const ClientLogEntrySchema = z
  .object({
    level: z.enum(LOG_LEVELS),
    message: z.string().max(2000),
    status: z.number().int().optional(),
    timestamp: z.iso.datetime({ offset: true }),
    context: z.record(z.string().max(64), z.unknown()).optional(),
  })
  .strict();
export const LogsBatchRequestSchema = z
  .object({ logs: z.array(ClientLogEntrySchema).min(1).max(MAX_LOG_ENTRIES) })
  .strict();
export const LogsBatchQuerySchema = z.object({ app_name: z.string().regex(/^[a-z0-9_]{1,32}$/) }).strict();
export const LogsBatchResponseSchema = z.object({ accepted: z.number().int() });

export const HealthResponseSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  database: z.enum(['up', 'down']),
  uptime_seconds: z.number(),
});
