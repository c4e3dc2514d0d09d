import { zodResolver } from '@hookform/resolvers/zod';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { DIAGNOSES, GENDERS, PROFILE_ROLES, SPEECH_LEVELS, type Profile } from '@parla/contract';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { CountrySelect } from '../../../components/form/country-select';
import { fieldProps } from '../../../components/form/register-field';
import { languageOptions } from '../profile-options';

const optionalText = (max: number) => z.string().trim().max(max);

const ProfileFormSchema = z.object({
  name: z.string().trim().min(1, 'Enter your name').max(100),
  country: z.string().regex(/^[A-Z]{2}$/, 'Choose your country'),
  region_code: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^([A-Z0-9]{1,3})?$/, 'Use the short code of your state or province, such as NY'),
  nativeLanguage: z.string().min(2, 'Choose the language you speak'),
  gender: z.string(),
  diagnosis: z.string(),
  speechLevel: z.string(),
  role: z.string(),
  phone: z
    .string()
    .trim()
    .regex(/^(\+?[0-9 ()-]{6,20})?$/, 'Enter a phone number such as +1 555 123 4567'),
  referral_source: optionalText(200),
});
type ProfileFormValues = z.infer<typeof ProfileFormSchema>;

const orNull = (value: string) => (value === '' ? null : value);

/** The profile as the server takes it: empty choices become null. */
function toProfileUpdate(values: ProfileFormValues): Record<string, unknown> {
  return {
    name: values.name,
    country: values.country,
    region_code: orNull(values.region_code),
    nativeLanguage: values.nativeLanguage,
    gender: orNull(values.gender),
    diagnosis: orNull(values.diagnosis),
    speechLevel: orNull(values.speechLevel),
    role: orNull(values.role),
    phone: orNull(values.phone),
    referral_source: orNull(values.referral_source),
  };
}

interface ProfileFormProps {
  initial: Partial<Profile> | undefined;
  submitLabel: string;
  onSubmit: (update: Record<string, unknown>) => Promise<void>;
}

/** Profile fields: the mandatory ones first (name, country, native language), then the optional ones. */
export function ProfileForm({ initial, submitLabel, onSubmit }: ProfileFormProps) {
  const { t, i18n } = useTranslation();
  const languages = useMemo(() => languageOptions(i18n.language), [i18n.language]);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ProfileFormValues>({
    resolver: zodResolver(ProfileFormSchema),
    defaultValues: {
      name: initial?.name ?? '',
      country: initial?.country ?? '',
      region_code: initial?.region_code ?? '',
      nativeLanguage: initial?.nativeLanguage ?? '',
      gender: initial?.gender ?? '',
      diagnosis: initial?.diagnosis ?? '',
      speechLevel: initial?.speechLevel ?? '',
      role: initial?.role ?? '',
      phone: initial?.phone ?? '',
      referral_source: initial?.referral_source ?? '',
    },
  });
  const native = { slotProps: { select: { native: true }, inputLabel: { shrink: true } } } as const;

  return (
    <Stack
      component="form"
      spacing={2.5}
      noValidate
      onSubmit={(event) => void handleSubmit((values) => onSubmit(toProfileUpdate(values)))(event)}
    >
      <TextField
        label={t('profile.name')}
        required
        autoComplete="name"
        {...fieldProps(register, errors, 'name')}
      />
      <CountrySelect {...fieldProps(register, errors, 'country')} />
      <TextField
        label={t('profile.regionCode')}
        autoComplete="address-level1"
        {...fieldProps(register, errors, 'region_code', t('profile.regionCodeHelp'))}
      />
      <TextField
        select
        label={t('profile.nativeLanguage')}
        required
        {...native}
        {...fieldProps(register, errors, 'nativeLanguage')}
      >
        <option value="">{t('common.choose')}</option>
        {languages.map((language) => (
          <option key={language.tag} value={language.tag}>
            {language.name}
          </option>
        ))}
      </TextField>
      <TextField
        select
        label={t('profile.diagnosis')}
        {...native}
        {...fieldProps(register, errors, 'diagnosis')}
      >
        <option value="">{t('common.notSet')}</option>
        {DIAGNOSES.map((value) => (
          <option key={value} value={value}>
            {t(`profile.diagnoses.${value}`)}
          </option>
        ))}
      </TextField>
      <TextField
        select
        label={t('profile.speechLevel')}
        {...native}
        {...fieldProps(register, errors, 'speechLevel')}
      >
        <option value="">{t('common.notSet')}</option>
        {SPEECH_LEVELS.map((value) => (
          <option key={value} value={value}>
            {t(`profile.speechLevels.${value}`)}
          </option>
        ))}
      </TextField>
      <TextField select label={t('profile.gender')} {...native} {...fieldProps(register, errors, 'gender')}>
        <option value="">{t('common.notSet')}</option>
        {GENDERS.map((value) => (
          <option key={value} value={value}>
            {t(`profile.genders.${value}`)}
          </option>
        ))}
      </TextField>
      <TextField select label={t('profile.role')} {...native} {...fieldProps(register, errors, 'role')}>
        <option value="">{t('common.notSet')}</option>
        {PROFILE_ROLES.map((value) => (
          <option key={value} value={value}>
            {t(`profile.roles.${value}`)}
          </option>
        ))}
      </TextField>
      <TextField
        label={t('profile.phone')}
        type="tel"
        autoComplete="tel"
        {...fieldProps(register, errors, 'phone')}
      />
      <TextField label={t('profile.referralSource')} {...fieldProps(register, errors, 'referral_source')} />
      <Button type="submit" variant="contained" size="large" disabled={isSubmitting}>
        {submitLabel}
      </Button>
    </Stack>
  );
}
