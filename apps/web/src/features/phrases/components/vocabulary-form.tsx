import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { MAX_PHRASE_LENGTH } from '@parla/contract';
import { useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { fieldProps } from '../../../components/form/register-field';
import { normalizeError } from '../../../lib/api-error';

interface VocabularyFormProps {
  /** The words of the phrase being edited; empty for a new one. */
  initialText?: string;
  submitLabel: string;
  cancelHref: string;
  /** Shown above the buttons (which scenario it joins, what happens to its takes). */
  note?: ReactNode;
  /** False while what the save needs is still loading. */
  ready?: boolean;
  /** Saves the trimmed text; a rejection keeps the form as it is and shows why. */
  onSave: (text: string) => Promise<unknown>;
}

/** The words of a personal vocabulary phrase: required, trimmed, at most the server's limit. */
export function VocabularyForm({
  initialText = '',
  submitLabel,
  cancelHref,
  note,
  ready = true,
  onSave,
}: VocabularyFormProps) {
  const { t } = useTranslation();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<{ text: string }>({ defaultValues: { text: initialText } });

  const handleSave = handleSubmit(async ({ text }) => {
    setFailure(null);
    try {
      await onSave(text.trim());
    } catch (error) {
      const { status, message } = normalizeError(error);
      // 409: the user already has a phrase with these words (ignoring case).
      if (status === 409) setError('text', { message: t('vocabulary.form.conflict') }, { shouldFocus: true });
      else setFailure(t('vocabulary.form.saveFailed', { message }));
    }
  });

  return (
    <Stack component="form" spacing={3} noValidate onSubmit={(event) => void handleSave(event)}>
      <TextField
        label={t('vocabulary.form.text')}
        required
        autoComplete="off"
        {...fieldProps(register, errors, 'text', t('vocabulary.form.textHelp'), {
          validate: (value) => {
            const trimmed = value.trim();
            if (!trimmed) return t('vocabulary.form.textEmpty');
            if (trimmed.length > MAX_PHRASE_LENGTH) {
              return t('vocabulary.form.tooLong', { max: MAX_PHRASE_LENGTH });
            }
            return true;
          },
        })}
      />
      {note}
      {failure && <Alert severity="error">{failure}</Alert>}
      <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap' }}>
        <Button type="submit" variant="contained" size="large" disabled={isSubmitting || !ready}>
          {submitLabel}
        </Button>
        <Button component={RouterLink} to={cancelHref} variant="outlined" size="large">
          {t('common.cancel')}
        </Button>
      </Box>
    </Stack>
  );
}
