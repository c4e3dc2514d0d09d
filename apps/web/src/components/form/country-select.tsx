import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { countryOptions } from '../../config/countries';

/** A required native select of countries, named in the app's language; spread `fieldProps` into it. */
export function CountrySelect(props: Omit<TextFieldProps, 'select' | 'children'>) {
  const { t, i18n } = useTranslation();
  const countries = useMemo(() => countryOptions(i18n.language), [i18n.language]);
  return (
    <TextField
      select
      label={t('profile.country')}
      required
      slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
      {...props}
    >
      <option value="">{t('common.choose')}</option>
      {countries.map((country) => (
        <option key={country.code} value={country.code}>
          {country.name}
        </option>
      ))}
    </TextField>
  );
}
