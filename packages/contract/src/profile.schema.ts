import { z } from 'zod';
import { CountryCodeSchema, LanguageTagSchema, PhoneSchema, RegionCodeSchema } from './common.schema.js';

export const GENDERS = ['female', 'male', 'non_binary', 'other', 'prefer_not_to_say'] as const;
export const DIAGNOSES = [
  'stroke',
  'cerebral_palsy',
  'als',
  'parkinsons',
  'multiple_sclerosis',
  'traumatic_brain_injury',
  'down_syndrome',
  'hearing_loss',
  'other',
  'prefer_not_to_say',
] as const;
export const SPEECH_LEVELS = ['mild', 'moderate', 'severe', 'profound', 'unsure'] as const;
export const PROFILE_ROLES = ['end_user', 'support_person', 'clinician'] as const;

const profileFields = {
  name: z.string().trim().min(1, 'name is required').max(100),
  gender: z.enum(GENDERS).nullable(),
  country: CountryCodeSchema.nullable(),
  diagnosis: z.enum(DIAGNOSES).nullable(),
  speechLevel: z.enum(SPEECH_LEVELS).nullable(),
  nativeLanguage: LanguageTagSchema.nullable(),
  phone: PhoneSchema.nullable(),
  region_code: RegionCodeSchema.nullable(),
  role: z.enum(PROFILE_ROLES).nullable(),
  referral_source: z.string().trim().max(200).nullable(),
};

export const ProfileSchema = z.object(profileFields).meta({ id: 'Profile' });
export type Profile = z.infer<typeof ProfileSchema>;
export const PROFILE_FIELDS = Object.keys(profileFields) as (keyof Profile)[];

/**
 * The fields without which the app cannot serve the user: how to address them, where
 * they live (consent rules, legal restrictions) and which language to recognise.
 */
export const MANDATORY_PROFILE_FIELDS = [
  'name',
  'country',
  'nativeLanguage',
] as const satisfies (keyof Profile)[];

export const UpdateProfileRequestSchema = ProfileSchema.partial()
  .strict()
  .refine((value) => Object.keys(value).length > 0, 'Send at least one profile field')
  .meta({ id: 'UpdateProfileRequest' });
export type UpdateProfileRequest = z.input<typeof UpdateProfileRequestSchema>;

export const ProfileStatusSchema = z
  .object({ is_created: z.boolean(), is_mandatory_filled: z.boolean() })
  .meta({ id: 'ProfileStatus' });
export type ProfileStatus = z.infer<typeof ProfileStatusSchema>;
