import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  BirthdateSchema,
  NewPasswordSchema,
  PRIMARY_CONTACT_TYPES,
  consentRegionOf,
  isMinor,
  type SignUpRequest,
} from '@parla/contract';
import { useState } from 'react';
import { Controller, useForm, useWatch, type Control, type FieldPath } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { CountrySelect } from '../../../components/form/country-select';
import { fieldProps } from '../../../components/form/register-field';
import { appConfig } from '../../../config/app-config';
import { logger } from '../../../lib/api';
import { LegalRestrictionError, normalizeError } from '../../../lib/api-error';
import { browserState } from '../../../lib/browser-state';
import { SUPPORTED_LANGUAGES } from '../../../lib/i18n';
import { startSession, type LegalRestriction } from '../../../lib/session';
import { clearPendingCookieConsent } from '../../consents/consent-store';
import { signUp } from '../api/auth.api';
import { RestrictionNotice } from './login-form';

const email = (message: string) =>
  z
    .string()
    .trim()
    .min(1, message)
    .pipe(z.email({ message: 'Enter a valid email address' }));
const optionalEmail = z
  .string()
  .trim()
  .refine((value) => value === '' || z.email().safeParse(value).success, 'Enter a valid email address');
const mustAgree = (message: string) => z.boolean().refine((value) => value, message);

const SignUpFormSchema = z
  .object({
    email: email('Enter your email address'),
    password: NewPasswordSchema,
    name: z.string().trim().min(1, 'Enter your name').max(100),
    birthdate: z.string().min(1, 'Enter your date of birth').pipe(BirthdateSchema),
    country: z.string().regex(/^[A-Z]{2}$/, 'Choose your country'),
    region_code: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^([A-Z0-9]{1,3})?$/, 'Use the short code of your state or province, such as NY'),
    app_language: z.string(),
    primary_contact_type: z.enum(PRIMARY_CONTACT_TYPES),
    has_support_person: z.boolean(),
    secondary_name: z.string().trim().max(100),
    secondary_email: optionalEmail,
    secondary_phone: z
      .string()
      .trim()
      .regex(/^(\+?[0-9 ()-]{6,20})?$/, 'Enter a phone number such as +1 555 123 4567'),
    support_person_consent: z.boolean(),
    parent_email: optionalEmail,
    guardian_name: z.string().trim().max(100),
    guardian_relationship: z.enum(['parent', 'legal_guardian']),
    guardian_agreed: z.boolean(),
    opt_out_audio_recognition: z.boolean(),
    opt_out_audio_training: z.boolean(),
    accepted_tos: mustAgree('Terms of Service have not been accepted.'),
    accepted_privacy_policy: mustAgree('The privacy policy must be accepted'),
    marketing_consent: z.boolean(),
  })
  .superRefine((values, ctx) => {
    const issue = (path: FieldPath<SignUpFormValues>, message: string) => {
      ctx.addIssue({ code: 'custom', path: [path], message });
    };
    if (values.has_support_person) {
      if (!values.secondary_name) issue('secondary_name', "Enter your support person's name");
      if (!values.support_person_consent)
        issue('support_person_consent', 'Agree to involve your support person');
    }
    if (!isMinor(values.birthdate, values.country, values.region_code || null, new Date())) return;
    if (!values.parent_email) issue('parent_email', "Enter your parent's or guardian's email address");
    else if (values.parent_email.toLowerCase() === values.email.toLowerCase()) {
      issue('parent_email', "Use the guardian's own email address, not yours");
    }
    if (!values.guardian_name) issue('guardian_name', "Enter your parent's or guardian's name");
    if (!values.guardian_agreed)
      issue('guardian_agreed', 'Your parent or guardian must agree to the consent form');
    if (!values.support_person_consent)
      issue('support_person_consent', 'A parent or guardian must agree to be involved');
  });
export type SignUpFormValues = z.input<typeof SignUpFormSchema>;

/** Builds the sign-up request from the form, with local cookie consent and source tracking. */
export function toSignUpRequest(
  values: z.output<typeof SignUpFormSchema>,
  today: Date,
): Omit<SignUpRequest, 'password'> & { password: string } {
  const minor = isMinor(values.birthdate, values.country, values.region_code || null, today);
  const request: Omit<SignUpRequest, 'password'> & { password: string } = {
    email: values.email,
    password: values.password,
    app_language: values.app_language,
    name: values.name,
    birthdate: values.birthdate,
    country: values.country,
    primary_contact_type: values.primary_contact_type,
    opt_out_audio_recognition: values.opt_out_audio_recognition,
    opt_out_audio_training: values.opt_out_audio_training,
    accepted_tos: true,
    accepted_privacy_policy: true,
    marketing_consent: values.marketing_consent,
    support_person_consent: values.support_person_consent,
  };
  if (values.region_code) request.region_code = values.region_code;
  if (values.has_support_person) {
    request.secondary_name = values.secondary_name;
    if (values.secondary_email) request.secondary_email = values.secondary_email;
    if (values.secondary_phone) request.secondary_phone = values.secondary_phone;
  }
  if (minor) {
    request.parent_email = values.parent_email;
    request.guardian_consent = {
      region: consentRegionOf(values.country),
      guardian_name: values.guardian_name,
      relationship: values.guardian_relationship,
      agreed: true,
    };
  }
  return request;
}

function CheckboxField({
  control,
  name,
  label,
}: {
  control: Control<SignUpFormValues>;
  name: FieldPath<SignUpFormValues>;
  label: string;
}) {
  return (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
        <FormControl error={Boolean(fieldState.error)}>
          <FormControlLabel
            control={
              <Checkbox
                checked={field.value === true}
                onChange={(event) => {
                  field.onChange(event.target.checked);
                }}
                onBlur={field.onBlur}
                slotProps={{
                  input: {
                    ref: field.ref,
                    'aria-describedby': fieldState.error ? `${name}-error` : undefined,
                  },
                }}
              />
            }
            label={label}
          />
          {fieldState.error && (
            <FormHelperText id={`${name}-error`} sx={{ ml: 1.5, mt: -0.5 }}>
              {fieldState.error.message}
            </FormHelperText>
          )}
        </FormControl>
      )}
    />
  );
}

/** The sign-up of section 3: account, person, support person, guardian consent for minors, consents. */
export function SignUpForm() {
  const { t, i18n } = useTranslation();
  const [restriction, setRestriction] = useState<LegalRestriction | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<SignUpFormValues, unknown, z.output<typeof SignUpFormSchema>>({
    resolver: zodResolver(SignUpFormSchema),
    defaultValues: {
      email: '',
      password: '',
      name: '',
      birthdate: '',
      country: '',
      region_code: '',
      app_language: i18n.language,
      primary_contact_type: 'user',
      has_support_person: false,
      secondary_name: '',
      secondary_email: '',
      secondary_phone: '',
      support_person_consent: false,
      parent_email: '',
      guardian_name: '',
      guardian_relationship: 'parent',
      guardian_agreed: false,
      opt_out_audio_recognition: false,
      opt_out_audio_training: false,
      accepted_tos: false,
      accepted_privacy_policy: false,
      marketing_consent: false,
    },
  });
  const [birthdate, country, regionCode, hasSupportPerson] = useWatch({
    control,
    name: ['birthdate', 'country', 'region_code', 'has_support_person'],
  });
  const minor =
    BirthdateSchema.safeParse(birthdate).success && /^[A-Z]{2}$/.test(country)
      ? isMinor(birthdate, country, regionCode || null, new Date())
      : false;
  const region = country ? consentRegionOf(country) : 'OTHER';
  const native = { slotProps: { select: { native: true }, inputLabel: { shrink: true } } } as const;

  const handleSignUp = handleSubmit(async (values) => {
    setFailure(null);
    try {
      const request = toSignUpRequest(values, new Date());
      const cookies = browserState.get('unauthorizedCookieTypesConsent');
      const tracking = browserState.get('sourceTracking');
      const session = await signUp({
        ...request,
        ...(cookies ? { cookies_consent_types: cookies } : {}),
        ...(tracking ? { source_tracking: tracking } : {}),
      });
      if (cookies) clearPendingCookieConsent();
      browserState.remove('sourceTracking');
      startSession(session);
    } catch (error) {
      if (error instanceof LegalRestrictionError) {
        setRestriction({ reason: error.reason, details: error.details });
        return;
      }
      const { status, message } = normalizeError(error);
      if (status >= 500) logger.error(error, { during: 'sign_up' });
      setFailure(message);
    }
  });

  return (
    <Box component="form" noValidate onSubmit={(event) => void handleSignUp(event)}>
      {restriction && <RestrictionNotice restriction={restriction} />}
      <Stack spacing={2.5}>
        <Typography variant="h2">{t('signUp.accountSection')}</Typography>
        <TextField
          label={t('auth.email')}
          type="email"
          autoComplete="email"
          required
          {...fieldProps(register, errors, 'email')}
        />
        <TextField
          label={t('auth.password')}
          type="password"
          autoComplete="new-password"
          required
          {...fieldProps(register, errors, 'password', t('signUp.passwordHelp'))}
        />
        <TextField
          label={t('profile.name')}
          autoComplete="name"
          required
          {...fieldProps(register, errors, 'name')}
        />
        <TextField
          label={t('signUp.birthdate')}
          type="date"
          required
          slotProps={{ inputLabel: { shrink: true } }}
          {...fieldProps(register, errors, 'birthdate')}
        />
        <CountrySelect {...fieldProps(register, errors, 'country')} />
        <TextField
          label={t('profile.regionCode')}
          {...fieldProps(register, errors, 'region_code', t('profile.regionCodeHelp'))}
        />
        <TextField
          select
          label={t('signUp.appLanguage')}
          {...native}
          {...fieldProps(register, errors, 'app_language')}
        >
          {Object.entries(SUPPORTED_LANGUAGES).map(([tag, name]) => (
            <option key={tag} value={tag}>
              {name}
            </option>
          ))}
        </TextField>

        <Typography variant="h2" sx={{ pt: 2 }}>
          {t('signUp.supportSection')}
        </Typography>
        <Typography color="text.secondary">{t('signUp.supportIntro')}</Typography>
        <CheckboxField control={control} name="has_support_person" label={t('signUp.hasSupportPerson')} />
        {hasSupportPerson && (
          <Stack spacing={2.5}>
            <TextField
              label={t('signUp.secondaryName')}
              required
              {...fieldProps(register, errors, 'secondary_name')}
            />
            <TextField
              label={t('signUp.secondaryEmail')}
              type="email"
              {...fieldProps(register, errors, 'secondary_email')}
            />
            <TextField
              label={t('signUp.secondaryPhone')}
              type="tel"
              {...fieldProps(register, errors, 'secondary_phone')}
            />
          </Stack>
        )}
        <Controller
          name="primary_contact_type"
          control={control}
          render={({ field }) => (
            <FormControl>
              <FormLabel id="primary-contact-label">{t('signUp.primaryContact')}</FormLabel>
              <RadioGroup aria-labelledby="primary-contact-label" {...field}>
                {PRIMARY_CONTACT_TYPES.map((type) => (
                  <FormControlLabel
                    key={type}
                    value={type}
                    control={<Radio />}
                    label={t(`signUp.contactTypes.${type}`)}
                  />
                ))}
              </RadioGroup>
            </FormControl>
          )}
        />
        {(hasSupportPerson || minor) && (
          <CheckboxField
            control={control}
            name="support_person_consent"
            label={t('signUp.supportPersonConsent')}
          />
        )}

        {minor && (
          <Paper
            variant="outlined"
            component="section"
            aria-labelledby="guardian-title"
            sx={{ p: { xs: 2, sm: 3 }, borderColor: 'primary.main', borderWidth: 2 }}
          >
            <Typography id="guardian-title" variant="h2" sx={{ mb: 1 }}>
              {t('signUp.guardian.title')}
            </Typography>
            <Typography sx={{ mb: 1 }}>{t('signUp.guardian.intro')}</Typography>
            <Typography sx={{ mb: 2 }} data-testid="consent-region">
              {t(`signUp.guardian.forms.${region}`, { product: appConfig.productName })}
            </Typography>
            <Stack spacing={2.5}>
              <TextField
                label={t('signUp.guardian.email')}
                type="email"
                required
                {...fieldProps(register, errors, 'parent_email')}
              />
              <TextField
                label={t('signUp.guardian.name')}
                required
                {...fieldProps(register, errors, 'guardian_name')}
              />
              <TextField
                select
                label={t('signUp.guardian.relationship')}
                {...native}
                {...fieldProps(register, errors, 'guardian_relationship')}
              >
                <option value="parent">{t('signUp.guardian.parent')}</option>
                <option value="legal_guardian">{t('signUp.guardian.legalGuardian')}</option>
              </TextField>
              <CheckboxField control={control} name="guardian_agreed" label={t('signUp.guardian.agree')} />
            </Stack>
          </Paper>
        )}

        <Typography variant="h2" sx={{ pt: 2 }}>
          {t('signUp.consentSection')}
        </Typography>
        <CheckboxField control={control} name="accepted_tos" label={t('signUp.acceptTos')} />
        <CheckboxField control={control} name="accepted_privacy_policy" label={t('signUp.acceptPrivacy')} />
        <CheckboxField control={control} name="marketing_consent" label={t('signUp.marketing')} />
        <CheckboxField
          control={control}
          name="opt_out_audio_recognition"
          label={t('signUp.optOutRecognition')}
        />
        <CheckboxField control={control} name="opt_out_audio_training" label={t('signUp.optOutTraining')} />

        {failure && (
          <Alert severity="error" role="alert">
            {failure}
          </Alert>
        )}
        <Button type="submit" variant="contained" size="large" disabled={isSubmitting}>
          {isSubmitting ? t('signUp.creating') : t('signUp.submit')}
        </Button>
      </Stack>
    </Box>
  );
}
